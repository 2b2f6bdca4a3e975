// `curl …` (as published in API docs, or "Copy as cURL" from a browser) → the request it sends.
import { shellWords } from './shellWords';
import { ImportError } from './types';

/** A request as written in what is being imported, before it becomes a cell. */
export interface RawRequest {
  method: string;
  /** Absolute URL as written; `{{var}}` may still be in it (.http, Postman). */
  url: string;
  headers: Array<[string, string]>;
  body?: string;
  /** 1-based line in the source, for the report. */
  line: number;
}

/** curl options that take a value but change nothing the cell says (output, timing, TLS). */
const IGNORED_WITH_VALUE = new Set([
  '-o',
  '--output',
  '-m',
  '--max-time',
  '--connect-timeout',
  '--retry',
  '-w',
  '--write-out',
  '--cacert',
  '--cert',
  '--key',
  '-x',
  '--proxy',
  '--limit-rate',
  '-c',
  '--cookie-jar',
  '--resolve',
  '--retry-delay',
  '--retry-max-time',
]);
/** Options that take no value; the short ones may be bundled (-sSL). */
const FLAGS = new Set([
  '-s',
  '-S',
  '-L',
  '-i',
  '-v',
  '-k',
  '-N',
  '-f',
  '-g',
  '--silent',
  '--show-error',
  '--location',
  '--include',
  '--verbose',
  '--insecure',
  '--no-buffer',
  '--fail',
  '--fail-with-body',
  '--compressed',
  '--globoff',
  '-#',
  '--progress-bar',
  '--http1.1',
  '--http2',
]);
const DATA_OPTIONS = new Set(['-d', '--data', '--data-raw', '--data-binary', '--data-ascii', '--data-urlencode', '--json']);

export interface ParsedCurl {
  request: RawRequest;
  /** `-u user:password`, when given. */
  basicAuth?: string;
  /** Options read but not carried over, for the report. */
  ignored: string[];
}

/** Reads one curl command; throws ImportError naming the line of what it cannot read. */
export function parseCurl(text: string, source = 'curl'): ParsedCurl {
  const words = shellWords(text.replace(/^\s*\$\s+/, ''), source);
  if (words.length === 0 || words[0].text !== 'curl') {
    throw new ImportError(source, `line ${words[0]?.line ?? 1}`, `a cURL command starts with "curl"${words[0] ? `, not "${words[0].text}"` : ''}`);
  }
  let method: string | undefined;
  let url: string | undefined;
  const headers: Array<[string, string]> = [];
  const data: string[] = [];
  let json = false;
  let getWithData = false;
  let head = false;
  let basicAuth: string | undefined;
  const ignored: string[] = [];
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    let opt = w.text;
    let value: string | undefined;
    const needValue = (): string => {
      if (value !== undefined) return value;
      const next = words[++i];
      if (!next) throw new ImportError(source, `line ${w.line}`, `${opt} needs a value`);
      return next.text;
    };
    if (/^--[\w.-]+=/.test(opt)) [opt, value] = [opt.slice(0, opt.indexOf('=')), opt.slice(opt.indexOf('=') + 1)];
    else if (/^-[XHdbuAe]./.test(opt)) [opt, value] = [opt.slice(0, 2), opt.slice(2)];
    if (!opt.startsWith('-') || opt === '-') {
      if (url !== undefined) throw new ImportError(source, `line ${w.line}`, `a second URL "${opt}": import one request at a time`);
      url = opt;
      continue;
    }
    if (opt === '--url') url = needValue();
    else if (opt === '-X' || opt === '--request') method = needValue().toUpperCase();
    else if (opt === '-H' || opt === '--header') {
      const h = needValue();
      const colon = h.indexOf(':');
      if (colon <= 0) throw new ImportError(source, `line ${w.line}`, `"${h}" is not a header (Name: value)`);
      headers.push([h.slice(0, colon).trim(), h.slice(colon + 1).trim()]);
    } else if (DATA_OPTIONS.has(opt)) {
      const v = needValue();
      if (v.startsWith('@') && opt !== '--data-raw')
        throw new ImportError(source, `line ${w.line}`, `${opt} ${v} reads the body from a file: paste the body itself (--data-raw '…')`);
      data.push(opt === '--data-urlencode' ? urlencodePair(v) : v);
      if (opt === '--json') json = true;
    } else if (opt === '-G' || opt === '--get') getWithData = true;
    else if (opt === '-I' || opt === '--head') head = true;
    else if (opt === '-u' || opt === '--user') basicAuth = needValue();
    else if (opt === '-A' || opt === '--user-agent') headers.push(['User-Agent', needValue()]);
    else if (opt === '-e' || opt === '--referer') headers.push(['Referer', needValue()]);
    else if (opt === '-b' || opt === '--cookie') headers.push(['Cookie', needValue()]);
    else if (IGNORED_WITH_VALUE.has(opt)) ignored.push(`${opt} ${needValue()}`);
    else if (FLAGS.has(opt) || /^-[sSLivkNfg#]+$/.test(opt)) ignored.push(opt);
    else throw new ImportError(source, `line ${w.line}`, `the curl option ${opt} is not supported by the importer`);
  }
  if (url === undefined) throw new ImportError(source, `line ${words[0].line}`, 'the curl command has no URL');
  if (!/^https?:\/\//i.test(url)) url = `https://${url}`;
  let body = data.length ? data.join('&') : undefined;
  if (getWithData && body !== undefined) {
    url += (url.includes('?') ? '&' : '?') + body;
    body = undefined;
  }
  const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name);
  if (json) {
    if (!has('content-type')) headers.push(['Content-Type', 'application/json']);
    if (!has('accept')) headers.push(['Accept', 'application/json']);
  } else if (body !== undefined && !has('content-type')) {
    // curl itself would say form-urlencoded; docs that paste a JSON body without the header mean JSON.
    headers.push(['Content-Type', looksLikeJson(body) ? 'application/json' : 'application/x-www-form-urlencoded']);
  }
  const finalMethod = method ?? (head ? 'HEAD' : body !== undefined ? 'POST' : 'GET');
  return { request: { method: finalMethod, url, headers, body, line: words[0].line }, basicAuth, ignored };
}

/** `--data-urlencode name=value` sends the value percent-encoded. */
function urlencodePair(v: string): string {
  const eq = v.indexOf('=');
  return eq === -1 ? encodeURIComponent(v) : `${v.slice(0, eq + 1)}${encodeURIComponent(v.slice(eq + 1))}`;
}

function looksLikeJson(body: string): boolean {
  if (!/^\s*[[{]/.test(body)) return false;
  try {
    JSON.parse(body);
    return true;
  } catch {
    return false;
  }
}
