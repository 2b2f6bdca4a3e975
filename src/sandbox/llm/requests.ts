// Request bodies the sandbox accepts, validated with zod and refused with OpenAI's own 400 wording
// ("Missing required parameter: 'model'.", "Invalid type for 'messages[0].content' …").
import * as z from 'zod/mini';

const textPart = z.object({ type: z.string(), text: z.optional(z.string()) });

const toolCall = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

const message = z.object({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content: z.optional(z.nullable(z.union([z.string(), z.array(textPart)]))),
  name: z.optional(z.string()),
  tool_calls: z.optional(z.array(toolCall)),
  tool_call_id: z.optional(z.string()),
});

const positiveInt = z.int().check(z.gte(1));

/** OpenAI answers from 1 to 128 choices per request (`n`). */
export const MAX_CHOICES = 128;
/** `n`: its range is checked by choiceCountRefusal, which words the refusal as OpenAI does. */
export const choiceCount = z.optional(z.nullable(z.int()));

/** The 400 OpenAI gives for an `n` out of its range, or undefined when `n` is fine. */
export function choiceCountRefusal(n: number | null | undefined): OpenAiErrorBody | undefined {
  if (n === undefined || n === null || (n >= 1 && n <= MAX_CHOICES)) return undefined;
  const [side, bound, code] =
    n < 1 ? (['below minimum', '>= 1', 'integer_below_min_value'] as const) : (['above maximum', `<= ${MAX_CHOICES}`, 'integer_above_max_value'] as const);
  return { message: `Invalid 'n': integer ${side} value. Expected a value ${bound}, but got ${n} instead.`, type: 'invalid_request_error', param: 'n', code };
}
const jsonObject = z.record(z.string(), z.unknown());

const functionTool = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string().check(z.regex(/^[a-zA-Z0-9_-]{1,64}$/)),
    description: z.optional(z.string()),
    parameters: z.optional(jsonObject),
    strict: z.optional(z.nullable(z.boolean())),
  }),
});
export type FunctionTool = z.infer<typeof functionTool>;

const toolChoice = z.union([z.enum(['none', 'auto', 'required']), z.object({ type: z.literal('function'), function: z.object({ name: z.string() }) })]);
export type ToolChoice = z.infer<typeof toolChoice>;

const jsonSchemaFormat = z.object({
  name: z.string().check(z.regex(/^[a-zA-Z0-9_-]{1,64}$/)),
  description: z.optional(z.string()),
  schema: z.optional(jsonObject),
  strict: z.optional(z.nullable(z.boolean())),
});

const responseFormat = z.union([
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({ type: z.literal('json_schema'), json_schema: jsonSchemaFormat }),
]);
export type ResponseFormat = z.infer<typeof responseFormat>;

export const chatRequestSchema = z.object({
  model: z.string(),
  messages: z.array(message).check(z.minLength(1)),
  stream: z.optional(z.nullable(z.boolean())),
  stream_options: z.optional(z.nullable(z.object({ include_usage: z.optional(z.boolean()) }))),
  max_tokens: z.optional(z.nullable(positiveInt)),
  max_completion_tokens: z.optional(z.nullable(positiveInt)),
  temperature: z.optional(z.nullable(z.number().check(z.gte(0), z.lte(2)))),
  top_p: z.optional(z.nullable(z.number().check(z.gte(0), z.lte(1)))),
  n: choiceCount,
  tools: z.optional(z.array(functionTool)),
  tool_choice: z.optional(toolChoice),
  parallel_tool_calls: z.optional(z.boolean()),
  response_format: z.optional(responseFormat),
  logprobs: z.optional(z.nullable(z.boolean())),
  top_logprobs: z.optional(z.nullable(z.int().check(z.gte(0), z.lte(20)))),
});
export type ChatRequestBody = z.infer<typeof chatRequestSchema>;

export const embeddingsRequestSchema = z.object({
  model: z.string(),
  input: z.union([
    z.string(),
    z.array(z.string()).check(z.minLength(1)),
    z.array(z.int()).check(z.minLength(1)),
    z.array(z.array(z.int())).check(z.minLength(1)),
  ]),
  encoding_format: z.optional(z.enum(['float', 'base64'])),
  dimensions: z.optional(positiveInt),
  user: z.optional(z.string()),
});
export type EmbeddingsRequestBody = z.infer<typeof embeddingsRequestSchema>;

const inputText = z.union([z.string(), z.array(z.object({ type: z.string(), text: z.optional(z.string()) }))]);

/** Items of the Responses API `input` the sandbox understands; other item types are ignored. */
const responseInputItem = z.object({
  type: z.optional(z.string()),
  role: z.optional(z.enum(['system', 'developer', 'user', 'assistant'])),
  content: z.optional(inputText),
  call_id: z.optional(z.string()),
  name: z.optional(z.string()),
  arguments: z.optional(z.string()),
  output: z.optional(z.string()),
});

