// Reads a REST Client / httpYac / IntelliJ `.http` file into blocks: one per request (or pasted
// cURL command, or unreadable passage), with the comments before it and the scripts around it.
// Nothing here throws for one bad request: the block says why, and the rest of the file is read.
import type { RawRequest } from './curl';
import { endsInsideQuote } from './shellWords';

export interface Script {
  line: number;
  /** `{% … %}` code, or a file it names (`> ./check.js`). */
  text: string;
}

export interface Block {
  comments: string[];
  name?: string;
  request?: RawRequest;
  /** `??` lines after the body (httpYac), as written. */
  assertions: string[];
  /** `< ./body.json`, `<@ ./body.json`: the body is read from a file. */
  fileBody?: string;
  /** Why the request cannot be a cell (an unreadable header line). */
  problem?: string;
  /** `< {% … %}` before the request: it may set what the request needs. */
  preScripts: Script[];
  /** `> {% … %}` after it: response handlers. */
  responseScripts: Script[];
  /** A cURL command pasted into the file, as written. */
  curl?: { line: number; text: string };
  /** Lines that are no request, variable or comment. */
  unreadable?: { line: number; lines: string[] };
}

export interface HttpFileContent {
  blocks: Block[];
  vars: Map<string, string>;
  /** httpYac `fragment Name on Type { … }` definitions, by name. */
  fragments: Map<string, string>;
  report: string[];
}

