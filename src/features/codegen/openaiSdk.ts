// One LLM request as the official `openai` SDK writes it (Python and JavaScript): chat completions
// (a streamed one as a loop), tools, response_format, embeddings, the Responses API, the model
// list; Azure OpenAI's classic API through AzureOpenAI with its api_version. The SDK reads the key
// from the environment variable itself; the base URL is the connection's.
import type { ExportedRequest } from '../../notebook/api';
import { asciiMarkers, envRead } from './envRefs';
import { jsonSource, References } from './programValues';
import { Code, jsCall, pyCall } from './literals';
import { headerLines } from './snippet';

export type OpenAiCall = 'chat' | 'embeddings' | 'responses' | 'models';

const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** Which SDK method a request is, from its path under the connection's base URL; undefined when the SDK has none. */
export function openAiCall(req: Pick<ExportedRequest, 'service' | 'method' | 'url'>): OpenAiCall | undefined {
  if (req.service !== 'llm') return undefined;
  const path = req.url.replace(/[?#].*$/, '');
  if (req.method === 'POST' && /\/chat\/completions$/.test(path)) return 'chat';
  if (req.method === 'POST' && /\/embeddings$/.test(path)) return 'embeddings';
  if (req.method === 'POST' && /\/responses$/.test(path)) return 'responses';
  if (req.method === 'GET' && /\/models$/.test(path)) return 'models';
  return undefined;
}

/** The body's fields, with every unresolved `{{value}}` read from its environment variable (and, in a notebook program, every earlier answer read from it). */
export function bodyFields(req: ExportedRequest, language: 'python' | 'javascript', refs = new References(new Map())): Array<[string, unknown]> {
  if (req.body === undefined) return [];
  const parsed = jsonSource(language, refs, asciiMarkers(req.body));
  if (parsed === undefined)
    throw new Error(
      'The body is not JSON (once its {{variables}} are filled in): the SDK takes the request as fields. Copy it as Python or JavaScript instead.',
    );
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) || parsed instanceof Code)
    throw new Error('The body is not a JSON object: the SDK takes the request as fields.');
  return Object.entries(parsed);
}

export interface Client {
  azure?: { endpoint: string; apiVersion: string };
  baseUrl?: string;
  /** Set when the key is not in the variable the SDK reads by itself. */
  apiKeyVar?: string;
}

export function clientOf(req: ExportedRequest): Client {
  if (req.azure) {
    const endpoint = new URL(req.baseUrl).origin;
    return { azure: { endpoint, apiVersion: req.azure.apiVersion }, ...(req.envVar !== 'AZURE_OPENAI_API_KEY' ? { apiKeyVar: req.envVar } : {}) };
  }
  return {
    ...(req.baseUrl.replace(/\/+$/, '') !== DEFAULT_BASE_URL ? { baseUrl: req.baseUrl.replace(/\/+$/, '') } : {}),
    ...(req.envVar !== 'OPENAI_API_KEY' ? { apiKeyVar: req.envVar } : {}),
  };
}

export function pythonClient(c: Client): { imports: string[]; line: string } {
  const args: Array<[string, unknown]> = [];
  if (c.azure) args.push(['azure_endpoint', c.azure.endpoint], ['api_version', c.azure.apiVersion]);
  if (c.baseUrl) args.push(['base_url', c.baseUrl]);
  if (c.apiKeyVar) args.push(['api_key', new Code(envRead('python', c.apiKeyVar))]);
  const cls = c.azure ? 'AzureOpenAI' : 'OpenAI';
  return { imports: [`from openai import ${cls}`], line: `client = ${pyCall(cls, args, 0, 'client = '.length)}` };
}

export function jsClient(c: Client): { imports: string[]; line: string } {
  const opts: Record<string, unknown> = {};
  if (c.azure) Object.assign(opts, { endpoint: c.azure.endpoint, apiVersion: c.azure.apiVersion });
  if (c.baseUrl) opts.baseURL = c.baseUrl;
  if (c.apiKeyVar) opts.apiKey = new Code(envRead('javascript', c.apiKeyVar));
  const cls = c.azure ? 'AzureOpenAI' : 'OpenAI';
  const made = Object.keys(opts).length ? `${jsCall(`new ${cls}`, opts, 0, 'const client = '.length, 1)};` : `new ${cls}();`;
  return { imports: [`import { ${cls} } from "openai";`], line: `const client = ${made}` };
}

export const PY_METHOD: Record<Exclude<OpenAiCall, 'models'>, string> = {
  chat: 'client.chat.completions.create',
  embeddings: 'client.embeddings.create',
  responses: 'client.responses.create',
};

/** What the code does with the answer, by call; a streamed chat or Responses answer is read in a loop as it arrives. */
type Use = OpenAiCall | 'stream' | 'responsesStream';

