// The recording file (a cassette: notebook/cassette writes and replays it, the sandbox serves it with
// --replay): one pretty JSON file per notebook, in a stable order, so it reviews well in a pull
// request. In the file, JSON stays JSON (a request's body, an answer read whole, a LISTEN's
// messages), so a diff shows fields, not escaped strings; streamed answers keep their chunks as text
// with their times.
import * as z from 'zod/mini';
import { parseJson, validate } from '../validate';
import type { RecordedRequest } from './requestKey';

export const CASSETTE_VERSION = 1;

/** The largest recording file read (the editor's Run from Recording, the sandbox's --replay). */
export const MAX_RECORDING_BYTES = 64 * 1024 * 1024;

const chunkSchema = z.object({ t: z.number(), text: z.optional(z.string()), base64: z.optional(z.string()), json: z.optional(z.unknown()) });
const fileEntrySchema = z.object({
  request: z.object({
    method: z.string(),
    url: z.string(),
    headers: z.record(z.string(), z.string()),
    body: z.optional(z.string()),
    json: z.optional(z.unknown()),
  }),
  response: z.object({
    status: z.number(),
    headers: z.record(z.string(), z.string()),
    json: z.optional(z.unknown()),
    chunks: z.optional(z.array(chunkSchema)),
    incomplete: z.optional(z.boolean()),
  }),
});
const fileSchema = z.object({ version: z.number(), notebook: z.string(), entries: z.array(fileEntrySchema) });

type FileEntry = z.infer<typeof fileEntrySchema>;
export type RecordedChunk = z.infer<typeof chunkSchema>;

export interface CassetteEntry {
  request: RecordedRequest;
  response: { status: number; headers: Record<string, string>; chunks: RecordedChunk[]; incomplete?: boolean };
}

function parsed(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function toFile(e: CassetteEntry): FileEntry {
  const { body, ...request } = e.request;
  const bodyJson = body !== undefined && !body.startsWith('sha256:') ? parsed(body) : { ok: false as const };
  const { chunks, ...response } = e.response;
  const whole =
    chunks.every((c) => c.text !== undefined) && !/event-stream/i.test(e.response.headers['content-type'] ?? '')
      ? chunks.map((c) => c.text).join('')
      : undefined;
  const answerJson = whole !== undefined && whole.trim() !== '' ? parsed(whole) : { ok: false as const };
  return {
    request: { ...request, ...(bodyJson.ok ? { json: bodyJson.value } : body !== undefined ? { body } : {}) },
    response: { ...response, ...(answerJson.ok ? { json: answerJson.value } : { chunks }) },
  };
}

function fromFile(e: FileEntry): CassetteEntry {
  const { json: bodyJson, body, ...request } = e.request;
  const { json, chunks, ...response } = e.response;
  // The canonical form requestKey.ts gives a JSON body: keys sorted, as the file has them.
  const text = 'json' in e.request ? JSON.stringify(bodyJson) : body;
  return {
    request: { ...request, ...(text !== undefined && { body: text }) },
    response: { ...response, chunks: 'json' in e.response ? [{ t: 0, text: JSON.stringify(json) }] : (chunks ?? []) },
  };
}

/** The entries of a recording file; throws a message naming `where` when it is not one this version reads. */
export function parseRecording(text: string, where: string): CassetteEntry[] {
  const json = parseJson(text);
  const file = json.ok ? validate(fileSchema, json.value) : { ok: false as const, problem: 'not JSON' };
  if (!file.ok) throw new Error(`${where} is not a recording of api-workbench (${file.problem}): record it again with --record`);
  if (file.value.version !== CASSETTE_VERSION)
    throw new Error(`${where} is a recording of version ${file.value.version}; this api-workbench reads version ${CASSETTE_VERSION}`);
  return file.value.entries.map(fromFile);
}

/** The file's text: entries in the order given (the caller sorts them), pretty-printed. */
export function serializeRecording(notebook: string, entries: readonly CassetteEntry[]): string {
  return JSON.stringify({ version: CASSETTE_VERSION, notebook, entries: entries.map(toFile) }, null, 2) + '\n';
}
