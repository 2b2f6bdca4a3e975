// A REST Client / httpYac / IntelliJ `.http` (or `.rest`) file → a notebook: file variables become
// a vars cell, each request a cell (named by `# @name`), comments Markdown, in the file's order;
// a request with a script, a file body or an unreadable line stays an `http` block saying why.
import { parseAssertion } from '../cells';
import { quoteCut } from '../../core/quote';
import { isSecretParam } from '../../core/secretNames';
import { convertRequest, fenced, keepAsBlock, type ConvertContext, type Piece } from './convert';
import { isPlaceholder, maskCredentials } from './credentials';
import { parseCurl, type RawRequest } from './curl';
import { graphqlRequest } from './graphql';
import { readHttpFile, type Block, type HttpFileContent, type Script } from './httpLines';
import { ImportError, type ImportedSecret, type ImportOptions, type ImportResult } from './types';
import { cellName, varsPiece, writeNotebook } from './write';
import { attachScripts, httpScriptBlock } from './scriptBlocks';

/** `{{login.response.body.$.token}}` → `{{login.json.token}}`; undefined when there is no equivalent. */
export function convertReference(ref: string): string | undefined {
  const m = /^([A-Za-z_][\w-]*)\.response\.(body|headers)\.(.+)$/.exec(ref.trim());
  if (!m) return undefined;
  if (m[2] === 'headers') return `${m[1]}.headers.${m[3]}`;
  if (m[3] === '*') return `${m[1]}.text`;
  const path = /^\$((?:\.[\w-]+|\[\d+\])*)$/.exec(m[3]);
  return path ? `${m[1]}.json${path[1]}` : undefined;
}

/** Reads the whole file. A request it cannot convert is kept as a block with a note; only a file with no request at all is an ImportError. */
export function importHttpFile(text: string, opts: ImportOptions = {}): ImportResult {
  const source = opts.source ?? 'requests.http';
  const content = readHttpFile(text);
  if (!content.blocks.some((b) => b.request || b.curl)) {
    const bad = content.blocks.find((b) => b.unreadable)?.unreadable;
    if (bad) {
      const t = bad.lines[0].trim();
      throw new ImportError(
        source,
        `line ${bad.line}`,
        `"${quoteCut(maskCredentials(t))}" is not a request line: write METHOD URL, e.g. "GET https://api.openai.com/v1/models"`,
      );
    }
  }
  return assemble(content, opts);
}

function assemble({ blocks, vars, fragments, report }: HttpFileContent, opts: ImportOptions): ImportResult {
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
    if (b.curl) pieces.push(pastedCurl(b.curl, ctx));
    if (b.unreadable) {
      const note = `lines ${b.unreadable.line}–${b.unreadable.line + b.unreadable.lines.length - 1} are no request, variable or comment`;
      report.push(`line ${b.unreadable.line}: kept as a text block: ${note}`);
      pieces.push({
        kind: 'markdown',
        value: `> **Not imported:** ${note}. Kept as written:\n\n${fenced('text', maskCredentials(b.unreadable.lines.join('\n')))}`,
      });
    }
    if (!b.request) {
      if (b.preScripts.length) pieces.push(scriptsNote(b.preScripts, 'Pre-request'));
      continue;
    }
    const name = b.name ? renamed.get(b.name) : undefined;
    const label = `line ${b.request.line}${name ? ` (${name})` : ''}`;
    const written = rewriteReferences(b.request, renamed, report, label);
    const graphql = graphqlRequest(written, fragments);
    const req = typeof graphql === 'string' ? written : graphql;
    const why = keptReason(b, graphql);
    if (why) {
      pieces.push(keepAsBlock(b.fileBody ? { ...req, body: b.fileBody } : req, ctx, label, why));
      if (b.preScripts.length) pieces.push(scriptsNote(b.preScripts, 'Pre-request'));
      if (b.responseScripts.length) pieces.push(scriptsNote(b.responseScripts, 'Response handler'));
      continue;
    }
    const made = convertRequest(req, ctx, label, name);
    for (const p of made) {
      if (p.kind !== 'markdown' && b.assertions.length) {
        const ok = b.assertions.filter((a) => typeof parseAssertion(a, 0) !== 'string');
        if (ok.length < b.assertions.length) report.push(`${label}: ${b.assertions.length - ok.length} assertion(s) in another syntax were not carried over`);
        if (ok.length) p.value += `\n\n${ok.join('\n')}`;
      }
    }
    pieces.push(...made);
    const pre = b.preScripts.map((s) => httpScriptBlock('<', s));
    const post = b.responseScripts.map((s) => httpScriptBlock('>', s));
    if (!attachScripts(made, pre, post)) {
      report.push(`${label}: its scripts are listed in a note (the request is not a cell)`);
      if (b.preScripts.length) pieces.push(scriptsNote(b.preScripts, 'Pre-request'));
      if (b.responseScripts.length) pieces.push(scriptsNote(b.responseScripts, 'Response handler'));
    }
  }
  const kept: Array<[string, string]> = [];
  for (const [name, value] of vars) {
    const used = secrets.find((s) => s.variable === name);
    if (used || isSecretParam(name)) {
      if (!used && !/\{\{/.test(value) && !isPlaceholder(value)) secrets.push({ origin: '', variable: name, value: expand(value) });
      report.push(`variable ${name}: not written (a key: it comes from the connection)`);
    } else kept.push([name, value]);
  }
  // {{$processEnv X}} and {{$dotenv X}} become {{$env X}} in http cells; in service cells they sat in the dropped key header.
  const systemVars = new Set([...JSON.stringify(blocks).matchAll(/\{\{\s*\$(\w+)/g)].map((m) => m[1]).filter((v) => v !== 'processEnv' && v !== 'dotenv'));
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

/** Why a request stays an `http` block instead of becoming a cell, or undefined. */
function keptReason(b: Block, graphql: RawRequest | string): string | undefined {
  if (b.problem) return b.problem;
  if (typeof graphql === 'string') return graphql;
  if (b.fileBody) return `the body is read from a file (${b.fileBody}): paste it into the cell`;
  return undefined;
}

/** Scripts listed under a request that could not become a cell. */
function scriptsNote(scripts: readonly Script[], kind: string): Piece {
  const code = scripts.map((s) => s.text).join('\n');
  return {
    kind: 'markdown',
    value: `> **${kind} script${scripts.length > 1 ? 's' : ''}** (line ${scripts[0].line}), kept as written: the request they belong to is not a cell.\n\n${fenced('js', maskCredentials(code))}`,
  };
}

/** A cURL command pasted into a `.http` file: kept as an http block (keys removed) with a note. */
function pastedCurl(curl: { line: number; text: string }, ctx: ConvertContext): Piece {
  const label = `line ${curl.line}`;
  const note = 'a cURL command pasted into the .http file (import it on its own with "api-workbench import -" to make it a cell)';
  try {
    const { request } = parseCurl(curl.text, label);
    return keepAsBlock(request, ctx, label, note);
  } catch (e) {
    const why = e instanceof ImportError ? e.detail : String(e);
    ctx.report.push(`${label}: kept as a text block: a cURL command that cannot be read (${why})`);
    return {
      kind: 'markdown',
      value: `> **Not imported:** a cURL command that cannot be read (${why}). Kept as written:\n\n${fenced('sh', maskCredentials(curl.text))}`,
    };
  }
}