const KNOWN_METHODS = 'GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|CONNECT|TRACE';
/** A known method in any case, or any upper-case token (REST Client's QUERY, WebDAV's PROPFIND, GRAPHQL). */
const REQUEST_LINE = new RegExp(`^((?:${KNOWN_METHODS})|[A-Z][A-Z0-9_-]*)\\s+(\\S+)(?:\\s+HTTP\\/[\\d.]+)?\\s*$`, 'i');
const BARE_URL = /^(https?:\/\/\S+|\{\{[^}]+\}\}\S*)(?:\s+HTTP\/[\d.]+)?\s*$/i;
/** Where a body line can only be the next request (IntelliJ files without `###`): an upper-case method and an absolute URL. */
const NEXT_REQUEST = /^[A-Z][A-Z0-9_-]*\s+(https?:\/\/|\{\{)\S*(\s+HTTP\/[\d.]+)?\s*$/;
const FILE_VARIABLE = /^@([A-Za-z_][\w.-]*)\s*=\s*(.*)$/;
const COMMENT = /^\s*(#|\/\/)/;
const HEADER = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*:\s*(.*)$/;
const FILE_BODY = /^<@?[\w-]*\s+\S/;

function requestLine(t: string): { method: string; url: string } | undefined {
  const m = REQUEST_LINE.exec(t);
  if (m && (new RegExp(`^(${KNOWN_METHODS})$`, 'i').test(m[1]) || m[1] === m[1].toUpperCase())) return { method: m[1].toUpperCase(), url: m[2] };
  const bare = BARE_URL.exec(t);
  return bare ? { method: 'GET', url: bare[1] } : undefined;
}

/** The line at `index` (after comment lines) is a request line that starts a new request. */
function startsRequestAt(lines: readonly string[], index: number, strict: boolean): boolean {
  let i = index;
  while (i < lines.length && COMMENT.test(lines[i]) && !lines[i].trim().startsWith('###')) i++;
  const t = lines[i]?.trim() ?? '';
  return strict ? NEXT_REQUEST.test(t) : requestLine(t) !== undefined;
}

const empty = (): Block => ({ comments: [], assertions: [], preScripts: [], responseScripts: [] });

export function readHttpFile(text: string): HttpFileContent {
  const lines = text.split(/\r\n|\r|\n/);
  const vars = new Map<string, string>();
  const fragments = new Map<string, string>();
  const blocks: Block[] = [];
  const report: string[] = [];
  let block = empty();
  let state: 'pre' | 'headers' | 'body' | 'unreadable' = 'pre';
  let body: string[] = [];
  /** A multi-line construct being collected: a script up to `%}`, a fragment up to its closing brace, a cURL command up to its last `\`. */
  let collecting: { kind: 'pre' | 'response' | 'fragment' | 'curl'; line: number; lines: string[] } | undefined;

  const finish = () => {
    if (block.request) {
      while (body.length && body.at(-1)!.trim() === '') body.pop();
      while (body.length && (body.at(-1)!.trim().startsWith('??') || body.at(-1)!.trim() === '')) block.assertions.unshift(body.pop()!.trim());
      const joined = body.join('\n').trim();
      if (FILE_BODY.test(joined) && !joined.includes('\n')) block.fileBody = joined;
      else if (joined) block.request.body = joined;
    }
    if (block.request || block.comments.length || block.curl || block.unreadable || block.preScripts.length) blocks.push(block);
    block = empty();
    state = 'pre';
    body = [];
  };
  const endCollecting = () => {
    const c = collecting!;
    collecting = undefined;
    const joined = c.lines.join('\n');
    if (c.kind === 'pre') block.preScripts.push({ line: c.line, text: joined });
    else if (c.kind === 'response') block.responseScripts.push({ line: c.line, text: joined });
    else if (c.kind === 'fragment') fragments.set(/^\s*fragment\s+(\w+)/.exec(joined)![1], joined.trim());
    else {
      if (block.request || block.curl) finish();
      block.curl = { line: c.line, text: joined };
      finish();
    }
  };
  const balanced = (t: string) => (t.match(/\{/g) ?? []).length <= (t.match(/\}/g) ?? []).length;

  lines.forEach((line, index) => {
    const n = index + 1;
    const t = line.trim();
    if (collecting) {
      collecting.lines.push(line);
      const done =
        collecting.kind === 'curl'
          ? !/\\$/.test(line) && !endsInsideQuote(collecting.lines.join('\n'))
          : collecting.kind === 'fragment'
            ? balanced(collecting.lines.join('\n'))
            : t.includes('%}');
      if (done) endCollecting();
      return;
    }
    if (t.startsWith('###')) {
      finish();
      const title = t.replace(/^#+\s*/, '');
      if (title) block.comments.push(`## ${title}`);
      return;
    }
    if (state === 'unreadable') {
      if (!startsRequestAt(lines, index, false)) {
        block.unreadable!.lines.push(line);
        return;
      }
      finish();
    }
    const script = /^([<>])\s*\{%/.exec(t);
    if (script && state !== 'pre' && script[1] === '>') {
      // A response handler closes the request: what follows is the next request or the end.
      collecting = { kind: 'response', line: n, lines: [line] };
      if (t.includes('%}')) endCollecting();
      return;
    }
    if (state === 'body') {
      if (/^>\s+\S+\.js$/.test(t)) block.responseScripts.push({ line: n, text: t.slice(1).trim() });
      else if (/^<>\s/.test(t)) report.push(`line ${n}: the response reference (${t}) is not carried over`);
      else if (startsRequestAt(lines, index, true)) {
        finish();
        handlePre();
      } else body.push(line);
      return;
    }
    if (state === 'headers') {
      if (t === '') {
        state = 'body';
        return;
      }
      if (COMMENT.test(line)) return;
      if (/^\s+[?&]/.test(line)) {
        block.request!.url += t;
        return;
      }
      if (FILE_BODY.test(t)) {
        // httpYac and IntelliJ allow the file body straight after the headers, without a blank line.
        state = 'body';
        body.push(line);
        return;
      }
      const h = HEADER.exec(t);
      if (h) {
        block.request!.headers.push([h[1], h[2]]);
        return;
      }
      if (startsRequestAt(lines, index, false)) {
        finish();
        handlePre();
        return;
      }
      block.problem ??= `line ${n}: "${t}" is not a header line (Name: value)`;
      state = 'body';
      body.push(line);
      return;
    }
    handlePre();

    function handlePre(): void {
      if (t === '') return;
      const fileVar = FILE_VARIABLE.exec(t);
      if (fileVar) {
        vars.set(fileVar[1], fileVar[2].trim());
        return;
      }
      if (/^<\s*\{%/.test(t)) {
        collecting = { kind: 'pre', line: n, lines: [line] };
        if (t.includes('%}')) endCollecting();
        return;
      }
      if (/^<\s+\S+\.js$/.test(t)) {
        block.preScripts.push({ line: n, text: t.slice(1).trim() });
        return;
      }
      if (/^fragment\s+\w+\s+on\s+\w+/.test(t)) {
        collecting = { kind: 'fragment', line: n, lines: [line] };
        if (balanced(line) && line.includes('}')) endCollecting();
        return;
      }
      if (/^(\$\s+)?curl\s/.test(t)) {
        collecting = { kind: 'curl', line: n, lines: [line] };
        if (!/\\$/.test(line) && !endsInsideQuote(line)) endCollecting();
        return;
      }
      if (COMMENT.test(line)) {
        const c = t.replace(/^(#|\/\/)\s?/, '');
        const meta = /^@([\w-]+)\s*(.*)$/.exec(c.trim());
        if (c.startsWith('?? ')) block.assertions.push(c);
        else if (/^Checks in the notebook/.test(c)) return;
        else if (meta?.[1] === 'name') block.name = meta[2].trim();
        else if (meta) report.push(`line ${n}: the @${meta[1]} setting is not carried over`);
        else block.comments.push(c);
        return;
      }
      const request = requestLine(t);
      if (request) {
        if (block.request) finish();
        block.request = { ...request, headers: [], line: n };
        state = 'headers';
        return;
      }
      block.unreadable = { line: n, lines: [line] };
      state = 'unreadable';
    }
  });
  if (collecting) endCollecting();
  finish();
  return { blocks, vars, fragments, report };
}
