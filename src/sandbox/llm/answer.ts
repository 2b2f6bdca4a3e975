// The sandbox's deterministic "model": everything it says is a pure function of the request, so a
// test (or the editor suite) can compute the exact answer it expects without talking to a server.
import { seededRandom } from '../../core/random';
import { proseWords } from './prose';

/** A chat message as the sandbox reads it (content may be a string or OpenAI content parts). */
export interface SandboxMessage {
  role: string;
  content?: string | ReadonlyArray<{ type: string; text?: string }> | null;
}

export interface AnswerOptions {
  /** Length of the answer in tokens (default: 48–95, derived from the prompt). */
  tokens?: number;
  /** The request's `max_tokens` / `max_completion_tokens`: the answer is cut there (finish_reason "length"). */
  maxTokens?: number;
  /**
   * Which of the request's `n` choices this is. Choice 0 is the answer a request without `n` gets;
   * each further choice is seeded by its index too, so its length and prose differ, deterministically.
   */
  choice?: number;
}

const EXCERPT_CHARS = 60;

/** FNV-1a over UTF-16 code units: tiny, stable across platforms and Node versions. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function messageText(m: SandboxMessage): string {
  if (typeof m.content === 'string') return m.content;
  if (!m.content) return '';
  return m.content.map((p) => (p.type === 'text' && p.text ? p.text : '')).join('');
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat); // code points, so a surrogate pair is never cut in half
  return chars.length > EXCERPT_CHARS ? `${chars.slice(0, EXCERPT_CHARS).join('')}…` : flat;
}

/** Splits text into stream tokens the way the sandbox emits them: the first bare, then " word". */
function wordTokens(text: string): string[] {
  return text
    .split(' ')
    .filter((w) => w !== '')
    .map((w, i) => (i === 0 ? w : ` ${w}`));
}

function promptSeed(messages: readonly SandboxMessage[], model: string, choice = 0): number {
  const prompt = `${model}\n${messages.map((m) => `${m.role}:${messageText(m)}`).join('\n')}`;
  // Choice 0 keeps the seed it had before `n` existed, so every single answer stays what it was.
  return fnv1a(choice === 0 ? prompt : `${prompt}\nchoice:${choice}`);
}

/** The full answer length before any max_tokens cut. */
export function sandboxAnswerLength(messages: readonly SandboxMessage[], model: string, tokens?: number, choice = 0): number {
  if (tokens !== undefined) return tokens;
  return model.includes('slow') ? readableSentences(messages, model, choice).join(' ').split(' ').length : 48 + (promptSeed(messages, model, choice) % 48);
}

/** The text the user asked (or, right after a tool ran, what the tool returned) that the answer names. */
function answerIntro(messages: readonly SandboxMessage[], model: string): string {
  const last = messages[messages.length - 1];
  // After a tool result the answer quotes it, as a model answering from the tool's output would.
  if (last?.role === 'tool') return `Sandbox answer from ${model} using the tool result “${excerpt(messageText(last))}”:`;
  return `Sandbox answer from ${model} to “${excerpt(lastUserText(messages))}”:`;
}

const READABLE = [
  'This answer comes from the slow sandbox model.',
  'It arrives at about the pace a person reads.',
  'Press Stop whenever you like to end it early.',
  'Nothing here leaves your machine, and it costs nothing.',
  'The same prompt always gets these same words.',
  'Each sentence is short, so you can follow along.',
  'A real model would be thinking about your question here.',
  'Try asking something else to hear a different order.',
];

/** The slow model's answer: a handful of short sentences a person can read as they arrive. */
function readableSentences(messages: readonly SandboxMessage[], model: string, choice: number): string[] {
  const random = seededRandom(promptSeed(messages, model, choice));
  const pool = [...READABLE];
  const picked: string[] = [];
  while (picked.length < 5) picked.push(pool.splice(Math.floor(random() * pool.length), 1)[0]);
  const last = messages[messages.length - 1];
  const about = last?.role === 'tool' ? `The tool said “${excerpt(messageText(last))}”.` : `You asked: “${excerpt(lastUserText(messages))}”.`;
  return [about, ...picked];
}

