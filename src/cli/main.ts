// `api-workbench`: runs API notebooks (*.awb.md) outside the editor, for CI. Built into
// dist/cli-main.js, which dist/cli.js (start.ts) requires.
// Exit codes: 0 all passed, 1 a cell failed, 2 the run could not be made. A user error is one
// line (or one per problem), never a stack trace.
import { parseCliArgs, USAGE } from './args';
import { CliError } from './errors';
import { errorText } from '../core/errors';

declare const __CLI_VERSION__: string | undefined;
const VERSION = typeof __CLI_VERSION__ === 'string' ? __CLI_VERSION__ : '0.0.0-dev';

/** Writes and waits until it is handed to the OS, so process.exit() cannot cut it off. */
function flush(stream: NodeJS.WriteStream, text = ''): Promise<void> {
  return new Promise((resolve) => stream.write(text, () => resolve()));
}

/** Notebook runs still going, each with the cell it was last sending (see Streams.inFlight). */
const inFlight = new Map<string, string>();
let finished = false;

async function main(argv: readonly string[]): Promise<number> {
  try {
    const args = parseCliArgs(argv);
    if (args.command === 'help') {
      process.stdout.write(USAGE + '\n');
      return 0;
    }
    if (args.command === 'version') {
      process.stdout.write(VERSION + '\n');
      return 0;
    }
    // Each command's modules are evaluated only when it runs: a notebook run does not set up the
    // importers, the catalogue behind check, or the protocol SDK behind mcp.
    if (args.command === 'import') {
      const { importCommand } = await import('./import');
      return await importCommand(args, { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin });
    }
    if (args.command === 'check') {
      const { checkCommand } = await import('./check');
      return await checkCommand(args, { stdout: process.stdout, stderr: process.stderr });
    }
    if (args.command === 'export') {
      const { exportCommand } = await import('./export');
      return await exportCommand(args, { stdout: process.stdout, stderr: process.stderr });
    }
    if (args.command === 'mcp') {
      const { mcpCommand } = await import('./mcp');
      return await mcpCommand(args, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env }, VERSION);
    }
    if (args.command === 'merge-reports') {
      const { mergeReportsCommand } = await import('./mergeReports');
      return mergeReportsCommand(args, { stdout: process.stdout, stderr: process.stderr });
    }
    const { runCommand } = await import('./run');
    return await runCommand(args, { stdout: process.stdout, stderr: process.stderr, env: process.env, inFlight });
  } catch (e) {
    if (e instanceof CliError) {
      process.stderr.write(`api-workbench: ${e.message}\n`);
      if (
        /^(Unknown option|Option '|unknown command|run needs|check needs|check takes|import takes|export takes|mcp takes|merge-reports needs|--format|--json|--[a-z-]+ is (not )?an option of)/.test(
          e.message,
        )
      )
        process.stderr.write('Run "api-workbench --help" for the options.\n');
      return 2;
    }
    // Our bug, not the user's: the message, and the stack only when asked for.
    const detail = process.env.API_WORKBENCH_DEBUG ? (e instanceof Error ? (e.stack ?? e.message) : String(e)) : errorText(e);
    process.stderr.write(`api-workbench: internal error: ${detail}\n`);
    return 2;
  }
}

// A reader that goes away (`api-workbench run … | head`) closes the pipe: what is left to print has
// nowhere to go, and Node would end the run with an unhandled 'error' on stdout, mid-cell. The run
// goes on and ends with its own exit code (what `set -o pipefail` reports).
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
  });
}

// The event loop emptied while main was still waiting: something awaited can never settle. Node
// would exit 0 with no summary, and CI would go green. Say which cell never finished and fail.
process.on('beforeExit', () => {
  if (finished) return;
  finished = true;
  const where = [...inFlight.values()];
  process.stderr.write(
    `api-workbench: the run ended before every cell had a result: ${where.length > 0 ? where.join(', ') : 'a notebook'} never finished (nothing was left that could finish it). This is a bug in api-workbench; please report it.\n`,
  );
  process.exitCode = 1;
});

void main(process.argv.slice(2)).then(async (code) => {
  finished = true;
  await Promise.all([flush(process.stdout), flush(process.stderr)]);
  // Keep-alive sockets and timers of finished requests must not hold the process open.
  process.exit(code);
});