/** Responses API tools are flat: `{type, name, parameters}`, not nested under `function`. */
const responseTool = z.object({
  type: z.string(),
  name: z.optional(z.string()),
  description: z.optional(z.nullable(z.string())),
  parameters: z.optional(z.nullable(jsonObject)),
  strict: z.optional(z.nullable(z.boolean())),
});

export const responsesRequestSchema = z.object({
  model: z.string(),
  input: z.union([z.string(), z.array(responseInputItem).check(z.minLength(1))]),
  instructions: z.optional(z.nullable(z.string())),
  stream: z.optional(z.nullable(z.boolean())),
  max_output_tokens: z.optional(z.nullable(positiveInt)),
  temperature: z.optional(z.nullable(z.number().check(z.gte(0), z.lte(2)))),
  tools: z.optional(z.array(responseTool)),
  tool_choice: z.optional(z.union([z.enum(['none', 'auto', 'required']), z.object({ type: z.literal('function'), name: z.string() })])),
  text: z.optional(
    z.object({
      format: z.optional(
        z.union([
          z.object({ type: z.literal('text') }),
          z.object({ type: z.literal('json_object') }),
          z.object({
            type: z.literal('json_schema'),
            name: z.string(),
            description: z.optional(z.string()),
            schema: z.optional(jsonObject),
            strict: z.optional(z.nullable(z.boolean())),
          }),
        ]),
      ),
    }),
  ),
  previous_response_id: z.optional(z.nullable(z.string())),
  store: z.optional(z.nullable(z.boolean())),
});
export type ResponsesRequestBody = z.infer<typeof responsesRequestSchema>;
export type ResponseInputItem = z.infer<typeof responseInputItem>;

export interface OpenAiErrorBody {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

interface Issue {
  code: string;
  path: PropertyKey[];
  expected?: string;
  input?: unknown;
  values?: unknown[];
  minimum?: unknown;
  maximum?: unknown;
  /** invalid_union: the issues of each alternative. */
  errors?: Issue[][];
}

/** `messages[0].content`, as OpenAI names a parameter in its errors. */
function paramName(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
}

function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return typeof v === 'string' ? 'a string' : `a ${typeof v}`;
}

/** Turns the first validation issue into the 400 body OpenAI would send. */
export function invalidRequest(issues: readonly Issue[]): OpenAiErrorBody {
  const issue = issues[0];
  const param = paramName(issue.path);
  if (issue.code === 'invalid_type' && issue.input === undefined) {
    return { message: `Missing required parameter: '${param}'.`, type: 'invalid_request_error', param, code: 'missing_required_parameter' };
  }
  if (issue.code === 'invalid_type' || issue.code === 'invalid_union') {
    const alternatives = issue.errors?.map((branch) => branch[0]?.expected).filter((e): e is string => !!e) ?? [];
    const expected = issue.expected
      ? `expected ${issue.expected}`
      : alternatives.length
        ? `expected one of ${[...new Set(alternatives)].join(', ')}`
        : 'unexpected type';
    return {
      message: `Invalid type for '${param}': ${expected}, but got ${describeValue(issue.input)} instead.`,
      type: 'invalid_request_error',
      param,
      code: 'invalid_type',
    };
  }
  if (issue.code === 'too_small' && Array.isArray(issue.input) && issue.input.length === 0) {
    return {
      message: `Invalid '${param}': empty array. Expected an array with minimum length ${String(issue.minimum)}, but got an empty array instead.`,
      type: 'invalid_request_error',
      param,
      code: 'empty_array',
    };
  }
  if (issue.code === 'too_small' || issue.code === 'too_big') {
    const bound = issue.code === 'too_small' ? `greater than or equal to ${String(issue.minimum)}` : `less than or equal to ${String(issue.maximum)}`;
    return {
      message: `Invalid '${param}': expected a value ${bound}, but got ${JSON.stringify(issue.input)} instead.`,
      type: 'invalid_request_error',
      param,
      code: 'invalid_value',
    };
  }
  if (issue.code === 'invalid_value' && issue.values) {
    return {
      message: `Invalid value for '${param}': expected one of ${issue.values.map((v) => `'${String(v)}'`).join(', ')}, but got ${JSON.stringify(issue.input)} instead.`,
      type: 'invalid_request_error',
      param,
      code: 'invalid_value',
    };
  }
  return { message: `Invalid value for '${param}'.`, type: 'invalid_request_error', param, code: 'invalid_value' };
}

/** Validates a parsed body; the error side is ready to send as `{error}`. */
export function parseRequest<T>(schema: z.ZodMiniType<T>, body: unknown): { ok: true; value: T } | { ok: false; error: OpenAiErrorBody } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, error: { message: 'The request body must be a JSON object.', type: 'invalid_request_error', param: null, code: null } };
  }
  const r = schema.safeParse(body, { reportInput: true });
  return r.success ? { ok: true, value: r.data } : { ok: false, error: invalidRequest(r.error.issues) };
}
