// Back out: a notebook as a REST Client `.http` file, and one cell as a cURL command. The key is
// always a reference (`{{$processEnv OPENAI_API_KEY}}`, `$OPENAI_API_KEY`), never a value.
import type { AuthPlacement } from '../../core/auth';
import { keyEnvVar, shellVariable, toCurl } from '../../core/curl';
import type { Redactor } from '../../core/redact';
import type { NotebookCellData } from '../types';
import { analyseCell, type HttpSpec } from '../cells';
import { exportedScript } from './scriptBlocks';
import { closesFence, openingFence, parseFenceInfo, parseNotebook } from '../format';
import { mapsRoute } from '../httpCell';
import { GOOGLE_MAPS_BASE_URLS } from '../../services/maps/client';

/** Where a service's requests go in the export (a connection's base URLs and key placement). */
export interface ExportTarget {
  baseUrl: string;
  /** Maps: per-API hosts (places, routes, addressValidation, geocoding). */
  baseUrls?: Record<string, string>;
  auth: AuthPlacement;
  /** The environment variable the key is read from (default: OPENAI_API_KEY, GOOGLE_MAPS_API_KEY… by service and host). */
  envVar?: string;
  /** Azure OpenAI's classic API: the api-version its requests carry. */
  azure?: { apiVersion: string };
}

export interface ExportOptions {
  llm?: ExportTarget;
  maps?: ExportTarget;
  /** Every known connection by id (`llm:Ollama`): a cell with `connection="Ollama"` goes to that one's host. */
  connections?: ReadonlyMap<string, ExportTarget>;
  redactor?: Redactor;
}

/** The target of a cell: its named connection when known, else the service's first (or the public API). */
function targetFor(cell: NotebookCellData, service: 'llm' | 'maps', opts: ExportOptions): { target: ExportTarget; unknown?: string } {
  const name = cell.metadata.attributes?.connection;
  const named = name ? opts.connections?.get(`${service}:${name}`) : undefined;
  const target = named ?? opts[service] ?? DEFAULT_TARGETS[service];
  return name && !named ? { target, unknown: name } : { target };
}

const DEFAULT_TARGETS: Record<'llm' | 'maps', ExportTarget> = {
  llm: { baseUrl: 'https://api.openai.com/v1', auth: { placement: 'bearer' } },
  maps: {
    baseUrl: 'https://places.googleapis.com',
    baseUrls: { ...GOOGLE_MAPS_BASE_URLS },
    auth: { placement: 'header', name: 'X-Goog-Api-Key' },
  },
};

/** The absolute URL a cell's target stands for under `t`, and where its key goes when not where `t` puts it (classic maps paths: `?key=`). */
function absoluteUrl(service: 'llm' | 'maps', target: string, t: ExportTarget): { url: string; auth: AuthPlacement } {
  if (/^https?:\/\//i.test(target)) return { url: target, auth: t.auth };
  // Maps paths go where a maps connection sends them: one mapping, the engine's.
  const route = service === 'maps' ? mapsRoute({ baseUrl: t.baseUrl, baseUrls: t.baseUrls ?? {}, auth: t.auth }, target) : { baseUrl: t.baseUrl };
  return { url: `${route.baseUrl.replace(/\/+$/, '')}${target.startsWith('/') ? '' : '/'}${target}`, auth: route.auth ?? t.auth };
}

/** Notebook references back to REST Client's: `{{login.json.token}}` → `{{login.response.body.$.token}}`. */
function restClientReferences(text: string, names: ReadonlySet<string>): string {
  return text.replace(/\{\{\s*([A-Za-z_][\w-]*)\.(json|text|headers)([^{}]*?)\s*\}\}/g, (whole, name: string, part: string, rest: string) => {
    if (!names.has(name)) return whole;
    if (part === 'json') return `{{${name}.response.body.$${rest}}}`;
    if (part === 'text') return `{{${name}.response.body.*}}`;
    return `{{${name}.response.headers${rest}}}`;
  });
}

function keyLine(service: 'llm' | 'maps', t: ExportTarget, auth: AuthPlacement): { header?: string; param?: string } {
  const ref = `{{$processEnv ${t.envVar ?? keyEnvVar(service, t.auth, t.baseUrl)}}}`;
  if (auth.placement === 'bearer') return { header: `Authorization: Bearer ${ref}` };
  if (auth.placement === 'header') return { header: `${auth.name}: ${ref}` };
  if (auth.placement === 'query') return { param: `${auth.name}=${ref}` };
  return {};
}

const commented = (text: string): string[] => text.split(/\r\n|\r|\n/).map((l) => (l ? `# ${l}` : '#'));

type MarkupPart = { kind: 'text'; text: string } | { kind: 'http'; name?: string; request: string };

/** Prose and the fenced `http` requests inside it: http cells as Markdown reads them, and the blocks import kept (fenced inside a quote). */
function splitHttpFences(value: string): MarkupPart[] {
  const parts: MarkupPart[] = [];
  const lines = value.split(/\r\n|\r|\n/);
  let text: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const quoted = /^>\s?/.test(lines[i]);
    const unquote = (l: string) => (quoted ? l.replace(/^>\s?/, '') : l);
    const fence = openingFence(unquote(lines[i]));
    const info = fence ? parseFenceInfo(fence.info) : undefined;
    if (!fence || info?.language !== 'http') {
      text.push(lines[i]);
      continue;
    }
    let end = i + 1;
    while (end < lines.length && (!quoted || /^>/.test(lines[end])) && !closesFence(unquote(lines[end]), fence)) end++;
    if (text.some((l) => l.trim() !== '' && l.trim() !== '>')) parts.push({ kind: 'text', text: text.join('\n').trim() });
    text = [];
    parts.push({
      kind: 'http',
      name: info.attributes.name,
      request: lines
        .slice(i + 1, end)
        .map(unquote)
        .join('\n'),
    });
    i = end;
  }
  if (text.some((l) => l.trim() !== '' && l.trim() !== '>')) parts.push({ kind: 'text', text: text.join('\n').trim() });
  return parts;
}

