// POST /v1/audio/speech: a short, valid audio file for the input text, made without a codec:
// `wav` and `pcm` (24 kHz 16-bit mono, OpenAI's pcm format) carry a tone per word; `mp3` (OpenAI's
// default) is silence of the same length. `opus`, `aac` and `flac` need encoders the sandbox does
// not have: they are a 400 that says which formats to ask for.
import * as z from 'zod/mini';
import { estimateTokens } from './answer';
import { admit, baseHeaders, invalid, openAiError, readJson, type Ctx, type LlmService } from './context';
import { silentMp3, speechPcm, speechSeconds, wavOf } from './media';
import { parseRequest, type OpenAiErrorBody } from './requests';

const MAX_INPUT_CHARS = 4096;
const SUPPORTED = ['mp3', 'wav', 'pcm'] as const;

const speechRequestSchema = z.object({
  model: z.string(),
  input: z.string().check(z.minLength(1)),
  voice: z.union([z.string(), z.object({ id: z.string() })]),
  response_format: z.optional(z.nullable(z.enum(['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm']))),
  speed: z.optional(z.nullable(z.number().check(z.gte(0.25), z.lte(4)))),
  instructions: z.optional(z.nullable(z.string())),
  stream_format: z.optional(z.nullable(z.enum(['sse', 'audio']))),
});

const CONTENT_TYPES: Record<(typeof SUPPORTED)[number], string> = { mp3: 'audio/mpeg', wav: 'audio/wav', pcm: 'audio/pcm' };

function speechRefusal(body: z.infer<typeof speechRequestSchema>): OpenAiErrorBody | undefined {
  if (body.input.length > MAX_INPUT_CHARS) {
    return invalid(
      `Invalid 'input': string too long. Expected a string with maximum length ${MAX_INPUT_CHARS}, but got a string with length ${body.input.length} instead.`,
      'input',
      'string_above_max_length',
    );
  }
  const format = body.response_format ?? 'mp3';
  if (!(SUPPORTED as readonly string[]).includes(format)) {
    return invalid(`The sandbox cannot encode ${format} audio; ask for response_format "mp3", "wav" or "pcm".`, 'response_format', 'unsupported_value');
  }
  if (body.stream_format === 'sse')
    return invalid('The sandbox does not stream speech as server-sent events; leave stream_format out (or "audio").', 'stream_format', 'unsupported_value');
  return undefined;
}

export async function speech(svc: LlmService, ctx: Ctx): Promise<void> {
  const json = await readJson(ctx);
  if (!json.ok) return;
  const parsed = parseRequest(speechRequestSchema, json.value);
  if (!parsed.ok) return openAiError(ctx, 400, parsed.error);
  const body = parsed.value;
  const admitted = admit(svc, ctx, ctx.deployment ?? body.model, 'speech', estimateTokens(body.input), () => speechRefusal(body));
  if (!admitted) return;
  const format = (body.response_format ?? 'mp3') as (typeof SUPPORTED)[number];
  const speed = body.speed ?? 1;
  const audio =
    format === 'mp3' ? silentMp3(speechSeconds(body.input, speed)) : format === 'wav' ? wavOf(speechPcm(body.input, speed)) : speechPcm(body.input, speed);
  ctx.res.writeHead(200, { 'content-type': CONTENT_TYPES[format], 'content-length': audio.length, ...baseHeaders(ctx), ...admitted.headers });
  ctx.res.end(audio);
}