const PY_USE: Record<Use, string[]> = {
  chat: [
    'message = response.choices[0].message',
    'for call in message.tool_calls or []:',
    '    print(call.function.name, call.function.arguments)',
    'print(message.content)',
  ],
  stream: [
    'for chunk in response:',
    '    if not chunk.choices:',
    '        continue',
    '    delta = chunk.choices[0].delta',
    '    for call in delta.tool_calls or []:',
    '        print(call.function.name or "", call.function.arguments or "", end="")',
    '    print(delta.content or "", end="", flush=True)',
    'print()',
  ],
  embeddings: ['print(len(response.data[0].embedding), "dimensions")'],
  responses: [
    'for item in response.output:',
    '    if item.type == "function_call":',
    '        print(item.name, item.arguments)',
    'print(response.output_text)',
  ],
  responsesStream: [
    'for event in response:',
    '    if event.type == "response.output_text.delta":',
    '        print(event.delta, end="", flush=True)',
    '    elif event.type == "response.output_item.done":',
    '        if event.item.type == "function_call":',
    '            print(event.item.name, event.item.arguments)',
    'print()',
  ],
  models: ['for model in client.models.list():', '    print(model.id)'],
};

const JS_USE: Record<Use, string[]> = {
  chat: [
    'const message = response.choices[0].message;',
    'for (const call of message.tool_calls ?? []) {',
    '  console.log(call.function.name, call.function.arguments);',
    '}',
    'console.log(message.content);',
  ],
  stream: [
    'for await (const chunk of response) {',
    '  const delta = chunk.choices[0]?.delta;',
    '  for (const call of delta?.tool_calls ?? []) {',
    '    const { name = "", arguments: args = "" } = call.function ?? {};',
    '    process.stdout.write(`${name} ${args}`);',
    '  }',
    '  process.stdout.write(delta?.content ?? "");',
    '}',
    'process.stdout.write("\\n");',
  ],
  embeddings: ['console.log(response.data[0].embedding.length, "dimensions");'],
  responses: [
    'for (const item of response.output) {',
    '  if (item.type === "function_call") console.log(item.name, item.arguments);',
    '}',
    'console.log(response.output_text);',
  ],
  responsesStream: [
    'for await (const event of response) {',
    '  if (event.type === "response.output_text.delta") {',
    '    process.stdout.write(event.delta);',
    '  } else if (event.type === "response.output_item.done") {',
    '    const { item } = event;',
    '    if (item.type === "function_call") console.log(item.name, item.arguments);',
    '  }',
    '}',
    'process.stdout.write("\\n");',
  ],
  models: ['for await (const model of client.models.list()) {', '  console.log(model.id);', '}'],
};

export const JS_METHOD: Record<Exclude<OpenAiCall, 'models'>, string> = {
  chat: 'client.chat.completions.create',
  embeddings: 'client.embeddings.create',
  responses: 'client.responses.create',
};

/** The request as `openai` SDK code in Python or JavaScript (an ES module: top-level await). */
export function openAiSnippet(req: ExportedRequest, language: 'python' | 'javascript'): string {
  const call = openAiCall(req);
  if (!call)
    throw new Error(
      `The openai SDK has no call for ${req.method} ${req.url}: copy it as ${language === 'python' ? 'Python (requests)' : 'JavaScript (fetch)'} instead.`,
    );
  const fields = bodyFields(req, language);
  const streamed = fields.some(([k, v]) => k === 'stream' && v === true);
  const use = (language === 'python' ? PY_USE : JS_USE)[streamed && call === 'chat' ? 'stream' : streamed && call === 'responses' ? 'responsesStream' : call];
  const client = clientOf(req);
  const header = headerLines(language === 'python' ? 'python-sdk' : 'javascript-sdk', req);
  if (language === 'python') {
    const made = pythonClient(client);
    // Code objects serialise with their text: an environment read anywhere in the fields needs `os`.
    const needsOs = client.apiKeyVar !== undefined || JSON.stringify(fields).includes('os.environ');
    const needsJson = JSON.stringify(fields).includes('json.loads(');
    const imports = [...(needsJson ? ['import json'] : []), ...(needsOs ? ['import os'] : []), ...(needsOs || needsJson ? [''] : []), ...made.imports];
    const request = call === 'models' ? [] : [`response = ${pyCall(PY_METHOD[call], fields, 0, 'response = '.length)}`];
    return [...header, ...imports, '', made.line, '', ...request, ...use].join('\n') + '\n';
  }
  const made = jsClient(client);
  const request =
    call === 'models' ? [] : [`const response = await ${jsCall(JS_METHOD[call], Object.fromEntries(fields), 0, 'const response = await '.length, 1)};`];
  return [...header, ...made.imports, '', made.line, '', ...request, ...use].join('\n') + '\n';
}
