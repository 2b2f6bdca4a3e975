// What kind of model an id names, and the one order every place that offers models lists them in.
// Servers list models without saying what each can do (OpenAI's /models has no kind), and sorted by
// name a listing starts with `babbage-002` and `dall-e-2`, which cannot chat. So the kind is read
// from the id, as the sandbox's stand-ins and OpenAI's own names spell it; an id we do not recognise
// is taken for a chat model (local servers name chat models freely: `llama3.1:8b`).

export type ModelKind = 'chat' | 'completion' | 'embeddings' | 'images' | 'audio' | 'moderation';

/** The order kinds are listed in: chat first (what Ask, Compare, the Playground and chat need). */
export const MODEL_KINDS: readonly ModelKind[] = ['chat', 'completion', 'embeddings', 'images', 'audio', 'moderation'];

/** A picker's separator above each kind. */
export const MODEL_KIND_LABELS: Readonly<Record<ModelKind, string>> = {
  chat: 'Chat models',
  completion: 'Completion-only models (legacy /completions)',
  embeddings: 'Embedding models',
  images: 'Image models',
  audio: 'Audio models (speech, transcription, realtime)',
  moderation: 'Moderation models',
};

// Checked in this order: `text-embedding-ada-002` is an embedding model before it is an `ada`.
const KIND_PATTERNS: ReadonlyArray<[Exclude<ModelKind, 'chat'>, RegExp]> = [
  // Rerankers, like embedding models, score texts and never answer.
  ['embeddings', /embed|rerank/i],
  ['moderation', /moderation/i],
  ['images', /dall-e|(^|[-/])gpt-image|(^|-)image(-|$)/i],
  ['audio', /whisper|tts|transcribe|(^|-)realtime(-|$)/i],
  ['completion', /(^|[-/])(babbage|davinci|curie|ada)(-\d+)?$|-instruct(-|$)/i],
];

export function modelKind(id: string): ModelKind {
  return KIND_PATTERNS.find(([, re]) => re.test(id))?.[0] ?? 'chat';
}

export const isChatModel = (id: string): boolean => modelKind(id) === 'chat';

/**
 * Chat models known to answer with tool calls as far as we know: every one but the search, deep
 * research, `*-chat-latest` and early o1 models, which OpenAI serves without function calling.
 */
export function supportsToolCalls(id: string): boolean {
  return isChatModel(id) && !/search-preview|deep-research|(^|-)chat-latest$|chatgpt-4o|^o1-(mini|preview)/i.test(id);
}

/**
 * The chat models that answer first when a connection lists them, best-known first: the sandbox's
 * own model (the walkthrough's pictures show it), then OpenAI's cheap, current ones.
 */
export const WELL_KNOWN_CHAT_MODELS: readonly string[] = [
  'sandbox-chat',
  'sandbox-chat-mini',
  'gpt-4o-mini',
  'gpt-4.1-mini',
  'gpt-5-mini',
  'gpt-4o',
  'gpt-4.1',
  'gpt-5',
];

/**
 * The one order: by kind (chat first); within a kind, `preferred` (the user's last or default
 * model) first, then the well-known chat models, then by id.
 */
export function orderModels<M extends { id: string }>(models: readonly M[], preferred: ReadonlyArray<string | undefined> = []): M[] {
  const rank = (id: string): number => {
    const p = preferred.indexOf(id);
    if (p >= 0) return p;
    const w = WELL_KNOWN_CHAT_MODELS.indexOf(id);
    return w >= 0 ? preferred.length + w : Number.MAX_SAFE_INTEGER;
  };
  return [...models].sort(
    (a, b) => MODEL_KINDS.indexOf(modelKind(a.id)) - MODEL_KINDS.indexOf(modelKind(b.id)) || rank(a.id) - rank(b.id) || a.id.localeCompare(b.id),
  );
}

/** The chat models among `models`, in the one order. */
export function chatModelsOf<M extends { id: string }>(models: readonly M[], preferred: ReadonlyArray<string | undefined> = []): M[] {
  return orderModels(
    models.filter((m) => isChatModel(m.id)),
    preferred,
  );
}

/** Models grouped by kind for a picker with a separator per kind; only `kinds`, in the one order. */
export function modelsByKind<M extends { id: string }>(
  models: readonly M[],
  kinds: readonly ModelKind[] = MODEL_KINDS,
  preferred: ReadonlyArray<string | undefined> = [],
): Array<{ kind: ModelKind; label: string; models: M[] }> {
  const ordered = orderModels(
    models.filter((m) => kinds.includes(modelKind(m.id))),
    preferred,
  );
  return MODEL_KINDS.filter((k) => kinds.includes(k))
    .map((kind) => ({ kind, label: MODEL_KIND_LABELS[kind], models: ordered.filter((m) => modelKind(m.id) === kind) }))
    .filter((g) => g.models.length > 0);
}

/**
 * The models a request path can use: `/embeddings` takes embedding models, `/chat/completions` and
 * `/responses` chat models, …; undefined for a path that names no model kind (every kind then).
 */
export function modelKindsForPath(path: string): ModelKind[] | undefined {
  const p = path.split('?')[0].replace(/\/+$/, '');
  if (/\/chat\/completions$|\/responses$/.test(p)) return ['chat'];
  if (/\/completions$/.test(p)) return ['completion'];
  if (/\/embeddings$/.test(p)) return ['embeddings'];
  if (/\/images\//.test(p)) return ['images'];
  if (/\/audio\//.test(p)) return ['audio'];
  if (/\/moderations$/.test(p)) return ['moderation'];
  return undefined;
}
