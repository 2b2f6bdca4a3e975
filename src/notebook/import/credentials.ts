// Keys, passwords and signatures found in an imported request. They never reach the notebook:
// each real one is recorded in `secrets` (a front end offers to store it); a service cell drops
// it (the key comes from the connection); an `http` cell reads it back by reference
// (`{{$secret name}}`, `{{$env NAME}}`), so the cell still runs once the user has stored it.
import type { ServiceId } from '../../core/connections';
import { isSecretName, isSecretParam, isSignatureName } from '../../core/secretNames';
import type { ImportedSecret } from './types';

export interface SecretContext {
  secrets: ImportedSecret[];
  report: string[];
  /** Fills in the importer's own variables (`.http` file variables, Postman variables). */
  expand: (text: string) => string;
  /** The variable a value came from, when it came from one (for the secret's record). */
  variableOf?: (text: string) => string | undefined;
}

/** Where the request goes: a service cell (keys dropped) or an `http` cell (keys referenced). */
export interface Destination {
  service?: ServiceId;
  origin: string;
  /** An `http` cell: credentials become `{{$secret …}}` / `{{$env …}}` references instead of being dropped. */
  httpCell: boolean;
}

/** Pusher's signing parameters: the engine signs each request afresh. */
const PUSHER_SIGNING_PARAMS = new Set(['auth_key', 'auth_timestamp', 'auth_version', 'body_md5']);
const DROPPED_HEADERS = new Set(['host', 'content-length']);
const AUTH_SCHEME = /^(Bearer|Basic|Token)\s+/i;

/**
 * A value that names a key instead of holding one: `$OPENAI_API_KEY`, `{{token}}`, `<API_KEY>`,
 * `[apiKeyChatGPT]`, `YOUR_API_KEY`, `your-api-key-here`, `$USER:$PASSWORD`.
 */
export function isPlaceholder(value: string): boolean {
  const v = value.replace(AUTH_SCHEME, '').trim();
  const one = (p: string) =>
    p === '' ||
    /^\$\{?[A-Za-z_]\w*\}?$/.test(p) ||
    /\{\{[^}]*\}\}/.test(p) ||
    /^<[^>]*>$/.test(p) ||
    /^\[[^\]]*\]$/.test(p) ||
    /^[A-Z][A-Z0-9_]*$/.test(p) ||
    /^(your|my)[-_ ]/i.test(p) ||
    /[-_ ]here$/i.test(p) ||
    /^x{4,}$/i.test(p);
  return one(v) || (v.includes(':') && v.split(':').every(one));
}

