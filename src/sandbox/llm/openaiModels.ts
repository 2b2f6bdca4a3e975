// Stand-ins for the OpenAI API's public model ids, so notebooks and SDK scripts written for OpenAI
// run against the sandbox unchanged. The ids are those the official `openai` npm package (6.49)
// types as ChatModel, ResponsesModel, the legacy completions models, EmbeddingModel, ImageModel,
// SpeechModel, AudioModel and ModerationModel. Each behaves like the sandbox's own models of its
// kind (deterministic, free, offline); `owned_by` says it is a stand-in, so nobody mistakes a
// listing for the real service.
import type { SandboxModel } from './modelTypes';

export const STAND_IN_OWNER = 'sandbox stand-in for openai';

const CHAT = [
  'gpt-5.6-sol',
  'gpt-5.6-terra',
  'gpt-5.6-luna',
  'gpt-5.4',
  'gpt-5.4-mini',
  'gpt-5.4-nano',
  'gpt-5.4-mini-2026-03-17',
  'gpt-5.4-nano-2026-03-17',
  'gpt-5.3-chat-latest',
  'gpt-5.2',
  'gpt-5.2-2025-12-11',
  'gpt-5.2-chat-latest',
  'gpt-5.2-pro',
  'gpt-5.2-pro-2025-12-11',
  'gpt-5.1',
  'gpt-5.1-2025-11-13',
  'gpt-5.1-codex',
  'gpt-5.1-mini',
  'gpt-5.1-chat-latest',
  'gpt-5',
  'gpt-5-mini',
  'gpt-5-nano',
  'gpt-5-2025-08-07',
  'gpt-5-mini-2025-08-07',
  'gpt-5-nano-2025-08-07',
  'gpt-5-chat-latest',
  'gpt-4.1',
  'gpt-4.1-mini',
  'gpt-4.1-nano',
  'gpt-4.1-2025-04-14',
  'gpt-4.1-mini-2025-04-14',
  'gpt-4.1-nano-2025-04-14',
  'o4-mini',
  'o4-mini-2025-04-16',
  'o3',
  'o3-2025-04-16',
  'o3-mini',
  'o3-mini-2025-01-31',
  'o1',
  'o1-2024-12-17',
  'o1-preview',
  'o1-preview-2024-09-12',
  'o1-mini',
  'o1-mini-2024-09-12',
  'gpt-4o',
  'gpt-4o-2024-11-20',
  'gpt-4o-2024-08-06',
  'gpt-4o-2024-05-13',
  'gpt-4o-audio-preview',
  'gpt-4o-mini-audio-preview',
  'gpt-4o-search-preview',
  'gpt-4o-mini-search-preview',
  'chatgpt-4o-latest',
  'codex-mini-latest',
  'gpt-4o-mini',
  'gpt-4o-mini-2024-07-18',
  'gpt-4-turbo',
  'gpt-4-turbo-2024-04-09',
  'gpt-4-0125-preview',
  'gpt-4-turbo-preview',
  'gpt-4-1106-preview',
  'gpt-4',
  'gpt-4-0613',
  'gpt-3.5-turbo',
  'gpt-3.5-turbo-16k',
  'gpt-3.5-turbo-1106',
  'gpt-3.5-turbo-0125',
  // Responses-API models (ResponsesModel beyond ChatModel); the sandbox also serves them on chat.
  'o1-pro',
  'o3-pro',
  'o3-deep-research',
  'o4-mini-deep-research',
  'gpt-5-codex',
  'gpt-5-pro',
  'gpt-5.1-codex-max',
];

const COMPLETION = ['gpt-3.5-turbo-instruct', 'davinci-002', 'babbage-002'];

/** Native sizes; `dimensions` may shorten the text-embedding-3 ones, ada-002 has one size only. */
const EMBEDDING: { id: string; dimensions: number; shortens: boolean }[] = [
  { id: 'text-embedding-3-small', dimensions: 1536, shortens: true },
  { id: 'text-embedding-3-large', dimensions: 3072, shortens: true },
  { id: 'text-embedding-ada-002', dimensions: 1536, shortens: false },
];

const IMAGE = ['gpt-image-2', 'gpt-image-1.5', 'gpt-image-1', 'gpt-image-1-mini', 'chatgpt-image-latest', 'dall-e-3', 'dall-e-2'];
const SPEECH = ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts'];
const TRANSCRIPTION = ['whisper-1', 'gpt-4o-transcribe', 'gpt-4o-mini-transcribe'];
const MODERATION = ['omni-moderation-latest', 'omni-moderation-2024-09-26', 'text-moderation-latest', 'text-moderation-stable'];

/** A dated id's date as `created`; undated ids get one fixed date, so listings never change between runs. */
function createdOf(id: string): number {
  const m = /(\d{4})-(\d{2})-(\d{2})$/.exec(id);
  return m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / 1000 : 1_735_689_600;
}

function standIn(id: string, kind: SandboxModel['kind'], extra: Partial<SandboxModel> = {}): SandboxModel {
  return { id, owned_by: STAND_IN_OWNER, created: createdOf(id), kind, requestsPerWindow: 10_000, ...extra };
}

export const OPENAI_STAND_INS: readonly SandboxModel[] = [
  ...CHAT.map((id) => standIn(id, 'chat')),
  ...COMPLETION.map((id) => standIn(id, 'completion')),
  ...EMBEDDING.map((e) => standIn(e.id, 'embedding', { dimensions: e.dimensions, maxDimensions: e.shortens ? e.dimensions : undefined })),
  ...IMAGE.map((id) => standIn(id, 'image')),
  ...SPEECH.map((id) => standIn(id, 'speech')),
  ...TRANSCRIPTION.map((id) => standIn(id, 'transcription')),
  ...MODERATION.map((id) => standIn(id, 'moderation')),
];
