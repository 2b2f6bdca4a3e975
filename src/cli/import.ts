// `api-workbench import`: a .http file, a Postman collection, an OpenAPI document or a cURL command (stdin) → a
// notebook. Exit 0 written (a request that could not be converted is kept as a block, said on
// stderr), 2 input that is not the format at all (nothing written). Keys found are named, never shown.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ImportError, detectFormat, importOpenApi, importText, knownConnectionsOf, type KnownConnection } from '../notebook/api';
import type { ImportArgs } from './args';
import { loadConnectionsFile } from './connectionsFile';
import { CliError } from './errors';
import { readTextFile } from './textFile';
import type { LineSink } from './progress';

export interface ImportStreams {
  stdout: LineSink;
  stderr: LineSink;
  stdin: NodeJS.ReadableStream;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) text += String(chunk);
  return text;
}

function knownConnections(file: string | undefined): KnownConnection[] {
  return file ? knownConnectionsOf(loadConnectionsFile(file).connections) : [];
}

/** How the notebook names its spec: relative to the notebook's folder (or the current one for stdout), as `./x.yaml`. */
function specRefFrom(input: string, out: string | undefined): string {
  const rel = path
    .relative(path.dirname(path.resolve(out ?? 'here')), path.resolve(input))
    .split(path.sep)
    .join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

export async function importCommand(args: ImportArgs, streams: ImportStreams): Promise<number> {
  const fromStdin = args.input === '-';
  if (!fromStdin && !existsSync(args.input)) throw new CliError(`${args.input}: no such file`);
  const text = fromStdin ? await readAll(streams.stdin) : readTextFile(args.input, 'file to import');
  const source = fromStdin ? 'stdin' : args.input;
  const connections = knownConnections(args.connectionsFile);
  let result;
  try {
    const format = fromStdin ? 'curl' : detectFormat(args.input, text);
    result =
      format === 'openapi'
        ? await importOpenApi(text, args.input, { source, connections, specRef: specRefFrom(args.input, args.out) })
        : importText(format, text, { source, connections });
  } catch (e) {
    if (e instanceof ImportError) throw new CliError(e.message);
    throw e;
  }
  if (args.out) writeFileSync(args.out, result.text);
  else streams.stdout.write(result.text);
  for (const line of result.report) streams.stderr.write(`${line}\n`);
  for (const s of result.secrets) {
    const where = s.header
      ? `the ${s.header} header`
      : s.param
        ? `the ${s.param} parameter`
        : s.userinfo
          ? "the URL's user:password"
          : `the variable ${s.variable ?? ''}`;
    const sentTo = [s.service, s.origin].filter(Boolean).join(' ');
    const store = s.secretName
      ? `store it as the secret "${s.secretName}" (the http cell reads {{$secret ${s.secretName}}})`
      : "store it as the connection's key";
    streams.stderr.write(
      `a key${sentTo ? ` (${sentTo})` : ''} was found in ${where}${s.variable && (s.header || s.param) ? ` (variable ${s.variable})` : ''}: not written into the notebook; ${store}\n`,
    );
  }
  if (args.out) streams.stderr.write(`wrote ${args.out}\n`);
  return 0;
}