/** A `{{$secret …}}` name from where the key was sent: `api_github_com_authorization`. */
function secretNameFor(origin: string, where: string): string {
  const host = origin.replace(/^[a-z]+:\/\//i, '');
  return `${host}_${where}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** Records a real key (once per value and origin); returns the name an `http` cell reads it by. */
function record(ctx: SecretContext, raw: string, value: string, to: Destination, where: Partial<ImportedSecret>): string {
  const variable = ctx.variableOf?.(raw);
  const secretName = variable ?? secretNameFor(to.origin, where.header ?? where.param ?? where.field ?? 'userinfo');
  const same = ctx.secrets.find((s) => s.value === value && s.origin === to.origin);
  if (same) return same.secretName ?? secretName;
  ctx.secrets.push({
    service: to.service,
    origin: to.origin,
    ...where,
    ...(variable ? { variable } : {}),
    ...(to.httpCell ? { secretName } : {}),
    value,
  });
  return secretName;
}

/** What an `http` cell writes instead of a credential: a reference, or the placeholder as written. */
function reference(ctx: SecretContext, raw: string, real: string, to: Destination, where: Partial<ImportedSecret>): string {
  const scheme = AUTH_SCHEME.exec(raw)?.[0] ?? '';
  const bare = raw.slice(scheme.length).trim();
  const shellVar = /^\$\{?([A-Za-z_]\w*)\}?$/.exec(bare);
  if (shellVar) return `${scheme}{{$env ${shellVar[1]}}}`;
  if (raw.includes('{{') && isPlaceholder(real)) return raw;
  // A placeholder (<API_KEY>, [apiKey]) would be sent as written: a secret the editor asks for once takes its place.
  if (isPlaceholder(real)) {
    const name = secretNameFor(to.origin, where.header ?? where.param ?? where.field ?? 'key');
    ctx.report.push(
      `a placeholder in the ${where.header ?? where.param ?? where.field ?? 'key'} of ${to.origin} reads {{$secret ${name}}}: the editor asks for it once`,
    );
    return `${scheme}{{$secret ${name}}}`;
  }
  return `${scheme}{{$secret ${record(ctx, raw, real.replace(AUTH_SCHEME, ''), to, where)}}}`;
}

/** Headers a cell may carry: credentials and signatures are recorded, then dropped (service cell) or referenced (`http` cell). */
export function cleanHeaders(headers: ReadonlyArray<[string, string]>, ctx: SecretContext, label: string, to: Destination): Array<[string, string]> {
  const kept: Array<[string, string]> = [];
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    const signature = isSignatureName(name);
    if (lower === 'cookie') {
      ctx.report.push(`${label}: the ${name} header was removed (cookies are not carried over)`);
    } else if (isSecretName(name)) {
      const real = ctx.expand(value);
      if (to.httpCell) {
        kept.push([name, reference(ctx, value, real, to, { header: name })]);
        continue;
      }
      if (!isPlaceholder(real)) record(ctx, value, real.replace(AUTH_SCHEME, ''), to, { header: name });
      ctx.report.push(
        `${label}: the ${name} header was removed (${signature ? 'a signature: the engine signs each request itself' : 'the key comes from the connection'})`,
      );
    } else if (DROPPED_HEADERS.has(lower)) ctx.report.push(`${label}: the ${name} header was removed (set by the connection and the engine)`);
    else kept.push([name, value]);
  }
  return kept;
}

/** Removes (service cell) or references (`http` cell) key and signature parameters of a target's query. */
export function cleanQuery(target: string, ctx: SecretContext, label: string, to: Destination): string {
  const q = target.indexOf('?');
  if (q === -1) return target;
  const kept: string[] = [];
  for (const pair of target.slice(q + 1).split('&')) {
    if (pair === '') continue;
    const rawName = pair.split('=', 1)[0];
    const name = safeDecode(rawName).toLowerCase();
    const value = pair.includes('=') ? pair.slice(pair.indexOf('=') + 1) : '';
    const signature = isSignatureName(name);
    if (to.service === 'realtime' && PUSHER_SIGNING_PARAMS.has(name)) {
      ctx.report.push(`${label}: the Pusher signing parameters (${[...PUSHER_SIGNING_PARAMS].join(', ')}) were removed: the engine signs each request itself`);
    } else if (isSecretParam(name)) {
      const real = safeDecode(ctx.expand(value));
      if (to.httpCell && !signature) {
        kept.push(`${rawName}=${reference(ctx, value, real, to, { param: name })}`);
        continue;
      }
      if (!isPlaceholder(real)) record(ctx, value, real, to, { param: name });
      ctx.report.push(
        `${label}: the ${name} query parameter was removed (${signature ? 'a signature: the engine signs each request itself' : 'the key comes from the connection'})`,
      );
    } else kept.push(pair);
  }
  return kept.length ? `${target.slice(0, q)}?${kept.join('&')}` : target.slice(0, q);
}

/**
 * Fields of a body named like keys (`"api_key": "…"` in JSON, `client_secret=…` in a form, as
 * `curl --data-urlencode` sends it): each value is recorded and read back by reference
 * (`{{$secret …}}`), in a service cell too, since no connection sends a body's field for it.
 * Found by a flat scan of the text, not a parse: a body 10,000 levels deep costs no stack, and
 * the body keeps its layout.
 */
export function cleanBody(
  body: string | undefined,
  headers: ReadonlyArray<[string, string]>,
  ctx: SecretContext,
  label: string,
  to: Destination,
): string | undefined {
  if (body === undefined || body.startsWith('< ')) return body;
  const type = headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '';
  const take = (name: string, raw: string, real: string): string => {
    const ref = reference(ctx, raw, real, to, { field: name });
    if (ref !== raw) ctx.report.push(`${label}: the ${name} field of the body reads ${ref}`);
    return ref;
  };
  if (/x-www-form-urlencoded/i.test(type)) {
    return body
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        const name = safeDecode(eq === -1 ? pair : pair.slice(0, eq));
        const value = eq === -1 ? '' : pair.slice(eq + 1);
        if (eq === -1 || value === '' || !isSecretParam(name)) return pair;
        return `${pair.slice(0, eq)}=${take(name, value, safeDecode(ctx.expand(value).replace(/\+/g, ' ')))}`;
      })
      .join('&');
  }
  if (/multipart\//i.test(type) || !body.includes('"')) return body;
  return body.replace(/("([\w.-]{1,64})"\s*:\s*")((?:[^"\\\r\n]|\\.)*)"/g, (whole, head: string, name: string, value: string) => {
    if (value === '' || !isSecretName(name)) return whole;
    const raw = jsonUnescape(value);
    return `${head}${take(name, raw, ctx.expand(raw))}"`;
  });
}