/** What the answer is about: the tool's output right after a tool ran, else the user's last words. */
function answerTopic(messages: readonly SandboxMessage[]): string {
  const last = messages[messages.length - 1];
  return last?.role === 'tool' ? messageText(last) : lastUserText(messages);
}

function lastUserText(messages: readonly SandboxMessage[]): string {
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  return lastUser ? messageText(lastUser) : '';
}

function readableTokens(messages: readonly SandboxMessage[], model: string, total: number, choice: number): string[] {
  const words = wordTokens(readableSentences(messages, model, choice).join(' '));
  // An x-sandbox-answer-tokens length longer than the text repeats its sentences.
  const out: string[] = [];
  for (let i = 0; out.length < total; i++) out.push(i < words.length ? words[i] : ` ${words[i % words.length].trim()}`);
  return out;
}

/**
 * The answer as the list of tokens the sandbox streams (one SSE content chunk each).
 * Joined, they are `sandboxAnswer(...)`.
 */
export function sandboxAnswerTokens(messages: readonly SandboxMessage[], model: string, opts: AnswerOptions = {}): string[] {
  const choice = opts.choice ?? 0;
  const total = sandboxAnswerLength(messages, model, opts.tokens, choice);
  const limit = opts.maxTokens === undefined ? total : Math.min(total, opts.maxTokens);
  if (model.includes('slow')) return readableTokens(messages, model, total, choice).slice(0, limit);
  const intro = wordTokens(answerIntro(messages, model)).slice(0, total);
  const body = proseWords(answerTopic(messages), total - intro.length, seededRandom(promptSeed(messages, model, choice)));
  return [...intro, ...body.map((w) => ` ${w}`)].slice(0, limit);
}

/** The exact text a chat completion from the sandbox contains for these messages and model. */
export function sandboxAnswer(messages: readonly SandboxMessage[], model: string, opts: AnswerOptions = {}): string {
  return sandboxAnswerTokens(messages, model, opts).join('');
}

/** Why the answer ended: "length" when max_tokens cut it short. */
export function sandboxFinishReason(messages: readonly SandboxMessage[], model: string, opts: AnswerOptions = {}): 'stop' | 'length' {
  const total = sandboxAnswerLength(messages, model, opts.tokens, opts.choice ?? 0);
  return opts.maxTokens !== undefined && opts.maxTokens < total ? 'length' : 'stop';
}

/** The sandbox's token count for text: about four characters per token, like English BPE. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** prompt_tokens as the sandbox reports it (a fixed overhead per message, as OpenAI's chat format has). */
export function estimatePromptTokens(messages: readonly SandboxMessage[]): number {
  return 3 + messages.reduce((n, m) => n + 3 + estimateTokens(messageText(m)), 0);
}

/** How much of an embedding is the text's own noise: two texts with the same words stay distinguishable, yet about 0.98 similar. */
const EMBEDDING_NOISE = 0.15;

/**
 * A deterministic unit-length embedding of `text`: a hashed bag of its words (each word adds ±1 to
 * one dimension) plus a little noise seeded by the whole text. Texts that share words point the
 * same way, so cosine similarity means something (`?? similar` checks rely on it): the same words
 * give about 0.98, unrelated words about 0. Values are float32 (Math.fround) so the "float" and
 * "base64" encodings of one vector decode to identical numbers.
 */
export function sandboxEmbedding(text: string, dimensions: number): number[] {
  const random = seededRandom(fnv1a(text));
  const noise = unit(Array.from({ length: dimensions }, () => random() * 2 - 1));
  const bag = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const h = fnv1a(word);
    bag[h % dimensions] += h & 0x80000000 ? -1 : 1;
  }
  const words = unit(bag);
  const hasWords = words.some((v) => v !== 0);
  return unit(words.map((v, i) => (hasWords ? v + EMBEDDING_NOISE * noise[i] : noise[i]))).map((v) => Math.fround(v));
}

function unit(v: number[]): number[] {
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return norm === 0 ? v : v.map((x) => x / norm);
}
