// `npm start`: build, start the local sandbox and a real VS Code (code-server) with the extension
// installed from this checkout and the sandbox connections ready, and print the URL to open.
//   node scripts/start.mjs [--port 8080] [--editor oldest|newest] [--screenshot <file.png>]
// --editor: which code-server build (scripts/editor-hosts.json): oldest (default) = VS Code 1.100,
// the oldest the extension supports; newest = the newest code-server (runs under Node 24).
// --screenshot: for machines without a desktop: open the workbench in headless Chromium, save a
// screenshot, stop. Installs code-server first (scripts/setup.sh) if it is missing.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { hostInstalled } from './editor-cache.mjs';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const USAGE = 'usage: node scripts/start.mjs [--port 8080] [--editor oldest|newest] [--screenshot <file.png>]';

let values;
try {
  ({ values } = parseArgs({
    options: { port: { type: 'string' }, editor: { type: 'string' }, screenshot: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  }));
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

const hosts = JSON.parse(readFileSync(path.join(root, 'scripts', 'editor-hosts.json'), 'utf8')).hosts;
const host = hosts.find((h) => h.id === (values.editor ?? 'oldest'));
if (!host) {
  console.error(`--editor must be one of ${hosts.map((h) => h.id).join(', ')}, got ${values.editor}\n${USAGE}`);
  process.exit(2);
}
if (!hostInstalled(host)) {
  console.log(`[start] code-server ${host.codeServer} is not installed yet: running scripts/setup.sh ${host.id}`);
  run('bash', [path.join(root, 'scripts', 'setup.sh'), host.id]);
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
  const code = await startSession({ port, editorHost: host.id, ...(values.screenshot ? { screenshot: values.screenshot } : {}) });
  process.exit(code);
} catch (e) {
  console.error(`[start] ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
