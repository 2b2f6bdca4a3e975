// Back out: a notebook as a REST Client `.http` file, and one cell as a cURL command. The key is
// always a reference (`{{$processEnv OPENAI_API_KEY}}`, `$OPENAI_API_KEY`), never a value.
import type { AuthPlacement } from '../../core/auth';
import { keyEnvVar, toCurl } from '../../core/curl';
import type { Redactor } from '../../core/redact';
import type { NotebookCellData } from '../types';
import { analyseCell, type HttpSpec } from '../cells';
import { parseNotebook } from '../format';

/** Where a service's requests go in the export (a connection's base URLs and key placement). */
export interface ExportTarget {
  baseUrl: string;
  /** Maps: per-API hosts (places, routes, addressValidation, geocoding). */
  baseUrls?: Record<string, string>;
  auth: AuthPlacement;
  /** The environment variable the key is read from (default: OPENAI_API_KEY, GOOGLE_MAPS_API_KEY… by service and host). */
  envVar?: string;
}

export interface ExportOptions {
  llm?: ExportTarget;
  maps?: ExportTarget;
  redactor?: Redactor;
}

const DEFAULT_TARGETS: Record<'llm' | 'maps', ExportTarget> = {
  llm: { baseUrl: 'https://api.openai.com/v1', auth: { placement: 'bearer' } },
  maps: {
    baseUrl: 'https://places.googleapis.com',
    baseUrls: {
      places: 'https://places.googleapis.com',
      routes: 'https://routes.googleapis.com',
      addressValidation: 'https://addressvalidation.googleapis.com',
      geocoding: 'https://geocode.googleapis.com',
    },
    auth: { placement: 'header', name: 'X-Goog-Api-Key' },
  },
};

const MAPS_API_PREFIXES: ReadonlyArray<[RegExp, string]> = [
  [/^\/?v1\/places[:/]/, 'places'],
  [/^\/?(directions|distanceMatrix)\/v2:/, 'routes'],
  [/^\/?v1:validateAddress/, 'addressValidation'],
  [/^\/?v4\/geocode\//, 'geocoding'],
];

/** The absolute URL a cell's target stands for under `t`. */
function absoluteUrl(service: 'llm' | 'maps', target: string, t: ExportTarget): string {
  if (/^https?:\/\//i.test(target)) return target;
  let base = t.baseUrl;
  if (service === 'maps') {
    const api = MAPS_API_PREFIXES.find(([re]) => re.test(target))?.[1];
    if (api && t.baseUrls?.[api]) base = t.baseUrls[api];
  }
  return `${base.replace(/\/+$/, '')}${target.startsWith('/') ? '' : '/'}${target}`;
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

function keyLine(service: 'llm' | 'maps', t: ExportTarget): { header?: string; param?: string } {
  const ref = `{{$processEnv ${t.envVar ?? keyEnvVar(service, t.auth, t.baseUrl)}}}`;
  if (t.auth.placement === 'bearer') return { header: `Authorization: Bearer ${ref}` };
  if (t.auth.placement === 'header') return { header: `${t.auth.name}: ${ref}` };
  if (t.auth.placement === 'query') return { param: `${t.auth.name}=${ref}` };
  return {};
}

const commented = (text: string): string[] => text.split(/\r\n|\r|\n/).map((l) => (l ? `# ${l}` : '#'));

/** The notebook as a `.http` file: vars cells → `@name = value`, named cells → `# @name`, prose and realtime cells → comments. */
export function exportHttpFile(notebookText: string, opts: ExportOptions = {}): string {
  const { cells } = parseNotebook(notebookText);
  const names = new Set(cells.map((c) => c.metadata.attributes?.name).filter((n): n is string => !!n));
  const out: string[] = [];
  const vars: string[] = [];
  const sections: string[][] = [];
  let prose: string[] = [];
  cells.forEach((cell, i) => {
    if (cell.kind === 'markup') {
      if (prose.length) prose.push('#');
      prose.push(...commented(cell.value));
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
  const t = opts[service] ?? DEFAULT_TARGETS[service];
  const key = keyLine(service, t);
  let url = restClientReferences(absoluteUrl(service, spec.target, t), names);
  if (key.param) url += `${url.includes('?') ? '&' : '?'}${key.param}`;
  const lines: string[] = [];
  // After the body they would be sent as part of it: REST Client reads up to the next ###.
  const assertions = analyseCell(cell, 1).assertions;
  if (assertions.length) lines.push('# Checks in the notebook (read back by the importer):', ...assertions.map((a) => `# ${a.source}`));
  const name = cell.metadata.attributes?.name;
  if (name) lines.push(`# @name ${name}`);
  lines.push(`${spec.method} ${url}`);
  for (const h of spec.headers) lines.push(`${h.name}: ${restClientReferences(h.value, names)}`);
  if (key.header) lines.push(key.header);
  if (spec.body !== undefined) lines.push('', restClientReferences(spec.body, names));
  return lines;
}

/** One llm or maps cell as a cURL command (variables left as written); undefined for other cells. */
export function cellToCurl(cell: NotebookCellData, opts: ExportOptions = {}): string | undefined {
  if (cell.kind !== 'code' || (cell.language !== 'llm' && cell.language !== 'maps')) return undefined;
  const spec = analyseCell(cell, 1).spec;
  if (spec?.kind !== 'http') return undefined;
  const service = cell.language;
  const t = opts[service] ?? DEFAULT_TARGETS[service];
  const headers = Object.fromEntries(spec.headers.map((h) => [h.name, h.value]));
  // The engine sends a body as JSON unless the cell says otherwise; curl's -d would say form data.
  if (spec.body !== undefined && !spec.headers.some((h) => h.name.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
  return toCurl(
    { method: spec.method, url: absoluteUrl(service, spec.target, t), headers, body: spec.body, auth: t.auth },
    { envVar: t.envVar ?? keyEnvVar(service, t.auth, t.baseUrl), redactor: opts.redactor },
  );
}