/** An `http` cell's request in REST Client's spelling: `{{$env X}}` → `{{$processEnv X}}`, `{{$secret name}}` → `{{name}}`. */
function httpRequestLines(request: string, name: string | undefined, names: ReadonlySet<string>): string[] {
  const lines = request.split(/\r\n|\r|\n/);
  const checks: string[] = [];
  while (lines.length && (lines.at(-1)!.trim() === '' || lines.at(-1)!.trim().startsWith('??'))) {
    const last = lines.pop()!.trim();
    if (last) checks.unshift(`# ${last}`);
  }
  // After the body they would be sent as part of it: REST Client reads up to the next ###.
  const before = checks.length ? ['# Checks in the notebook (read back by the importer):', ...checks] : [];
  const text = restClientReferences(lines.join('\n'), names)
    .replace(/\{\{\s*\$env\s+([A-Za-z_]\w*)\s*\}\}/g, '{{$processEnv $1}}')
    .replace(/\{\{\s*\$secret\s+([\w.-]+)\s*\}\}/g, '{{$1}}');
  return [...before, ...(name ? [`# @name ${name}`] : []), ...text.split(/\r\n|\r|\n/)];
}

/**
 * The notebook as a `.http` file: vars cells → `@name = value`, named cells → `# @name`, `http`
 * cells and the `http` blocks the importer kept → requests, prose and realtime cells → comments.
 */
export function exportHttpFile(notebookText: string, opts: ExportOptions = {}): string {
  const { cells } = parseNotebook(notebookText);
  const names = new Set([
    ...cells.map((c) => c.metadata.attributes?.name).filter((n): n is string => !!n),
    ...cells.flatMap((c) => (c.kind === 'markup' ? httpRequestsIn(c.value).flatMap((r) => (r.name ? [r.name] : [])) : [])),
  ]);
  const out: string[] = [];
  const vars: string[] = [];
  const sections: string[][] = [];
  let prose: string[] = [];
  cells.forEach((cell, i) => {
    if (cell.kind === 'markup') {
      for (const part of splitHttpFences(cell.value)) {
        if (part.kind === 'http') {
          sections.push([...prose, ...httpRequestLines(part.request, part.name, names)]);
          prose = [];
          continue;
        }
        if (prose.length) prose.push('#');
        prose.push(...commented(part.text));
      }
      return;
    }
    if (cell.language === 'http') {
      // An http cell is already a REST Client request: written as it is.
      sections.push([...prose, ...httpRequestLines(cell.value, cell.metadata.attributes?.name, names)]);
      prose = [];
      return;
    }
    const analysed = analyseCell(cell, 1);
    const spec = analysed.spec;
    if (spec?.kind === 'vars') {
      const env = cell.metadata.attributes?.env;
      if (env) prose.push(`# (variables of the "${env}" environment, not exported: ${spec.entries.map((e) => e.name).join(', ')})`);
      else vars.push(...spec.entries.map((e) => `@${e.name} = ${e.value}`));
      return;
    }
    if (spec?.kind !== 'http' || (cell.language !== 'llm' && cell.language !== 'maps')) {
      const why =
        cell.language === 'llm' || cell.language === 'maps' ? 'is not a request yet' : 'has no .http form (realtime messages are signed or sent over a socket)';
      prose.push(`# ${cell.language} cell ${i + 1} ${why}:`, ...commented(cell.value));
      return;
    }
    sections.push([...prose, ...httpLines(cell, spec, cell.language, names, opts)]);
    prose = [];
  });
  if (prose.length) sections.push(prose);
  if (vars.length) out.push(vars.join('\n'));
  out.push(...sections.map((s) => s.join('\n')));
  const text = out.join('\n\n###\n\n') + '\n';
  return opts.redactor ? opts.redactor.text(text) : text;
}

