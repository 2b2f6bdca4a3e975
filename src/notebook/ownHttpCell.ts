// What an http cell (a request to any API, REST Client style) needs before it is filled in: the
// front end's approval of its host (every host, loopback included), then its credentials,
// `{{$env NAME}}` and `{{$secret name}}`, each registered with the redactor before it is used.
// Nothing is asked for or sent when the host is refused.
import { errorText } from '../core/errors';
import { analyseCell, type AssertionSpec, type HttpSpec } from './cells';
import { cellStartLines } from './format';
import { baseVariableOf, fillBaseVariable } from './baseVariable';
import { absoluteOrigin, type HttpTarget } from './httpCell';
import type { CellRef, NotebookCellData, NotebookHost } from './types';
import { NotebookError, systemReferences, type SystemReference } from './variables';

export interface OwnHttpPlan {
  target: HttpTarget;
  /** VariableScope.system: every credential reference of the cell, resolved. */
  system: Map<string, string>;
}

/** The file line of a request cell's body (the line after the blank line that ends the headers). */
export function bodyLineOf(spec: HttpSpec): number {
  return spec.headers.length ? spec.headers[spec.headers.length - 1].line + 2 : spec.line + 2;
}

/** Every `{{$env …}}` and `{{$secret …}}` of the cell: request line, headers, body, assertions. */
function credentialReferences(spec: HttpSpec, assertions: readonly AssertionSpec[]): SystemReference[] {
  return [
    ...systemReferences(spec.target, spec.line),
    ...spec.headers.flatMap((h) => systemReferences(h.value, h.line)),
    ...(spec.body === undefined ? [] : systemReferences(spec.body, bodyLineOf(spec))),
    ...assertions.flatMap((a) => systemReferences(a.value, a.line)),
  ];
}

export async function prepareOwnHttp(
  host: NotebookHost,
  ref: CellRef,
  spec: HttpSpec,
  assertions: readonly AssertionSpec[],
  signal: AbortSignal,
): Promise<OwnHttpPlan> {
  const failAt =
    (line: number) =>
    (detail: string): never => {
      throw new NotebookError(ref.file, line, detail);
    };
  // The cell's analysis made sure the request line is an absolute http(s) URL with a written-out host.
  const url = absoluteOrigin(spec.target, failAt(spec.line));
  if (!url) return failAt(spec.line)('an http cell needs an absolute URL');
  const refs = credentialReferences(spec, assertions);

  if (!host.approveHost) return failAt(spec.line)(`not sent to ${url.host}: this front end cannot approve hosts for http cells`);
  const answer = await host.approveHost({ cell: ref, host: url.host, origin: url.origin, credentials: [...new Set(refs.map((r) => r.source))] });
  if (answer !== true) return failAt(spec.line)(answer);

  const system = new Map<string, string>();
  for (const r of refs) {
    if (system.has(r.key)) continue;
    const value = r.kind === 'env' ? envValue(host, r, ref.file) : await secretValue(host, r, ref.file, signal);
    host.redactor.addSecret(value);
    // Named here, before anything is filled in: the request-wide check (credentialTaint.ts) would only say whose key it is.
    const owner = [...((await host.connectionCredentials?.())?.get(value) ?? [])][0];
    if (owner !== undefined)
      throw new NotebookError(
        ref.file,
        r.line,
        `${r.source}: ${r.kind === 'env' ? `the environment variable ${r.name}` : 'this secret'} holds the key of ${owner}, which goes only to that connection's own requests (use a cell of that connection); nothing was sent`,
      );
    system.set(r.key, value);
  }
  return { target: { baseUrl: url.origin, origin: url.origin, absolute: true }, system };
}

function envValue(host: NotebookHost, r: SystemReference, file: string): string {
  const refusal = host.envRefusal?.(r.name);
  if (refusal !== undefined) throw new NotebookError(file, r.line, `${r.source}: ${refusal}; nothing was sent`);
  const value = host.env?.(r.name);
  if (value === undefined || value === '') {
    throw new NotebookError(
      file,
      r.line,
      `${r.source}: the environment variable ${r.name} is not set: set it where the run starts (for the editor, before VS Code starts)`,
    );
  }
  return value;
}

async function secretValue(host: NotebookHost, r: SystemReference, file: string, signal: AbortSignal): Promise<string> {
  if (!host.secret) throw new NotebookError(file, r.line, `${r.source}: this front end keeps no secrets; use {{$env NAME}} instead`);
  try {
    return await host.secret(r.name, signal);
  } catch (e) {
    throw new NotebookError(file, r.line, `${r.source}: ${errorText(e)}`);
  }
}

/** What an http cell will need when it runs: a front end that checks before the first request (the CLI) reads this. */
export interface HttpCellNeeds {
  cellIndex: number;
  /** The request line. */
  line: number;
  host: string;
  references: Array<Pick<SystemReference, 'kind' | 'name' | 'source' | 'line'>>;
}

/** The http cells of a notebook that read cleanly, each with its host and credential references. */
export function httpCellNeeds(cells: readonly NotebookCellData[], environment?: string): HttpCellNeeds[] {
  const lines = cellStartLines(cells);
  const vars = varsCellValues(cells, environment, lines);
  const out: HttpCellNeeds[] = [];
  cells.forEach((cell, cellIndex) => {
    if (cell.kind !== 'code' || cell.language !== 'http') return;
    const analysed = analyseCell(cell, lines[cellIndex]);
    const spec = analysed.spec;
    if (spec?.kind !== 'http' || analysed.problems.length) return;
    let host: string | undefined;
    try {
      const refuse = (d: string): never => {
        throw new Error(d);
      };
      // `{{baseUrl}}/x`: the host its vars value names (a variable no vars cell defines is the run's refusal to make).
      host = absoluteOrigin(baseVariableOf(spec.target) === undefined ? spec.target : fillBaseVariable(spec.target, vars, refuse), refuse)?.host;
    } catch {
      return;
    }
    if (host === undefined) return;
    const references = credentialReferences(spec, analysed.assertions).map(({ kind, name, source, line }) => ({ kind, name, source, line }));
    out.push({ cellIndex, line: spec.line, host, references });
  });
  return out;
}

/** The values of the notebook's vars cells that apply under `environment` (a `vars env=` cell's value wins over a plain one). */
export function varsCellValues(cells: readonly NotebookCellData[], environment: string | undefined, lines = cellStartLines(cells)): Map<string, string> {
  const plain = new Map<string, string>();
  const forEnv = new Map<string, string>();
  cells.forEach((cell, i) => {
    if (cell.kind !== 'code' || cell.language !== 'vars') return;
    const env = cell.metadata.attributes?.env;
    if (env !== undefined && env !== environment) return;
    const analysed = analyseCell(cell, lines[i]);
    if (analysed.spec?.kind !== 'vars') return;
    for (const e of analysed.spec.entries) (env === undefined ? plain : forEnv).set(e.name, e.value);
  });
  return new Map([...plain, ...forEnv]);
}
