// What `api-workbench run` parses before its first request: dist/cli-main.js and the chunks the run
// command requires as it loads. Each is compiled at every start where no code cache is kept (a CI
// machine's first run), so a library that enters these chunks costs every CI step (issue 39: the
// importers, the OpenAPI parser with ajv, re2js, ws and tweetnacl had made them 1.35 MB, the CLI
// 0.52× httpyac's time).
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import path from 'node:path';
import { assertBuilt, CLI, countingServer, runCli, tempDir, write } from './cliKit';

const DIST = path.dirname(CLI);

/** A chunk required when its `import()` runs (esbuild's CommonJS form of it), not as the file loads. */
const LATER = /\.then\(\(\)\s*=>\s*[\w$]*\(?require\(["']\.\/(cli-[\w-]+\.js)["']\)/g;
const REQUIRED = /require\(["']\.\/(cli-[\w-]+\.js)["']\)/g;

/** dist/cli-main.js, the run command's chunk, and every chunk they require as they load. */
function runStartChunks(): Map<string, string> {
  const main = readFileSync(path.join(DIST, 'cli-main.js'), 'utf8');
  const run = [...main.matchAll(LATER)].map((m) => m[1]).find((f) => f.startsWith('cli-run-'));
  assert.ok(run, 'dist/cli-main.js requires no cli-run-*.js chunk');
  const chunks = new Map<string, string>([['cli-main.js', main]]);
  const pending = [run];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (chunks.has(name)) continue;
    const text = readFileSync(path.join(DIST, name), 'utf8');
    chunks.set(name, text);
    const later = new Set([...text.matchAll(LATER)].map((m) => m[1]));
    for (const m of text.matchAll(REQUIRED)) if (!later.has(m[1])) pending.push(m[1]);
  }
  return chunks;
}

describe('CLI start: what a run parses', function () {
  before(assertBuilt);

  it('leaves out what only some runs use (OpenAPI parser, ajv, importers, re2js, ws, nacl), loaded when a cell needs it', function () {
    const chunks = runStartChunks();
    const text = [...chunks.values()].join('\n');
    // Strings each library keeps through minification.
    const markers: Record<string, string> = {
      'ajv (matches spec)': 'schema with key or id',
      'swagger-parser (matches spec)': 'is not a valid Openapi API definition',
      're2js (matches /re/)': 'missing closing )',
      'ws (realtime cells)': 'WebSocket was closed before the connection was established',
      'tweetnacl (encrypted channels)': 'bad nonce size',
      'js-yaml (OpenAPI documents)': 'duplication of a tag property',
    };
    const present = Object.entries(markers)
      .filter(([, marker]) => text.includes(marker))
      .map(([name]) => name);
    assert.deepEqual(present, [], `the run's start chunks (${[...chunks.keys()].join(', ')}) carry ${present.join(', ')}`);
  });

  it("reads undici's HTTP parser from dist/llhttp*.wasm, not from base64 text inside dist/undici.js", function () {
    // 144 KB of the 319 KB that every run read and decoded before its first request (issue 39).
    const undici = readFileSync(path.join(DIST, 'undici.js'), 'utf8');
    // `AGFzbQ` is the base64 of a WebAssembly module's first bytes (\0asm).
    assert.ok(!undici.includes('AGFzbQ'), 'dist/undici.js carries a WebAssembly module as base64');
    for (const file of ['llhttp_simd.wasm', 'llhttp.wasm']) {
      const bytes = readFileSync(path.join(DIST, file));
      assert.ok(WebAssembly.validate(bytes), `dist/${file} is a WebAssembly module`);
      assert.ok(undici.includes(file), `dist/undici.js reads dist/${file}`);
    }
  });

  it("loads none of Node's modules that only some runs need (HTTP/2, TLS, child processes, worker threads, crypto) for a run of http: cells", async function () {
    this.timeout(60_000);
    const dir = tempDir();
    const target = await countingServer();
    try {
      // Each costs a run 4–20 ms at start (issue 39): HTTP/2 came with undici's client, TLS with the
      // certificate settings, child processes with token commands, worker threads with scripts,
      // crypto (and fs/promises) with recordings and files a cell sends.
      const hook = write(
        dir,
        'loaded.js',
        `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(path.join(dir, 'loaded.txt'))}, process.moduleLoadList.join('\\n')));\n`,
      );
      const nb = write(dir, 'plain.awb.md', `\`\`\`http name=items\nGET ${target.url}/items\n\n?? status == 200\n\`\`\`\n`);
      const r = await runCli(['run', nb, '--allow-host', new URL(target.url).host], { cwd: dir, env: { NODE_OPTIONS: `--require ${hook}` } });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.equal(target.hits(), 1);
      const loaded = new Set(readFileSync(path.join(dir, 'loaded.txt'), 'utf8').split('\n'));
      const unwanted = ['http2', 'tls', 'child_process', 'worker_threads', 'crypto', 'fs/promises'].filter((m) => loaded.has(`NativeModule ${m}`));
      assert.deepEqual(unwanted, [], `a run of one http: cell loaded node:${unwanted.join(', node:')}`);
    } finally {
      target.server.close();
    }
  });

  it('keeps its compiled code in the user cache folder after the first run, and runs on with a cache that is damaged or turned off', async function () {
    this.timeout(60_000);
    if (typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function') this.skip(); // Node 22.1+ caches itself
    if (process.platform !== 'linux') this.skip(); // the folder is found through XDG_CACHE_HOME on Linux only
    const dir = tempDir();
    const target = await countingServer();
    try {
      const nb = write(dir, 'plain.awb.md', `\`\`\`http name=items\nGET ${target.url}/items\n\n?? status == 200\n\`\`\`\n`);
      const run = (env: Record<string, string>) =>
        runCli(['run', nb, '--allow-host', new URL(target.url).host], { cwd: dir, env: { XDG_CACHE_HOME: path.join(dir, 'cache'), ...env } });
      const cached = () => {
        try {
          const folder = path.join(dir, 'cache', 'api-workbench', `v8-${process.version}-${process.arch}`);
          return readdirSync(folder).map((f) => path.join(folder, f));
        } catch {
          return [];
        }
      };
      let r = await run({ API_WORKBENCH_NO_COMPILE_CACHE: '1' });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.deepEqual(cached(), [], 'turned off, yet a cache was written');
      r = await run({});
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const files = cached();
      // Named by the file, a hash of its content (another build never reads this one's code) and
      // one of the folder it is installed in (a stack trace names this copy's files, not another's).
      const names = files.map((f) => path.basename(f).replace(/-[0-9a-f]{16}-[0-9a-f]{8}\.cache$/, ''));
      for (const expected of ['cli-main.js', 'undici.js', 'zod.js']) assert.ok(names.includes(expected), `no cache of ${expected} among ${names.join(', ')}`);
      assert.ok(
        names.some((n) => n.startsWith('cli-run-')),
        `no cache of the run command's chunk among ${names.join(', ')}`,
      );
      // A damaged cache (another tool, a full disk) is refused by V8 and written again. This copy's
      // cache of a file it no longer has (an upgrade) goes then; another copy's stays.
      const place = /-([0-9a-f]{8})\.cache$/.exec(files[0])![1];
      const stale = path.join(path.dirname(files[0]), `cli-chunk-OLD.js-0123456789abcdef-${place}.cache`);
      const otherCopy = path.join(path.dirname(files[0]), `undici.js-0123456789abcdef-${place === '00000000' ? '11111111' : '00000000'}.cache`);
      writeFileSync(stale, 'old');
      writeFileSync(otherCopy, 'other');
      for (const f of files) writeFileSync(f, 'not a cache');
      r = await run({});
      assert.equal(r.code, 0, r.stdout + r.stderr);
      for (const f of files) assert.notEqual(readFileSync(f, 'utf8'), 'not a cache', `${path.basename(f)} was not written again`);
      assert.ok(!existsSync(stale), 'the cache of a file this copy no longer has was kept');
      assert.equal(readFileSync(otherCopy, 'utf8'), 'other', "another copy's cache was removed");
      assert.equal(target.hits(), 3);
    } finally {
      target.server.close();
    }
  });
});
