// `npm start`: build, start the local sandbox and a real VS Code (code-server) with the extension
// installed from this checkout and the sandbox connections ready, and print the URL to open.
//   node scripts/start.mjs [--port 8080] [--screenshot <file.png>]
// --screenshot: for machines without a desktop: open the workbench in headless Chromium, save a
// screenshot, stop. Installs code-server first (scripts/setup.sh) if it is missing.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const USAGE = 'usage: node scripts/start.mjs [--port 8080] [--screenshot <file.png>]';

let values;
try {
  ({ values } = parseArgs({ options: { port: { type: 'string' }, screenshot: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true }));
} catch (e) {
  console.error(`${e.message}\n${USAGE}`);
  process.exit(2);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const port = values.port === undefined ? 8080 : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number, got ${values.port}\n${USAGE}`);
  process.exit(2);
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) {
    console.error(`[start] ${path.basename(cmd)} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

const codeServer = path.join(root, '.vscode-test', 'code-server-4.100.3', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
if (!existsSync(codeServer)) {
  console.log('[start] code-server is not installed yet: running scripts/setup.sh');
  run('bash', [path.join(root, 'scripts', 'setup.sh')]);
}

console.log('[start] building the extension and the sandbox');
run(process.execPath, ['esbuild.mjs']);
// The session logic lives with the test harness (it drives code-server the same way); bundle just that.
const sessionJs = path.join(root, 'out', 'start', 'session.js');
await esbuild.build({
  entryPoints: [path.join(root, 'test', 'editor', 'harness', 'session.ts')],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  packages: 'external',
  sourcemap: 'inline',
  outfile: sessionJs,
  logLevel: 'warning',
});

const { startSession } = createRequire(import.meta.url)(sessionJs);
try {
  const code = await startSession({ port, ...(values.screenshot ? { screenshot: values.screenshot } : {}) });
  process.exit(code);
} catch (e) {
  console.error(`[start] ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
