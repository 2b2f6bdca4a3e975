// A cell refused because its model was retired says what to do. OpenAI's 404 ("The model `davinci`
// has been deprecated, learn more here: …") names neither the day it stopped nor the model that
// replaced it; the one table (services/llm/retiredModels.ts) does, so the red cell quotes it.
import { retiredModel, retiredModelAdvice, type RetiredModel } from '../services/llm/retiredModels';
import { requestedModel } from './llmAnswer';
import type { ResponseRecord } from './types';

/** An id the way OpenAI's errors quote it: `davinci` (and 'davinci' or "davinci" elsewhere). */
const QUOTED_ID = /[`'"]([A-Za-z0-9][\w.:-]*)[`'"]/g;

/** The retired model an error is about: one its text quotes, else the one the request body asked for. */
function retiredModelOf(text: string, requestBody: string | undefined): RetiredModel | undefined {
  for (const [, id] of text.matchAll(QUOTED_ID)) {
    const retired = retiredModel(id);
    if (retired) return retired;
  }
  const asked = requestedModel(requestBody);
  return asked === undefined ? undefined : retiredModel(asked);
}

/**
 * The cell's error with the shutdown date and the replacement appended, when its answer was a 404
 * about a retired model; otherwise the error as it was.
 */
export function withRetiredModelAdvice(error: string, response: ResponseRecord | undefined, requestBody: string | undefined): string {
  if (response?.status !== 404) return error;
  const retired = retiredModelOf(`${error}\n${response.text}`, requestBody);
  if (!retired) return error;
  const advice = retiredModelAdvice(retired);
  if (error.includes(advice)) return error;
  return `${error}. ${advice}: change the cell's "model" to "${retired.replacement}".`;
}