function httpLines(cell: NotebookCellData, spec: HttpSpec, service: 'llm' | 'maps', names: ReadonlySet<string>, opts: ExportOptions): string[] {
  const { target: t, unknown } = targetFor(cell, service, opts);
  const target = absoluteUrl(service, spec.target, t);
  const key = keyLine(service, t, target.auth);
  let url = restClientReferences(target.url, names);
  if (key.param) url += `${url.includes('?') ? '&' : '?'}${key.param}`;
  const lines: string[] = [];
  // Said, so nobody sends to the wrong host unawares: the file names which host it assumed.
  if (unknown) lines.push(`# The cell runs on the connection "${unknown}", not known here (export with --connections): written for ${t.baseUrl}`);
  // After the body they would be sent as part of it: REST Client reads up to the next ###.
  const { assertions, scripts } = analyseCell(cell, 1);
  if (assertions.length) lines.push('# Checks in the notebook (read back by the importer):', ...assertions.map((a) => `# ${a.source}`));
  const name = cell.metadata.attributes?.name;
  if (name) lines.push(`# @name ${name}`);
  lines.push(...scripts.filter((s) => s.phase === 'pre').map(exportedScript));
  lines.push(`${spec.method} ${url}`);
  for (const h of spec.headers) lines.push(`${h.name}: ${restClientReferences(h.value, names)}`);
  if (key.header) lines.push(key.header);
  if (spec.body !== undefined) lines.push('', restClientReferences(spec.body, names));
  for (const s of scripts.filter((x) => x.phase === 'post')) lines.push('', exportedScript(s));
  return lines;
}

/** Notebook variables a cURL command can hold: their values; anything else a shell variable. */
export type CurlVariables = ReadonlyMap<string, string>;

/** The values of a notebook's vars cells (not those of a named environment): what `{{name}}` is in a cURL command. */
export function notebookVariables(cells: readonly NotebookCellData[]): Map<string, string> {
  const vars = new Map<string, string>();
  for (const cell of cells) {
    if (cell.kind !== 'code' || cell.language !== 'vars' || cell.metadata.attributes?.env) continue;
    const spec = analyseCell(cell, 1).spec;
    if (spec?.kind === 'vars') for (const e of spec.entries) vars.set(e.name, e.value);
  }
  return vars;
}

/**
 * What `{{expr}}` is in an exported request when no vars cell says: an earlier cell's answer the
 * caller knows (the editor's last run), else undefined and it becomes a variable read at run time.
 */
export type KnownValue = (expr: string) => string | undefined;

/** `{{city}}` → its value; `{{$env X}}` → `${X}`; `{{$secret gh_token}}` → `${GH_TOKEN}`; `{{models.json.id}}` → its known value or `${MODELS_JSON_ID}`. */
export function fillVariables(text: string, vars: CurlVariables, known?: KnownValue): string {
  return text.replace(/\{\{\s*([^{}]+?)\s*\}\}/g, (_whole, expr: string) => {
    const env = /^\$(?:env|processEnv)\s+([A-Za-z_]\w*)$/.exec(expr);
    if (env) return shellVariable(env[1]);
    if (vars.has(expr)) return fillVariables(vars.get(expr)!, new Map([...vars].filter(([k]) => k !== expr)), known);
    const value = expr.startsWith('$') ? undefined : known?.(expr);
    if (value !== undefined) return value;
    return shellVariable(variableNameOf(expr));
  });
}

