// A REST Client / httpYac `.http` (or `.rest`) file → a notebook: file variables become a vars
// cell, each request a cell (named by `# @name`), comments Markdown, in the file's order.
import { parseAssertion } from '../cells';
import { convertRequest, type Piece } from './convert';
import type { RawRequest } from './curl';
import { ImportError, type ImportedSecret, type ImportOptions, type ImportResult } from './types';
import { cellName, varsPiece, writeNotebook } from './write';

const REQUEST_LINE = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|CONNECT|TRACE)\s+(\S+)(?:\s+HTTP\/[\d.]+)?\s*$/i;
const BARE_URL = /^(https?:\/\/\S+|\{\{[^}]+\}\}\S*)(?:\s+HTTP\/[\d.]+)?\s*$/i;
const FILE_VARIABLE = /^@([A-Za-z_][\w.-]*)\s*=\s*(.*)$/;
const COMMENT = /^\s*(#|\/\/)/;
const SECRET_NAME = /(^|[_-])(api[_-]?key|key|secret|token|password|auth)$/i;

/** `{{login.response.body.$.token}}` → `{{login.json.token}}`; undefined when there is no equivalent. */
export function convertReference(ref: string): string | undefined {
  const m = /^([A-Za-z_][\w-]*)\.response\.(body|headers)\.(.+)$/.exec(ref.trim());
  if (!m) return undefined;
  if (m[2] === 'headers') return `${m[1]}.headers.${m[3]}`;
  if (m[3] === '*') return `${m[1]}.text`;
  const path = /^\$((?:\.[\w-]+|\[\d+\])*)$/.exec(m[3]);
  return path ? `${m[1]}.json${path[1]}` : undefined;
}

interface Block {
  comments: string[];
  name?: string;
  request?: RawRequest;
  /** `??` lines after the body (httpYac), as written. */
  assertions: string[];
  fileBody?: string;
}

/** Reads the whole file; throws ImportError naming the line of a request line it cannot read. */
export function importHttpFile(text: string, opts: ImportOptions = {}): ImportResult {
  const source = opts.source ?? 'requests.http';
  const lines = text.split(/\r\n|\r|\n/);
  const vars = new Map<string, string>();
  const blocks: Block[] = [];
  const report: string[] = [];
  let block: Block = { comments: [], assertions: [] };
  let state: 'pre' | 'headers' | 'body' = 'pre';
  let body: string[] = [];
  const finish = () => {
    if (block.request) {
      while (body.length && body.at(-1)!.trim() === '') body.pop();
      while (body.length && (body.at(-1)!.trim().startsWith('??') || body.at(-1)!.trim() === '')) block.assertions.unshift(body.pop()!.trim());
      const joined = body.join('\n').trim();
      if (/^<\s/.test(joined)) block.fileBody = joined;
      else if (joined) block.request.body = joined;
    }
    if (block.request || block.comments.length) blocks.push(block);
    block = { comments: [], assertions: [] };
    state = 'pre';
    body = [];
  };
  lines.forEach((line, index) => {
    const n = index + 1;
    const t = line.trim();
    if (t.startsWith('###')) {
      finish();
      const title = t.replace(/^#+\s*/, '');
      if (title) block.comments.push(`## ${title}`);
      return;
    }
    if (state === 'body') {
      body.push(line);
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
      const h = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*:\s*(.*)$/.exec(t);
      if (!h) throw new ImportError(source, `line ${n}`, `"${t}" is not a header line (Name: value); leave a blank line before the body`);
      block.request!.headers.push([h[1], h[2]]);
      return;
    }
    if (t === '') return;
    const fileVar = FILE_VARIABLE.exec(t);
    if (fileVar) {
      vars.set(fileVar[1], fileVar[2].trim());
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
    const m = REQUEST_LINE.exec(t) ?? BARE_URL.exec(t);
    if (!m) throw new ImportError(source, `line ${n}`, `"${t}" is not a request line: write METHOD URL, e.g. "GET https://api.openai.com/v1/models"`);
    const [method, url] = m.length === 3 ? [m[1].toUpperCase(), m[2]] : ['GET', m[1]];
    block.request = { method, url, headers: [], line: n };
    state = 'headers';
  });
  finish();
  return assemble(blocks, vars, report, opts);
}

function assemble(blocks: Block[], vars: Map<string, string>, report: string[], opts: ImportOptions): ImportResult {
  const secrets: ImportedSecret[] = [];
  const expand = (text: string, depth = 0): string =>
    depth > 10
      ? text
      : text.replace(/\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g, (whole, name: string) => (vars.has(name) ? expand(vars.get(name)!, depth + 1) : whole));
  const variableOf = (text: string) => /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/.exec(text)?.[1];
  const ctx = { connections: opts.connections ?? [], secrets, report, expand, variableOf };
  const taken = new Set<string>();
  const renamed = new Map<string, string>();
  for (const b of blocks) if (b.name) renamed.set(b.name, cellName(b.name, taken));
  const pieces: Piece[] = [];
  for (const b of blocks) {
    if (b.comments.length) pieces.push({ kind: 'markdown', value: b.comments.join('\n').replace(/^(## .*)\n(?!\n)/, '$1\n\n') });
    if (!b.request) continue;
    const name = b.name ? renamed.get(b.name) : undefined;
    const label = `line ${b.request.line}${name ? ` (${name})` : ''}`;
    const req = rewriteReferences(b.request, renamed, report, label);
    if (b.fileBody) {
      report.push(`${label}: kept as Markdown: the body is read from a file (${b.fileBody})`);
      pieces.push({
        kind: 'markdown',
        value: `> **Not imported as a cell:** the body comes from a file (\`${b.fileBody}\`); paste it into a cell.\n\n\`\`\`http\n${req.method} ${req.url}\n\`\`\``,
      });
      continue;
    }
    const made = convertRequest(req, ctx, label, name);
    for (const p of made) {
      if (p.kind === 'code' && b.assertions.length) {
        const ok = b.assertions.filter((a) => typeof parseAssertion(a, 0) !== 'string');
        if (ok.length < b.assertions.length) report.push(`${label}: ${b.assertions.length - ok.length} assertion(s) in another syntax were not carried over`);
        if (ok.length) p.value += `\n\n${ok.join('\n')}`;
      }
    }
    pieces.push(...made);
  }
  const kept: Array<[string, string]> = [];
  for (const [name, value] of vars) {
    const used = secrets.find((s) => s.variable === name);
    if (used || SECRET_NAME.test(name)) {
      if (!used && !/\{\{/.test(value) && value !== '') secrets.push({ origin: '', variable: name, value: expand(value) });
      report.push(`variable ${name}: not written (a key: it comes from the connection)`);
    } else kept.push([name, value]);
  }
  const systemVars = new Set([...JSON.stringify(blocks).matchAll(/\{\{\s*\$(\w+)/g)].map((m) => m[1]));
  for (const v of systemVars) report.push(`{{$${v}}}: REST Client's system variables are not supported in notebooks; replace it`);
  const varsCell = varsPiece(kept, report);
  return writeNotebook(varsCell ? [varsCell, ...pieces] : pieces, secrets, report);
}

/** Request-to-request references in REST Client syntax, rewritten to the notebook's. */
function rewriteReferences(req: RawRequest, renamed: Map<string, string>, report: string[], label: string): RawRequest {
  const rewrite = (text: string) =>
    text.replace(/\{\{([^{}]+)\}\}/g, (whole, ref: string) => {
      const first = ref.trim().split('.', 1)[0];
      if (!renamed.has(first) || !ref.includes('.')) return whole;
      const converted = convertReference(ref);
      if (!converted) {
        report.push(`${label}: ${whole} has no notebook equivalent; kept as written`);
        return whole;
      }
      return `{{${renamed.get(first)!}${converted.slice(first.length)}}}`;
    });
  return { ...req, url: rewrite(req.url), headers: req.headers.map(([n, v]) => [n, rewrite(v)]), body: req.body === undefined ? undefined : rewrite(req.body) };
}
