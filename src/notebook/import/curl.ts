// `curl …` (as published in API docs, or "Copy as cURL" from a browser) → the request it sends.
import { curlFormPart, multipartBody, type FormPart } from './multipart';
import { baseCurlOption, CURL_OPTIONS_WITH_VALUE, CURL_SHORT_WITH_VALUE } from './curlOptions';
import { shellWords, type ShellWord } from './shellWords';
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

/** Commands that run curl (`time curl …`, `proxychains curl …`): their words are not curl's. */
const WRAPPERS = new Set(['time', 'proxychains', 'proxychains4', 'torsocks', 'sudo', 'command', 'noglob', 'nice', 'exec', 'env', 'nohup', '$']);
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
  '--http2-prior-knowledge',
  '--http3',
  '--tlsv1.2',
  '--tlsv1.3',
  '--ipv4',
  '--ipv6',
  '-4',
  '-6',
  '-O',
  '--remote-name',
  '-J',
  '--remote-header-name',
  '-n',
  '--netrc',
  '-j',
  '--junk-session-cookies',
  '--raw',
  '--no-progress-meter',
  '--no-keepalive',
  '--tcp-nodelay',
  '--path-as-is',
  '--post301',
  '--post302',
  '--post303',
]);
const DATA_OPTIONS = new Set(['-d', '--data', '--data-raw', '--data-binary', '--data-ascii', '--data-urlencode', '--json']);

export interface ParsedCurl {
  request: RawRequest;
  /** `-u user:password`, when given. */
  basicAuth?: string;
  /** Options read but not carried over, for the report. */
  ignored: string[];
  /** `-d @body.json`: the body is that file's content (the request is kept as a block naming it). */
  bodyFile?: string;
}

/** `time curl …`, `FOO=1 curl …`: the words before curl, which are not part of the request. */
function skipWrapper(words: ShellWord[], source: string): { start: number; wrapper?: string } {
  let i = 0;
  while (
    i < words.length &&
    words[i].text !== 'curl' &&
    (WRAPPERS.has(words[i].text) || /^[A-Za-z_]\w*=/.test(words[i].text) || (i > 0 && words[i].text.startsWith('-')))
  )
    i++;
  if (words[i]?.text !== 'curl') {
    // The first word is quoted only when it reads as a command's name: it could be anything pasted.
    const first = words[0]?.text ?? '';
    throw new ImportError(
      source,
      `line ${words[0]?.line ?? 1}`,
      `a cURL command starts with "curl"${/^[a-z][a-z0-9.-]{0,19}$/.test(first) ? `, not "${first}"` : ''}`,
    );
  }
  const wrapper = words
    .slice(0, i)
    .map((w) => w.text)
    .filter((t) => t !== '$' && !t.includes('='))
    .join(' ');
  return { start: i + 1, ...(wrapper ? { wrapper } : {}) };
}

