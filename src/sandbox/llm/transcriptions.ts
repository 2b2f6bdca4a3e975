// POST /v1/audio/transcriptions and /v1/audio/translations: a multipart upload of an audio file,
// answered with deterministic text: a few sentences seeded by the file's bytes (about two words a
// second of audio; the length of a WAV is read from its header, other formats are taken as
// 128 kbit/s). The formats are OpenAI's: json, text, srt, vtt and verbose_json (whisper-1 only,
// as OpenAI's newer transcription models answer json and text only).
import { createHash } from 'node:crypto';
import * as z from 'zod/mini';
import { sendJson, sendText } from '../http';
import { seededRandom } from '../../core/random';
import { admit, baseHeaders, invalid, openAiError, type Ctx, type LlmService } from './context';
import { formFields, readMultipart, type UploadSlots } from './multipart';
import { proseWords } from './prose';
import { parseRequest } from './requests';

const audioRequestSchema = z.object({
  model: z.string(),
  language: z.optional(z.string()),
  prompt: z.optional(z.string()),
  response_format: z.optional(z.enum(['json', 'text', 'srt', 'verbose_json', 'vtt', 'diarized_json'])),
  temperature: z.optional(z.string()),
  timestamp_granularities: z.optional(z.array(z.enum(['word', 'segment']))),
  stream: z.optional(z.string()),
});

const MAX_WORDS = 400;

/** Seconds of audio: exact for a PCM WAV (its byte rate and data size), else as 128 kbit/s audio. */
export function audioSeconds(bytes: Buffer): number {
  if (bytes.length >= 44 && bytes.toString('ascii', 0, 4) === 'RIFF' && bytes.toString('ascii', 8, 12) === 'WAVE') {
    const byteRate = bytes.readUInt32LE(28);
    if (byteRate > 0) return Math.max(0, bytes.length - 44) / byteRate;
  }
  return bytes.length / 16_000;
}

/** The transcript of these bytes: the same file always gives the same words. */
export function sandboxTranscript(bytes: Buffer, seconds: number, topic = ''): string {
  const seed = createHash('sha256').update(bytes).digest().readUInt32BE(0);
  const count = Math.min(MAX_WORDS, Math.max(6, Math.round(seconds * 2)));
  return proseWords(topic || 'audio recording', count, seededRandom(seed)).join(' ');
}

/** 00:00:02,500 (srt) or 00:00:02.500 (vtt). */
function timestamp(seconds: number, separator: ',' | '.'): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}

export async function audioToText(svc: LlmService, ctx: Ctx, slots: UploadSlots, task: 'transcribe' | 'translate'): Promise<void> {
  const form = await readMultipart(ctx, slots);
  if (!form) return;
  const { fields, files } = formFields(form);
  const parsed = parseRequest(audioRequestSchema, fields);
  if (!parsed.ok) return openAiError(ctx, 400, parsed.error);
  const body = parsed.value;
  const file = files.get('file');
  if (!file) return openAiError(ctx, 400, invalid("Missing required parameter: 'file'.", 'file', 'missing_required_parameter'));
  const format = body.response_format ?? 'json';
  const admitted = admit(svc, ctx, ctx.deployment ?? body.model, 'transcription', 0, (model) => {
    if (body.stream === 'true') return invalid('The sandbox does not stream transcriptions; leave stream out.', 'stream', 'unsupported_value');
    if (model.id !== 'whisper-1' && !['json', 'text'].includes(format)) {
      return invalid(`response_format '${format}' is not compatible with model '${model.id}'. Use 'json' or 'text'.`, 'response_format', 'unsupported_value');
    }
    if (format === 'diarized_json') return invalid("The sandbox does not diarize; ask for response_format 'json'.", 'response_format', 'unsupported_value');
    return undefined;
  });
  if (!admitted) return;
  const bytes = Buffer.from(await file.arrayBuffer());
  const duration = Math.round(audioSeconds(bytes) * 100) / 100;
  const text = sandboxTranscript(bytes, duration, body.prompt);
  const headers = { ...baseHeaders(ctx), ...admitted.headers };
  if (format === 'text') return sendText(ctx.res, 200, `${text}\n`, headers);
  if (format === 'srt') return sendText(ctx.res, 200, `1\n${timestamp(0, ',')} --> ${timestamp(duration, ',')}\n${text}\n\n`, headers);
  if (format === 'vtt')
    return sendText(ctx.res, 200, `WEBVTT\n\n${timestamp(0, '.')} --> ${timestamp(duration, '.')}\n${text}\n\n`, {
      ...headers,
      'content-type': 'text/vtt; charset=utf-8',
    });
  if (format === 'json') {
    const usage = task === 'transcribe' ? { usage: { type: 'duration', seconds: Math.ceil(duration) } } : {};
    return sendJson(ctx.res, 200, { text, ...usage }, headers);
  }
  const language = task === 'translate' ? 'english' : (body.language ?? 'english');
  const segment = {
    id: 0,
    seek: 0,
    start: 0,
    end: duration,
    text: ` ${text}`,
    tokens: [],
    temperature: 0,
    avg_logprob: -0.2,
    compression_ratio: 1.2,
    no_speech_prob: 0.01,
  };
  const words = body.timestamp_granularities?.includes('word')
    ? {
        words: text.split(' ').map((word, i, all) => ({ word, start: (duration * i) / all.length, end: (duration * (i + 1)) / all.length })),
      }
    : {};
  sendJson(ctx.res, 200, { task, language, duration, text, segments: [segment], ...words }, headers);
}
