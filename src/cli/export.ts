// `api-workbench export`: a notebook → a REST Client `.http` file (default), its llm/maps cells
// as cURL commands, or one program (python, javascript, python-sdk, javascript-sdk). The key is always an environment-variable reference, never a value: with
// --connections, a cell's named connection (connection="…"), else the first one of its service, sets
// the hosts and names its keyEnv.
import { existsSync, writeFileSync } from 'node:fs';
import { connectionId, type HttpConnection, type RealtimeConnection } from '../core/connections';
import {
  cellToCurl,
  exportHttpFile,
  httpRequestsIn,
  httpRequestToCurl,
  notebookVariables,
  parseNotebook,
  type ExportOptions,
  type ExportTarget,
} from '../notebook/api';
import type { ExportArgs } from './args';
import { loadConnectionsFile } from './connectionsFile';
import { CliError } from './errors';
import { readTextFile } from './textFile';
import type { LineSink } from './progress';

export interface ExportStreams {
  stdout: LineSink;
  stderr: LineSink;
}

function targetOf(conn: HttpConnection, envVar: string | undefined): ExportTarget {
  return { baseUrl: conn.baseUrl, baseUrls: { ...conn.baseUrls }, auth: conn.auth, ...(envVar ? { envVar } : {}) };
}

function exportOptions(file: string | undefined): ExportOptions {
  if (!file) return {};
  const { connections, keyEnv } = loadConnectionsFile(file);
  const opts: ExportOptions = {};
  for (const service of ['llm', 'maps'] as const) {
    const conn = connections.find((c): c is HttpConnection => c.service === service);
    if (conn) opts[service] = targetOf(conn, keyEnv.get(connectionId(conn)));
  }
  const http = connections.filter((c): c is HttpConnection => c.service !== 'realtime');
  return { ...opts, connections: new Map(http.map((c) => [connectionId(c), targetOf(c, keyEnv.get(connectionId(c)))])) };
}

/**
 * Each llm/maps/http cell (and each http block kept in prose) as a cURL command under a comment
 * naming it; notebook variables are written as their values, the rest as shell variables.
 */
function curlScript(text: string, opts: ExportOptions, skipped: string[]): string {
  const { cells } = parseNotebook(text);
  const vars = notebookVariables(cells);
  const commands: string[] = [];
  cells.forEach((cell, i) => {
    if (cell.kind === 'markup') {
      for (const r of httpRequestsIn(cell.value)) {
        const curl = httpRequestToCurl(r.request, vars, opts);
        if (curl !== undefined) commands.push(`# http ${r.name ? `cell ${r.name}` : `block in cell ${i + 1}`}\n${curl}`);
      }
      return;
    }
    if (cell.language === 'vars') return;
    const name = cell.metadata.attributes?.name;
    const label = `cell ${i + 1}${name ? ` (${name})` : ''}`;
    const curl = cellToCurl(cell, opts, vars);
    if (curl === undefined) skipped.push(`${label}: a ${cell.language} cell has no cURL form`);
    else commands.push(`# ${label}\n${curl}`);
  });
  return commands.length ? commands.join('\n\n') + '\n' : '';
}

/** The notebook as a program: the code generator is loaded only for these formats (CLI start stays quick). */
async function programText(
  text: string,
  format: Exclude<ExportArgs['format'], 'http' | 'curl'>,
  connectionsFile: string | undefined,
  skipped: string[],
): Promise<string> {
  const { notebookProgram } = await import('../features/codegen/notebookProgram');
  const file = connectionsFile ? loadConnectionsFile(connectionsFile) : undefined;
  const realtime = file?.connections.find((c): c is RealtimeConnection => c.service === 'realtime');
  // The program reads the app secret from the variable the file names for it, as `run` does.
  const realtimeSecretVar = realtime ? file?.keyEnv.get(connectionId(realtime)) : undefined;
  const program = notebookProgram(text, format, { targets: exportOptions(connectionsFile), realtime, realtimeSecretVar });
  skipped.push(...program.skipped);
  return program.code;
}

export async function exportCommand(args: ExportArgs, streams: ExportStreams): Promise<number> {
  if (!existsSync(args.input)) throw new CliError(`${args.input}: no such file`);
  const text = readTextFile(args.input, 'notebook');
  const problems = parseNotebook(text, args.input).problems;
  if (problems.length) throw new CliError(problems.map((p) => `${p.file}:${p.line}: ${p.message}`).join('\n'));
  const skipped: string[] = [];
  const out =
    args.format === 'curl'
      ? curlScript(text, exportOptions(args.connectionsFile), skipped)
      : args.format === 'http'
        ? exportHttpFile(text, exportOptions(args.connectionsFile))
        : await programText(text, args.format, args.connectionsFile, skipped);
  if (args.out) writeFileSync(args.out, out);
  else streams.stdout.write(out);
  for (const line of skipped) streams.stderr.write(`${line}\n`);
  if (args.out) streams.stderr.write(`wrote ${args.out}\n`);
  return 0;
}