/** The environment variable an unresolved `{{expr}}` is read from: `models.json.data[0].id` → MODELS_JSON_DATA_0_ID. */
export function variableNameOf(expr: string): string {
  const name = expr
    .replace(/^\$secret\s+/, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
  return /^[A-Z_]/.test(name) ? name : `V_${name}`;
}

/** An `http` cell's text → method, absolute URL, headers, body (the `??` checks after it left out). */
function readHttpRequest(text: string): { method: string; url: string; headers: Record<string, string>; body?: string } | undefined {
  const lines = text.split(/\r\n|\r|\n/);
  while (lines.length && (lines.at(-1)!.trim() === '' || lines.at(-1)!.trim().startsWith('??'))) lines.pop();
  const first = /^([A-Za-z][A-Za-z0-9_-]*)\s+(\S+)/.exec(lines[0]?.trim() ?? '');
  if (!first) return undefined;
  const headers: Record<string, string> = {};
  let i = 1;
  for (; i < lines.length && lines[i].trim() !== ''; i++) {
    const h = /^([^:\s]+)\s*:\s*(.*)$/.exec(lines[i].trim());
    if (h) headers[h[1]] = h[2];
  }
  const body = lines.slice(i + 1).join('\n');
  return { method: first[1].toUpperCase(), url: first[2], headers, ...(body.trim() ? { body } : {}) };
}

/**
 * One request as every exporter writes it (cURL, code in other languages): method, absolute URL,
 * headers and body with variables filled in (unknown ones are `shellVariable` markers), where the
 * key goes and the environment variable it is read from. It never holds a key.
 */
export interface ExportedRequest {
  service: 'llm' | 'maps' | 'http';
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  auth: AuthPlacement;
  /** The variable the key is read from (an http cell: its own `{{$env}}` references, so unused). */
  envVar: string;
  /** The connection's base URL (SDKs take it, not the request's URL). */
  baseUrl: string;
  /** Azure OpenAI's classic API: the connection's api-version. */
  azure?: { apiVersion: string };
}

/** An `http` cell's request (as written in the fence), variables filled in; its keys are `{{$secret}}`/`{{$env}}` references. */
export function httpCellRequest(request: string, vars: CurlVariables = new Map(), known?: KnownValue): ExportedRequest | undefined {
  const r = readHttpRequest(request);
  if (!r) return undefined;
  const headers = Object.fromEntries(Object.entries(r.headers).map(([n, v]) => [n, fillVariables(v, vars, known)]));
  const url = fillVariables(r.url, vars, known);
  let baseUrl = url;
  try {
    baseUrl = new URL(r.url).origin;
  } catch {
    /* a URL with a variable in it: written as given */
  }
  return {
    service: 'http',
    method: r.method,
    url,
    headers,
    body: r.body === undefined ? undefined : fillVariables(r.body, vars, known),
    auth: { placement: 'none' },
    envVar: 'API_KEY',
    baseUrl,
  };
}

/** An `http` cell's request (as written in the fence) as a cURL command; its keys are `{{$secret}}`/`{{$env}}` references, so shell variables. */
export function httpRequestToCurl(request: string, vars: CurlVariables = new Map(), opts: ExportOptions = {}): string | undefined {
  const r = httpCellRequest(request, vars);
  return r && toCurl(r, { envVar: r.envVar, redactor: opts.redactor });
}

/** The `http` requests written inside a Markdown cell (http cells as the importer writes them, kept blocks). */
export function httpRequestsIn(markdown: string): Array<{ name?: string; request: string }> {
  return splitHttpFences(markdown).flatMap((p) => (p.kind === 'http' ? [{ name: p.name, request: p.request }] : []));
}

/** One llm, maps or http cell's request: variables as their values (or `known` answers) or as markers; undefined for other cells. */
export function cellRequest(
  cell: NotebookCellData,
  opts: ExportOptions = {},
  vars: CurlVariables = new Map(),
  known?: KnownValue,
): ExportedRequest | undefined {
  if (cell.kind === 'code' && cell.language === 'http') return httpCellRequest(cell.value, vars, known);
  if (cell.kind !== 'code' || (cell.language !== 'llm' && cell.language !== 'maps')) return undefined;
  const spec = analyseCell(cell, 1).spec;
  if (spec?.kind !== 'http') return undefined;
  const service = cell.language;
  const t = targetFor(cell, service, opts).target;
  const headers = Object.fromEntries(spec.headers.map((h) => [h.name, fillVariables(h.value, vars, known)]));
  // The engine sends a body as JSON unless the cell says otherwise; curl's -d would say form data.
  if (spec.body !== undefined && !spec.headers.some((h) => h.name.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
  const body = spec.body === undefined ? undefined : fillVariables(spec.body, vars, known);
  const target = absoluteUrl(service, spec.target, t);
  return {
    service,
    method: spec.method,
    url: fillVariables(target.url, vars, known),
    headers,
    body,
    auth: target.auth,
    envVar: t.envVar ?? keyEnvVar(service, t.auth, t.baseUrl),
    baseUrl: t.baseUrl,
    ...(t.azure ? { azure: t.azure } : {}),
  };
}

/** One llm, maps or http cell as a cURL command: variables as their values or as shell variables; undefined for other cells. */
export function cellToCurl(cell: NotebookCellData, opts: ExportOptions = {}, vars: CurlVariables = new Map()): string | undefined {
  const r = cellRequest(cell, opts, vars);
  return r && toCurl(r, { envVar: r.envVar, redactor: opts.redactor });
}
