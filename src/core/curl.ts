// "Copy as cURL": a request as a POSIX-shell command line whose key is an environment-variable
// reference, never the key itself. vscode-free so the quoting rules are unit-tested in plain mocha.
import type { AuthPlacement } from './auth';
import type { OutgoingRequest } from './http';
import { Redactor } from './redact';

export type CurlRequest = Pick<OutgoingRequest, 'method' | 'url' | 'headers' | 'body' | 'auth'>;

export interface CurlOptions {
  /** The variable the shell expands to the key, e.g. OPENAI_API_KEY. */
  envVar: string;
  /**
   * Final guard: every part of the text except the variable references goes through it, so a
   * known secret that slipped into a URL, header or body comes out masked.
   */
  redactor?: Redactor;
}

const ENV_VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const AZURE_HOST = /\.(?:openai\.azure\.com|services\.ai\.azure\.com|cognitiveservices\.azure\.com)$/i;

/**
 * OpenAI-compatible hosts whose own SDKs and docs read the key from a variable of their own: an
 * OpenRouter key exported as OPENAI_API_KEY would shadow the user's OpenAI key in the same shell.
 */
const HOST_KEY_VARIABLES: readonly [RegExp, string][] = [
  [AZURE_HOST, 'AZURE_OPENAI_API_KEY'],
  [/^openrouter\.ai$/i, 'OPENROUTER_API_KEY'],
  [/^bedrock-runtime(?:-fips)?\.[a-z0-9-]+\.amazonaws\.com$/i, 'AWS_BEARER_TOKEN_BEDROCK'],
  [/^generativelanguage\.googleapis\.com$/i, 'GEMINI_API_KEY'],
  [/^api\.groq\.com$/i, 'GROQ_API_KEY'],
  [/^api\.mistral\.ai$/i, 'MISTRAL_API_KEY'],
  [/^api\.deepseek\.com$/i, 'DEEPSEEK_API_KEY'],
  [/^api\.together\.(?:xyz|ai)$/i, 'TOGETHER_API_KEY'],
  [/^api\.fireworks\.ai$/i, 'FIREWORKS_API_KEY'],
];

/**
 * The variable a user most likely already has the key in: the names the official SDKs read
 * (openai: OPENAI_API_KEY, AzureOpenAI: AZURE_OPENAI_API_KEY, and the hosts above) and the Google
 * Maps samples use.
 */
export function keyEnvVar(service: 'llm' | 'maps', auth: AuthPlacement, baseUrl?: string): string {
  if (service === 'maps') return 'GOOGLE_MAPS_API_KEY';
  if (auth.placement === 'header' && auth.name.toLowerCase() === 'api-key') return 'AZURE_OPENAI_API_KEY';
  let host = '';
  try {
    host = baseUrl ? new URL(baseUrl).hostname : '';
  } catch {
    /* not a URL: fall back to the OpenAI name */
  }
  return HOST_KEY_VARIABLES.find(([pattern]) => pattern.test(host))?.[1] ?? 'OPENAI_API_KEY';
}

/** One shell word, single-quoted: nothing inside is expanded; a ' is written as '\''. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * Marks a shell variable reference inside a request's text (`shellVariable('MODEL')`): `toCurl`
 * writes it as `"${MODEL}"` outside the single quotes, so the shell fills it in. Private-use
 * characters, so no text a user wrote can be taken for one.
 */
export function shellVariable(name: string): string {
  return `\uE000${name}\uE001`;
}
const SHELL_VARIABLE = /\uE000([A-Za-z_][A-Za-z0-9_]*)\uE001/;

/** `shellQuote`, with marked variable references left for the shell to expand. */
function shellWord(s: string): string {
  if (!SHELL_VARIABLE.test(s)) return shellQuote(s);
  return s
    .split(new RegExp(SHELL_VARIABLE.source, 'g'))
    .map((part, i) => (i % 2 === 1 ? `"\${${part}}"` : part === '' ? '' : shellQuote(part)))
    .join('');
}

/** Characters with a meaning inside double quotes ($ ` " \) or to interactive bash (!). */
const DOUBLE_QUOTE_UNSAFE = /[$`"\\!]/;

/** `prefix` followed by the expanded variable, as one shell word. */
function withVariable(prefix: string, envVar: string): string {
  return DOUBLE_QUOTE_UNSAFE.test(prefix) ? `${shellQuote(prefix)}"$${envVar}"` : `"${prefix}$${envVar}"`;
}

/** Percent-encodes everything but letters, digits and -._ so a query name is inert in any quoting. */
function strictEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The request as a multi-line curl command for bash/zsh. The key is `$<envVar>` wherever the
 * connection places it (bearer, header, query); the rest is single-quoted, so a prompt with
 * quotes, `$` or newlines in the body is sent byte for byte.
 */
export function toCurl(req: CurlRequest, opts: CurlOptions): string {
  const { envVar } = opts;
  if (!ENV_VAR_NAME.test(envVar)) throw new Error(`"${envVar}" is not a shell variable name`);
  const redact = (s: string) => (opts.redactor ? opts.redactor.text(s) : s);
  const auth = req.auth;
  const method = req.method.toUpperCase();
  const hasBody = req.body !== undefined;

  let url: string;
  try {
    // Parsing would percent-encode a variable reference: a URL holding one is written as given.
    if (SHELL_VARIABLE.test(req.url)) throw new Error('has a variable');
    const u = new URL(req.url);
    // The key's own parameter is ours to fill in: a stray value there is never copied.
    if (auth.placement === 'query') u.searchParams.delete(auth.name);
    url = u.toString();
  } catch {
    url = req.url;
  }
  const urlWord =
    auth.placement === 'query' ? `${shellWord(redact(url))}"${url.includes('?') ? '&' : '?'}${strictEncode(auth.name)}=$${envVar}"` : shellWord(redact(url));

  const authHeader = auth.placement === 'bearer' ? 'authorization' : auth.placement === 'header' ? auth.name.toLowerCase() : undefined;
  const headers = Object.entries(req.headers).filter(([name]) => name.toLowerCase() !== authHeader);
  const streaming = headers.some(([name, v]) => name.toLowerCase() === 'accept' && /text\/event-stream/i.test(v));

  const args: string[] = [];
  // curl infers GET without a body and POST with one; anything else is spelled out.
  if (!((method === 'GET' && !hasBody) || (method === 'POST' && hasBody))) args.push(`-X ${method}`);
  // Server-sent events: print each chunk as it arrives instead of buffering.
  if (streaming) args.push('--no-buffer');
  for (const [name, value] of headers) args.push(`-H ${shellWord(`${name}: ${redact(value)}`)}`);
  if (auth.placement === 'bearer') args.push(`-H ${withVariable('Authorization: Bearer ', envVar)}`);
  if (auth.placement === 'header') args.push(`-H ${withVariable(`${auth.name}: `, envVar)}`);
  if (hasBody) args.push(`--data-raw ${shellWord(redact(req.body ?? ''))}`);

  const text = [`curl ${urlWord}`, ...args].join(' \\\n  ');
  return guard(text, `$${envVar}`, redact);
}

/**
 * The final pass over the whole text, with the variable references cut out first so the
 * redactor's own patterns (`?key=…`, `Bearer …`) cannot mask them.
 */
function guard(text: string, reference: string, redact: (s: string) => string): string {
  return text
    .split(reference)
    .map((part) => redact(part))
    .join(reference);
}