function jsonUnescape(value: string): string {
  try {
    return JSON.parse(`"${value}"`) as string;
  } catch {
    return value;
  }
}

/**
 * `scheme://userinfo@` with the userinfo up to the authority's last `@`, as URL parsers read it: a
 * user or password may hold an `@` (`https://us@r:p@ss@host/`), and only the last one ends it.
 */
export const USERINFO = /^([a-z][\w+.-]*:\/\/)([^/?#\s]*)@/i;

/** The URL without its user and password. */
export function withoutUserinfo(url: string): string {
  return url.replace(USERINFO, '$1');
}

/**
 * `https://admin:hunter2@host/…` → `https://host/…`. The user and password are recorded; an
 * `http` cell gets them back as a Basic Authorization header read from the stored secret.
 */
export function takeUserinfo(url: string, ctx: SecretContext, label: string, to: Destination): { url: string; header?: [string, string] } {
  const m = USERINFO.exec(url);
  if (!m) return { url };
  const rest = m[1] + url.slice(m[0].length);
  const userinfo = safeDecode(ctx.expand(m[2]));
  if (isPlaceholder(userinfo) || userinfo === '') {
    ctx.report.push(`${label}: the user and password in the URL were removed (placeholders: set the Authorization header yourself)`);
    return { url: rest };
  }
  ctx.report.push(`${label}: the user and password in the URL were removed${to.httpCell ? ' (sent as a Basic Authorization header read from a secret)' : ''}`);
  const basic = Buffer.from(userinfo, 'utf8').toString('base64');
  const name = record(ctx, m[2], to.httpCell ? basic : userinfo, to, { userinfo: true });
  return to.httpCell ? { url: rest, header: ['Authorization', `Basic {{$secret ${name}}}`] } : { url: rest };
}

/** `key=…` style parameters in free text (a Postman request named after its URL) with the value masked. */
export function maskKeyParams(text: string): string {
  return text.replace(/([?&]([\w.-]+)=)[^&\s"')]+/g, (whole, head: string, name: string) => (isSecretParam(safeDecode(name)) ? `${head}***` : whole));
}

/** Text kept as written (a script, an unreadable passage): key parameters and Authorization values masked. */
export function maskCredentials(text: string): string {
  return maskKeyParams(text)
    .replace(/\b(Bearer|Basic|Token)\s+(?!\{\{|\$\{?[A-Za-z_])[^\s"'`]+/g, '$1 ***')
    .replace(/\b(sk-[A-Za-z0-9_-]{8,}|AIza[A-Za-z0-9_-]{20,})/g, '***');
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