/** `VAR=$(curl …)`, `export VAR=`curl …``, `$(curl …)`: the text at the start of a script's line that opens one. */
const SUBSTITUTION = /^((?:\s*#[^\n]*\n)*\s*(?:\$\s+)?(?:(?:export|local|readonly)\s+)?(?:[A-Za-z_]\w*=)?["']?)(\$\(|`)(?=\s*curl\s)/;

/**
 * The curl inside a command substitution, with the opening and closing replaced by spaces so
 * lines and columns stay where they were; undefined when the command is not one.
 */
export function insideSubstitution(text: string): { inner: string; around: string } | undefined {
  const m = SUBSTITUTION.exec(text);
  if (!m) return undefined;
  const open = m[1].length;
  const closer = m[2] === '$(' ? ')' : '`';
  const close = text.lastIndexOf(closer);
  if (close <= open + m[2].length) return undefined;
  const blank = (t: string) => t.replace(/[^\n]/g, ' ');
  const inner = blank(text.slice(0, open + m[2].length)) + text.slice(open + m[2].length, close) + blank(text.slice(close));
  const around = `${m[1].replace(/^(?:\s*#[^\n]*\n)*\s*(?:\$\s+)?/, '').replace(/["']$/, '')}${m[2]}…${closer}`;
  return { inner, around };
}

/** `-sSL` → -s -S -L; `-vH` → -v, then -H taking the next word; `-XPOST` → -X with POST. */
function splitBundle(word: string): Array<{ opt: string; value?: string }> {
  if (!/^-[^-]/.test(word) || word.length <= 2) return [{ opt: word }];
  const out: Array<{ opt: string; value?: string }> = [];
  for (let k = 1; k < word.length; k++) {
    const opt = `-${word[k]}`;
    if (CURL_SHORT_WITH_VALUE.has(opt)) {
      out.push(k + 1 < word.length ? { opt, value: word.slice(k + 1) } : { opt });
      return out;
    }
    out.push({ opt });
  }
  return out;
}

/** Reads one curl command; throws ImportError naming the line of what it cannot read. */
export function parseCurl(written: string, source = 'curl'): ParsedCurl {
  const substitution = insideSubstitution(written);
  const text = substitution?.inner ?? written;
  const { words, stoppedAt } = shellWords(text, source);
  if (words.length === 0) throw new ImportError(source, 'line 1', 'a cURL command starts with "curl"');
  const { start, wrapper } = skipWrapper(words, source);
  let method: string | undefined;
  let url: string | undefined;
  const headers: Array<[string, string]> = [];
  const data: string[] = [];
  const form: FormPart[] = [];
  let json = false;
  let getWithData = false;
  let head = false;
  let basicAuth: string | undefined;
  let bodyFile: string | undefined;
  const ignored: string[] = [];
  const urlQuery: string[] = [];
  if (substitution) ignored.push(`${substitution.around} (the command substitution around curl)`);
  if (wrapper) ignored.push(`${wrapper} (the command around curl)`);
  if (stoppedAt) ignored.push(`${stoppedAt.operator} and what follows it (line ${stoppedAt.line})`);
  const queue: Array<{ word: ShellWord; opt: string; value?: string }> = [];
  let next = start;
  const take = (): { word: ShellWord; opt: string; value?: string } | undefined => {
    if (queue.length) return queue.shift();
    const word = words[next++];
    if (!word) return undefined;
    const long = /^(--[\w.-]+)=([^]*)$/.exec(word.text);
    if (long) return { word, opt: baseCurlOption(long[1]), value: long[2] };
    const [first, ...more] = splitBundle(word.text);
    queue.push(...more.map((m) => ({ word, ...m })));
    return { word, ...first, opt: baseCurlOption(first.opt) };
  };
  for (let item = take(); item; item = take()) {
    const { word: w, opt } = item;
    const needValue = (): string => {
      if (item.value !== undefined) return item.value;
      const following = words[next++];
      if (!following) throw new ImportError(source, `line ${w.line}`, `${opt} needs a value`);
      return following.text;
    };
    if (!opt.startsWith('-') || opt === '-') {
      // Not quoted: it may be the value of an option the importer does not know (a token, a password).
      if (url !== undefined)
        throw new ImportError(source, `line ${w.line}`, 'a second URL, or the value of an option the importer does not know: import one request at a time');
      url = opt;
      continue;
    }
    if (opt === '--url') url = needValue();
    else if (opt === '-X' || opt === '--request') method = needValue().toUpperCase();
    else if (opt === '-H' || opt === '--header') {
      const h = needValue();
      const colon = h.indexOf(':');
      if (colon <= 0) throw new ImportError(source, `line ${w.line}`, `the value of ${opt} is not a header (Name: value)`);
      headers.push([h.slice(0, colon).trim(), h.slice(colon + 1).trim()]);
    } else if (DATA_OPTIONS.has(opt)) {
      const v = needValue();
      if (v.startsWith('@') && opt !== '--data-raw' && opt !== '--data-urlencode') {
        bodyFile = v.slice(1);
        data.push(`< ${v.slice(1)}`);
      } else data.push(opt === '--data-urlencode' ? urlencodePair(v) : v);
      if (opt === '--json') json = true;
    } else if (opt === '-F' || opt === '--form' || opt === '--form-string') {
      const part = curlFormPart(needValue(), opt === '--form-string');
      if (typeof part === 'string') throw new ImportError(source, `line ${w.line}`, `${opt}: ${part}`);
      form.push(part);
    } else if (opt === '-G' || opt === '--get') getWithData = true;
    else if (opt === '-I' || opt === '--head') head = true;
    else if (opt === '-u' || opt === '--user') basicAuth = needValue();
    else if (opt === '--oauth2-bearer') headers.push(['Authorization', `Bearer ${needValue()}`]);
    else if (opt === '--url-query') urlQuery.push(needValue());
    else if (opt === '-A' || opt === '--user-agent') headers.push(['User-Agent', needValue()]);
    else if (opt === '-e' || opt === '--referer') headers.push(['Referer', needValue()]);
    else if (opt === '-b' || opt === '--cookie') headers.push(['Cookie', needValue()]);
    else if (CURL_OPTIONS_WITH_VALUE.has(opt) || CURL_SHORT_WITH_VALUE.has(opt)) ignored.push(`${opt} ${needValue()}`);
    else if (FLAGS.has(opt) || /^-[A-Za-z0-9#]$/.test(opt)) ignored.push(opt);
    // An option the importer does not know: said in the report; the request is still imported.
    else ignored.push(`${opt} (not known to the importer)`);
  }
  if (url === undefined) throw new ImportError(source, `line ${words[0].line}`, 'the curl command has no URL');
  if (!/^[a-z][\w+.-]*:\/\//i.test(url)) url = `https://${url}`;
  if (urlQuery.length) url += (url.includes('?') ? '&' : '?') + urlQuery.map(urlencodePair).join('&');
  let body = data.length ? data.join('&') : undefined;
  if (getWithData && body !== undefined) {
    url += (url.includes('?') ? '&' : '?') + body;
    body = undefined;
  }
  const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name);
  if (form.length) {
    const multipart = multipartBody(form);
    // A Content-Type without the boundary would make the parts unreadable: the body's own one wins.
    const at = headers.findIndex(([n]) => n.toLowerCase() === 'content-type');
    if (at !== -1) headers.splice(at, 1);
    headers.push(['Content-Type', multipart.contentType]);
    body = multipart.body;
  } else if (json) {
    if (!has('content-type')) headers.push(['Content-Type', 'application/json']);
    if (!has('accept')) headers.push(['Accept', 'application/json']);
  } else if (body !== undefined && !has('content-type')) {
    // curl itself would say form-urlencoded; docs that paste a JSON body without the header mean JSON.
    headers.push(['Content-Type', looksLikeJson(body) ? 'application/json' : 'application/x-www-form-urlencoded']);
  }
  const finalMethod = method ?? (head ? 'HEAD' : body !== undefined ? 'POST' : 'GET');
  return { request: { method: finalMethod, url, headers, body, line: words[start - 1].line }, basicAuth, ignored, ...(bodyFile ? { bodyFile } : {}) };
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
