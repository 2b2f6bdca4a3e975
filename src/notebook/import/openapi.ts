// An OpenAPI document → one notebook: a vars cell naming the spec (`spec = ./openapi.yaml`, read by
// spec-aware cells and `?? json matches spec`) with the first server as `baseUrl` and the path
// parameters' examples, a `vars env=<server>` cell per server, then a heading per tag and a cell
// per operation named after its operationId. An operation on a host the product knows (OpenAI,
// Azure OpenAI, Google Maps, Pusher) becomes a cell of that service through the same mapping as
// every other importer (convert.ts); one that cannot be a cell is kept as a block with a note.
import { classify } from './classify';
import { convertRequest, fenced, keptNote, type Piece } from './convert';
import { cellName, varsPiece, writeNotebook } from './write';
import { operationRequest } from './openapiCells';
import { loadSpec } from '../openapi/load';
import { specModel, type SpecModel, type SpecOperation } from '../openapi/model';
import type { ImportOptions, ImportResult } from './types';

export interface OpenApiImportOptions extends ImportOptions {
  /** How the notebook names the spec (relative to the notebook's folder): `./openapi.yaml`. */
  specRef: string;
}

const CELL_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** An environment's name from a server's description ("Local" → local), else server2, …. */
function envName(description: string | undefined, i: number, taken: Set<string>): string {
  const slug = (description ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 30);
  let name = slug || `server${i + 1}`;
  if (taken.has(name)) name = `${name}-${i + 1}`;
  taken.add(name);
  return name;
}

function markdownOf(op: SpecOperation): string {
  const title = `### ${op.summary ?? op.id}`;
  return [title, `\`${op.method} ${op.path}\``, op.description].filter(Boolean).join('\n\n');
}

/** Tags in the document's order, then the ones only operations name, then "Other" for untagged ones. */
function groups(model: SpecModel): Array<{ name: string; description?: string; ops: SpecOperation[] }> {
  const byTag = new Map<string, SpecOperation[]>();
  for (const op of model.operations) {
    const tag = op.tags[0] ?? '';
    byTag.set(tag, [...(byTag.get(tag) ?? []), op]);
  }
  const order = [...model.tags.map((t) => t.name), ...byTag.keys()].filter((t, i, all) => all.indexOf(t) === i && byTag.has(t));
  return order.map((name) => ({ name: name || 'Other', description: model.tags.find((t) => t.name === name)?.description, ops: byTag.get(name)! }));
}

export async function importOpenApi(text: string, file: string, opts: OpenApiImportOptions): Promise<ImportResult> {
  const model = specModel(await loadSpec(text, file));
  return openApiNotebook(model, opts);
}

/** The notebook for a loaded document. */
export function openApiNotebook(model: SpecModel, opts: OpenApiImportOptions): ImportResult {
  const report: string[] = [];
  const secrets: ImportResult['secrets'] = [];
  const connections = opts.connections ?? [];
  const servers = model.servers.filter((s) => /^https?:\/\//i.test(s.url));
  if (!servers.length) report.push('the document names no absolute server URL: set baseUrl in the vars cell to where the API runs');
  const baseUrl = servers[0]?.url ?? 'https://api.example.com';
  const pathVars = new Map<string, string>();
  const taken = new Set<string>();
  const body: Piece[] = [];
  const secretSchemes = new Set<string>();
  for (const group of groups(model)) {
    body.push({ kind: 'markdown', value: [`## ${group.name}`, group.description].filter(Boolean).join('\n\n') });
    for (const op of group.ops) {
      body.push({ kind: 'markdown', value: markdownOf(op) });
      const req = operationRequest(op, model);
      for (const [k, v] of req.pathVars) if (!pathVars.has(k)) pathVars.set(k, v);
      const name = cellName(op.id, taken);
      const label = `${op.id} (${op.pointer})`;
      const requestText = [`${req.method} {{baseUrl}}${req.target}`, ...req.headers.map(([k, v]) => `${k}: ${v}`), ...(req.body ? ['', req.body] : [])].join(
        '\n',
      );
      if (!CELL_METHODS.has(req.method) || req.bodyProblem) {
        const why = req.bodyProblem ?? `${req.method} is not a method a cell sends (${[...CELL_METHODS].join(', ')})`;
        report.push(`${label}: kept as an http block: ${why}`);
        body.push(keptNote(`**Not imported as a cell:** ${why}. Kept as written:`, requestText));
        continue;
      }
      const known = knownService(baseUrl, connections);
      if (known) {
        // The product's own service: the same mapping as a .http or curl import (relative path, the connection's key).
        const pathValues = new Map([...req.pathVars, ['baseUrl', baseUrl]]);
        const expand = (t: string) => t.replace(/\{\{\s*([\w-]+)\s*\}\}/g, (w, n: string) => pathValues.get(n) ?? w);
        const raw = {
          method: req.method,
          url: `{{baseUrl}}${req.target}`,
          headers: req.headers.filter(([, v]) => !v.includes('{{$secret')),
          body: req.body,
          line: 1,
        };
        body.push(...convertRequest(raw, { connections, secrets, report, expand }, label, name));
        continue;
      }
      for (const h of req.headers) for (const m of h[1].matchAll(/\{\{\$secret ([^}]+)\}\}/g)) secretSchemes.add(m[1]);
      body.push({ kind: 'http', name, value: [requestText, ...(req.checks.length ? ['', ...req.checks] : [])].join('\n') });
    }
  }
  if (secretSchemes.size)
    report.push(
      `credentials are read as ${[...secretSchemes].map((s) => `{{$secret ${s}}}`).join(', ')}: store each once (the editor asks; the CLI reads AWB_SECRET_<NAME>)`,
    );
  const head: Piece[] = [
    { kind: 'markdown', value: [`# ${model.title}${model.version ? ` ${model.version}` : ''}`, model.description].filter(Boolean).join('\n\n') },
  ];
  const vars = varsPiece([['spec', opts.specRef], ['baseUrl', baseUrl], ...pathVars], report);
  if (vars) head.push(vars);
  if (servers.length > 1) {
    const envs = new Set<string>();
    servers.forEach((s, i) => {
      const env = envName(s.description, i, envs);
      head.push({ kind: 'markdown', value: `Server **${env}**${s.description ? `: ${s.description}` : ''} (run with \`--env ${env}\`).` });
      // As fence text (like an http piece): a vars cell with env= that the notebook parser reads back as one.
      head.push({ kind: 'markdown', value: fenced(`vars env=${env}`, `baseUrl = ${s.url}`) });
    });
  }
  report.push(`${model.operations.length} operations from an OpenAPI ${model.dialect} document`);
  return writeNotebook([...head, ...body], secrets, report);
}

function knownService(baseUrl: string, connections: OpenApiImportOptions['connections'] & object): boolean {
  try {
    return classify(new URL(`${baseUrl}/`), connections).kind === 'service';
  } catch {
    return false;
  }
}
