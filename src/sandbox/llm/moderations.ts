// POST /v1/moderations: OpenAI's moderation result shape, decided by plain words so a notebook can
// exercise both paths: text holding a trigger word of a category (e.g. "kill" for violence,
// "idiot" for harassment) is flagged in that category with a high score; everything else gets
// small, deterministic scores and `flagged: false`. One result per input string; a multi-modal
// input list (text and image_url parts) is one result, as OpenAI answers it.
import * as z from 'zod/mini';
import { newId, sendJson } from '../http';
import { estimateTokens, fnv1a } from './answer';
import { admit, baseHeaders, openAiError, readJson, type Ctx, type LlmService } from './context';
import { parseRequest } from './requests';

const DEFAULT_MODEL = 'omni-moderation-latest';
const MAX_INPUTS = 32;

const part = z.union([
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image_url'), image_url: z.object({ url: z.string() }) }),
]);

const moderationsRequestSchema = z.object({
  input: z.union([
    z.string(),
    z.array(z.string()).check(z.minLength(1), z.maxLength(MAX_INPUTS)),
    z.array(part).check(z.minLength(1), z.maxLength(MAX_INPUTS)),
  ]),
  model: z.optional(z.string()),
});

/** Each category with the words that flag it in the sandbox. */
const TRIGGERS: Record<string, RegExp> = {
  harassment: /\b(idiot|loser|stupid)\b/i,
  'harassment/threatening': /\b(i will hurt you|watch your back)\b/i,
  hate: /\b(hate all)\b/i,
  'hate/threatening': /\b(exterminate)\b/i,
  illicit: /\b(counterfeit|launder|meth)\b/i,
  'illicit/violent': /\b(build a bomb|make a weapon)\b/i,
  'self-harm': /\b(self-harm|hurt myself)\b/i,
  'self-harm/intent': /\b(want to die|end my life)\b/i,
  'self-harm/instructions': /\b(how to self-harm)\b/i,
  sexual: /\b(explicit sex|nsfw)\b/i,
  'sexual/minors': /\b(sexual minors)\b/i,
  violence: /\b(kill|murder|attack|shoot)\b/i,
  'violence/graphic': /\b(gore|dismember)\b/i,
};
/** Categories an image part is also checked for (OpenAI's omni models: violence, self-harm and sexual ones). */
const IMAGE_CATEGORIES = new Set(['self-harm', 'self-harm/intent', 'self-harm/instructions', 'sexual', 'violence', 'violence/graphic']);

function result(text: string, hasImage: boolean, legacy: boolean) {
  const categories: Record<string, boolean | null> = {};
  const scores: Record<string, number> = {};
  const applied: Record<string, string[]> = {};
  for (const [category, trigger] of Object.entries(TRIGGERS)) {
    const hit = trigger.test(text);
    // A legacy text-moderation model has no illicit categories: OpenAI answers null there.
    const absent = legacy && category.startsWith('illicit');
    categories[category] = absent ? null : hit;
    scores[category] = absent ? 0 : hit ? 0.9 + (fnv1a(`${category}:${text}`) % 900) / 10_000 : (fnv1a(`${category}:${text}`) % 1000) / 1_000_000;
    applied[category] = hasImage && IMAGE_CATEGORIES.has(category) ? ['text', 'image'] : ['text'];
  }
  return { flagged: Object.values(categories).some(Boolean), categories, category_scores: scores, category_applied_input_types: applied };
}

export async function moderations(svc: LlmService, ctx: Ctx): Promise<void> {
  const json = await readJson(ctx);
  if (!json.ok) return;
  const parsed = parseRequest(moderationsRequestSchema, json.value);
  if (!parsed.ok) return openAiError(ctx, 400, parsed.error);
  const { input } = parsed.value;
  const modelId = parsed.value.model ?? DEFAULT_MODEL;
  const items: { text: string; hasImage: boolean }[] =
    typeof input === 'string'
      ? [{ text: input, hasImage: false }]
      : input.every((x) => typeof x === 'string')
        ? input.map((text) => ({ text, hasImage: false }))
        : [
            {
              text: input.map((p) => (typeof p === 'object' && p.type === 'text' ? p.text : '')).join(' '),
              hasImage: input.some((p) => typeof p === 'object' && p.type === 'image_url'),
            },
          ];
  const admitted = admit(
    svc,
    ctx,
    modelId,
    'moderation',
    items.reduce((n, i) => n + estimateTokens(i.text), 0),
  );
  if (!admitted) return;
  const legacy = admitted.model.id.startsWith('text-moderation');
  sendJson(
    ctx.res,
    200,
    { id: newId('modr-'), model: admitted.model.id, results: items.map((i) => result(i.text, i.hasImage, legacy)) },
    { ...baseHeaders(ctx), ...admitted.headers },
  );
}
