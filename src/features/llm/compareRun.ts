// Compare: one prompt sent to several models at once, each streamed into its own column. No
// `vscode` import: the unit suite runs this exact fan-out against the real sandbox.
import { isApiError, errorText } from '../../core/errors';
import type { RetryNotice } from '../../core/http';
import type { ChatMessage, LlmClient } from '../../services/llm';
import type { ColumnEvent, ColumnFailure, ColumnStats } from '../../services/llm/compareMessages';
import { chatModelsOf } from '../../catalogue/modelKinds';
import { PRICES, priceOf } from '../../services/llm/pricing';
import { costText, type PriceTable } from './costLedger';

export const MIN_COMPARE_MODELS = 2;
export const MAX_COMPARE_MODELS = 4;

export type { ColumnEvent, ColumnFailure, ColumnStats };

export interface ColumnResult {
  model: string;
  outcome: 'done' | 'failed' | 'cancelled';
  text: string;
  stats?: ColumnStats;
  failure?: ColumnFailure;
}

export interface CompareRequest {
  models: readonly string[];
  messages: readonly ChatMessage[];
  maxTokens?: number;
  /** Stops every column; each keeps what arrived. */
  signal?: AbortSignal;
}

/** Checks the model choice the way the panel's picker does: 2 to 4 distinct, non-empty ids. */
export function compareModelsProblem(models: readonly string[]): string | undefined {
  const ids = models.map((m) => m.trim()).filter(Boolean);
  if (new Set(ids).size !== ids.length) return 'Pick each model only once.';
  if (ids.length < MIN_COMPARE_MODELS || ids.length > MAX_COMPARE_MODELS)
    return `Pick ${MIN_COMPARE_MODELS} to ${MAX_COMPARE_MODELS} models to compare (${ids.length} picked).`;
  return undefined;
}

/**
 * The models Compare starts with: chat models only, in the one order (catalogue/modelKinds.ts: the
 * user's default and last-used ones, then the well-known ones), those with a known price first, then
 * models of the same maker as the first (the same family, more likely to work alike) before the
 * rest, so a catalogue's deliberately broken or throttled models (the sandbox's, "sandbox-labs")
 * are not preselected just for sorting early.
 */
export function compareSelection(
  models: ReadonlyArray<{ id: string; owned_by?: string | null }>,
  preferred: ReadonlyArray<string | undefined>,
  count = MIN_COMPARE_MODELS,
  prices: PriceTable = PRICES,
): string[] {
  const chat = chatModelsOf(models, preferred);
  const known = new Map(chat.map((m) => [m.id, m]));
  const chosen = preferred.filter((id): id is string => id !== undefined && known.has(id));
  const priced = chat.filter((m) => priceOf(m.id, prices) !== undefined);
  const first = chosen[0] ?? priced[0]?.id ?? chat[0]?.id;
  const owner = first === undefined ? undefined : known.get(first)?.owned_by;
  const sameMaker = (list: typeof chat) => list.filter((m) => m.owned_by === owner).map((m) => m.id);
  const ordered = [...chosen, ...sameMaker(priced), ...priced.map((m) => m.id), ...sameMaker(chat), ...chat.map((m) => m.id)];
  return [...new Set(ordered)].slice(0, count);
}

/**
 * Streams `req` to every model at once. A failure (429 after retries, unknown model, a stream that
 * breaks off) ends only its own column; the others continue. Resolves when every column settled.
 */
export async function runCompare(
  client: Pick<LlmClient, 'chatStream'>,
  req: CompareRequest,
  prices: PriceTable,
  emit: (e: ColumnEvent) => void,
): Promise<ColumnResult[]> {
  const problem = compareModelsProblem(req.models);
  if (problem) throw new Error(problem);
  return Promise.all(req.models.map((model, column) => runColumn(client, model, column, req, prices, emit)));
}

async function runColumn(
  client: Pick<LlmClient, 'chatStream'>,
  model: string,
  column: number,
  req: CompareRequest,
  prices: PriceTable,
  emit: (e: ColumnEvent) => void,
): Promise<ColumnResult> {
  const started = Date.now();
  let text = '';
  let requestId: string | undefined;
  const onRetry = (n: RetryNotice) => emit({ type: 'retry', column, status: n.error.status, waitMs: n.delayMs });
  try {
    for await (const e of client.chatStream({ model, messages: req.messages, maxTokens: req.maxTokens }, { cancel: req.signal, onRetry })) {
      if (e.type === 'start') {
        requestId = e.requestId;
        emit({ type: 'start', column, requestId });
      } else if (e.type === 'delta' && e.index === 0) {
        text += e.text;
        emit({ type: 'delta', column, text: e.text });
      } else if (e.type === 'done') {
        const stats: ColumnStats = {
          model: e.model ?? model,
          usage: e.usage,
          latencyMs: e.timings.totalMs,
          firstTokenMs: e.timings.firstTokenMs,
          requestId: e.requestId ?? requestId,
          finishReason: e.finishReason,
          cost: costText(model, e.usage, prices),
        };
        emit({ type: 'done', column, stats });
        return { model, outcome: 'done', text, stats };
      }
    }
    throw new Error('the stream ended without a result');
  } catch (e) {
    const latencyMs = Date.now() - started;
    if ((isApiError(e) && e.kind === 'cancelled') || req.signal?.aborted) {
      emit({ type: 'cancelled', column, latencyMs, requestId });
      return { model, outcome: 'cancelled', text };
    }
    const failure = failureOf(e, text.length, latencyMs, requestId);
    emit({ type: 'failed', column, failure });
    return { model, outcome: 'failed', text, failure };
  }
}

function failureOf(e: unknown, keptChars: number, latencyMs: number, requestId: string | undefined): ColumnFailure {
  if (isApiError(e)) {
    const midStream = e.kind === 'stream' || keptChars > 0;
    return {
      status: e.status,
      code: e.code,
      message: e.serviceMessage ?? e.message,
      requestId: e.requestId ?? requestId,
      description: e.describe(),
      keptChars,
      latencyMs,
      midStream,
    };
  }
  const message = errorText(e);
  return { message, requestId, description: message, keptChars, latencyMs, midStream: keptChars > 0 };
}
