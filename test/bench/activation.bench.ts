// What activating the extension costs: the size of what it loads and the time to require + activate
// it, beside the time to require a plain bundle of undici + ws + zod (what an extension that imports
// its network stack eagerly would pay), measured in the same run. Goals: ≤ 100 KB loaded,
// require + activate ≤ 12 ms (median of fresh processes), ≤ 1/10 the reference's time. They were
// 150 KB, 25 ms and 1/5 until issue 39: activation had been at 94 KB and 11 ms, then features landing
// in dist/extension.js took it to 150 KB and 41 ms unnoticed; the goals now sit just above what
// activation does when only what it runs is in it. The ratio is what holds on a loaded machine, where
// both times stretch alike: the reference (1.1 MB) costs ~10× our bundle to load.
// Until this stand-in had the API's names as properties, it hid what cost most in a real window:
// esbuild copied the API object once per importing file (esbuild.mjs, sharedVscodePlugin).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import * as z from 'zod/mini';
import { once } from '../../src/core/once';
import { parseJson, validate } from '../../src/core/validate';
import { repoRoot } from '../editor/harness/paths';
import { median, type BenchReporter } from './report';

const RUNS = 15;
const SIZE_GOAL_KB = 100;
const TIME_GOAL_MS = 12;
const TIME_GOAL_RATIO = 1 / 10;

/**
 * Runs in a fresh `node -e` process: `vscode` is a Proxy that answers every property with another
 * no-op Proxy (callable, constructible), so activate() runs without an editor. Awaiting what a call
 * returned gives undefined; `get(key, default)` gives the default, as settings and mementos do, and a
 * setting read without one gives the manifest's default.
 */
const CHILD = String.raw`
'use strict';
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');
const [mode, file] = process.argv.slice(1);
const messages = [];
// Settings read as an unconfigured VS Code answers them: the defaults the manifest declares.
const defaults = {};
if (mode === 'activate') {
  const manifest = JSON.parse(fs.readFileSync(path.join(path.dirname(path.dirname(file)), 'package.json'), 'utf8'));
  const props = (manifest.contributes && manifest.contributes.configuration && manifest.contributes.configuration.properties) || {};
  for (const [k, v] of Object.entries(props)) defaults[k] = v.default;
}
function stub(name, thenable, parent, section) {
  const props = new Map();
  const lookup = (p) => {
    // Results of calls settle to undefined when awaited (nothing stored, dialog dismissed); other
    // values are not thenables, so awaiting them does not swallow them.
    if (p === 'then') return thenable ? (ok, fail) => Promise.resolve(undefined).then(ok, fail) : undefined;
    if (p === Symbol.toPrimitive) return (hint) => (hint === 'number' ? 0 : '');
    if (p === Symbol.iterator) return function* () {};
    if (p === 'toString' || p === 'toJSON' || p === 'valueOf') return () => '';
    if (!props.has(p)) props.set(p, stub(String(p), false, name, section));
    return props.get(p);
  };
  // esbuild's import * wrapper copies own properties and inherits from the module's prototype: a
  // prototype answering every name keeps vscode.<anything> working through that wrapper.
  const proto = new Proxy({}, { get: (_t, p) => lookup(p) });
  return new Proxy(function () {}, {
    get: (_t, p) => lookup(p),
    getPrototypeOf: () => proto,
    set(_t, p, v) { props.set(p, v); return true; },
    apply(_t, _self, args) {
      if (/^show(Error|Warning)Message$/.test(name)) messages.push(name + ': ' + String(args[0]));
      if (name === 'getConfiguration') return stub('configuration', false, name, args[0] ? String(args[0]) + '.' : '');
      if (name === 'get' && parent === 'configuration') return args.length > 1 ? args[1] : defaults[section + String(args[0])];
      if (name === 'inspect' && parent === 'configuration') return { key: section + String(args[0]), defaultValue: defaults[section + String(args[0])] };
      if (name === 'get') return args[1];
      return stub(name + '()', true);
    },
    construct() { return stub('new ' + name, false); },
  });
}
// What VS Code hands an extension is one object with a property per class, enum and namespace of
// the API (their names come from @types/vscode): a bundle that copies it pays for each property.
const api = stub('vscode', false);
const fake = Object.create(api);
for (const n of JSON.parse(process.env.AWB_VSCODE_NAMES || '[]')) Object.defineProperty(fake, n, { value: api[n], enumerable: true });
const load = Module._load;
Module._load = function (request) { return request === 'vscode' ? fake : load.apply(this, arguments); };
const own = { subscriptions: [], extensionPath: path.dirname(path.dirname(file)) };
const context = new Proxy(own, { get(t, p) { if (p === 'then') return undefined; if (!(p in t)) t[p] = stub(String(p), false); return t[p]; } });
const asyncErrors = [];
process.on('unhandledRejection', (e) => asyncErrors.push(String((e && e.stack) || e)));
// The extension host has loaded Node's built-in modules long before any extension activates, so
// the ones a bundle requires are loaded here first, outside the timing.
const builtins = new Set();
for (const m of fs.readFileSync(file, 'utf8').matchAll(/require\(["']([^"']+)["']\)/g)) if (Module.isBuiltin(m[1])) builtins.add(m[1]);
for (const b of builtins) require(b);
(async () => {
  // The extension host loaded those built-ins, and its own code, long before: their objects sit in
  // the old generation there. Here they are still young, and the first scavenge inside the timing
  // would copy them all (3–4 ms each on a slow core) and bill the bundle for it. A full collection
  // first starts both bundles from the same settled heap.
  global.gc();
  const before = new Set(Object.keys(require.cache));
  let error;
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  let mod;
  try { mod = require(file); } catch (e) { error = 'require: ' + String((e && e.stack) || e); }
  const t1 = process.hrtime.bigint();
  if (mode === 'activate' && mod) {
    try { await mod.activate(context); } catch (e) { error = 'activate: ' + String((e && e.stack) || e); }
  }
  const t2 = process.hrtime.bigint();
  const cpu = process.cpuUsage(cpu0);
  await new Promise((r) => setImmediate(r));
  const loaded = Object.keys(require.cache).filter((f) => !before.has(f)).map((f) => ({ file: f, bytes: fs.statSync(f).size }));
  const ms = (a, b) => Number(b - a) / 1e6;
  process.stdout.write(JSON.stringify({ requireMs: ms(t0, t1), activateMs: ms(t1, t2), totalMs: ms(t0, t2), cpuMs: (cpu.user + cpu.system) / 1000, loaded, error, asyncErrors, messages }) + '\n');
  process.exit(0);
})();
`;

const sampleSchema = z.object({
  requireMs: z.number(),
  activateMs: z.number(),
  totalMs: z.number(),
  /** CPU time of require + activate (all threads): what a busy machine's scheduling does not inflate. */
  cpuMs: z.number(),
  loaded: z.array(z.object({ file: z.string(), bytes: z.number() })),
  error: z.optional(z.string()),
  asyncErrors: z.array(z.string()),
  /** showErrorMessage / showWarningMessage calls: activate() reports its own failures that way. */
  messages: z.array(z.string()),
});
type Sample = z.infer<typeof sampleSchema>;

/** The top-level names of the VS Code API (classes, enums, namespaces, functions), as @types/vscode declares them. */
const vscodeApiNames = once(() => {
  const types = readFileSync(path.join(repoRoot(__dirname), 'node_modules', '@types', 'vscode', 'index.d.ts'), 'utf8');
  return [...types.matchAll(/^\texport (?:class|enum|namespace|const|let|function) (\w+)/gm)].map((m) => m[1]);
});

function sample(mode: 'activate' | 'require', file: string): Sample {
  const env = { ...process.env };
  delete env.API_WORKBENCH_SANDBOX; // activation would adopt a running sandbox
  env.AWB_VSCODE_NAMES = JSON.stringify(vscodeApiNames());
  const r = spawnSync(process.execPath, ['--expose-gc', '-e', CHILD, mode, file], { encoding: 'utf8', timeout: 30_000, env });
  const line = r.stdout.trim().split('\n').pop() ?? '';
  const json = parseJson(line);
  const s = json.ok ? validate(sampleSchema, json.value) : undefined;
  if (!s?.ok) throw new Error(`measuring ${path.basename(file)} failed (exit ${r.status ?? r.signal}):\n${r.stderr || r.stdout}`);
  return s.value;
}

async function buildReference(dir: string, root: string): Promise<string> {
  const outfile = path.join(dir, 'reference.js');
  await esbuild.build({
    stdin: { contents: "module.exports = { undici: require('undici'), ws: require('ws'), zod: require('zod') };", resolveDir: root, loader: 'js' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    legalComments: 'none',
    outfile,
    logLevel: 'silent',
  });
  return outfile;
}

const kb = (bytes: number) => bytes / 1024;

export default async function activationBench(r: BenchReporter): Promise<void> {
  const root = repoRoot(__dirname);
  const ext = path.join(root, 'dist', 'extension.js');
  if (!existsSync(ext)) throw new Error('dist/extension.js is missing: build it with node esbuild.mjs --production (npm run bench does)');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'awb-bench-activation-'));
  try {
    const reference = await buildReference(dir, root);

    r.section('size: what activation loads');
    if (readFileSync(ext, 'utf8').includes('//# sourceMappingURL=')) {
      r.note('dist/extension.js is a development build (it links a source map): run npm run bench, which builds --production');
    }
    r.metric('dist/extension.js (minified)', kb(statSync(ext).size), 'KB');
    // One activation up front: it shows what gets loaded and whether activate() works with the stub.
    const probe = sample('activate', ext);
    if (probe.error) throw new Error(`dist/extension.js failed with the stub vscode, so its timing would mean nothing:\n${probe.error}`);
    const failed = probe.messages.find((m) => m.startsWith('showErrorMessage'));
    if (failed) throw new Error(`activate() reported a failure with the stub vscode, so its timing would mean nothing: ${failed}`);
    for (const m of probe.messages) r.note(`activate() said: ${m}`);
    for (const e of probe.asyncErrors) r.note(`unhandled rejection during activation: ${e.split('\n')[0]}`);
    for (const f of probe.loaded) r.note(`loaded: ${path.relative(root, f.file)} (${kb(f.bytes).toFixed(1)} KB)`);
    const loadedBytes = probe.loaded.reduce((n, f) => n + f.bytes, 0);
    r.metric('everything loaded by require + activate', kb(loadedBytes), 'KB', { atMost: SIZE_GOAL_KB });
    r.metric('reference bundle: undici + ws + zod (minified)', kb(statSync(reference).size), 'KB');

    // Alternating the two, after one warm-up each, spreads any drift in machine load over both.
    sample('require', reference);
    const ours: Sample[] = [];
    const refs: Sample[] = [];
    for (let i = 0; i < RUNS; i++) {
      ours.push(sample('activate', ext));
      refs.push(sample('require', reference));
    }
    r.section(`time: median of ${RUNS} fresh node processes each`);
    r.note("activate() gets a stand-in 'vscode' whose calls return at once; in VS Code each");
    r.note('registration is also a message to the window, which the extension host sends asynchronously.');
    r.note('Node built-ins a bundle requires (e.g. node:child_process) are loaded before the clock starts,');
    r.note('as the extension host has them loaded already, and a full collection settles the heap.');
    r.note(`The stand-in has the API's ${vscodeApiNames().length} top-level names as properties, as the object VS Code hands over has.`);
    r.metric('require dist/extension.js', median(ours.map((s) => s.requireMs)), 'ms');
    r.metric('activate()', median(ours.map((s) => s.activateMs)), 'ms');
    const oursMs = median(ours.map((s) => s.totalMs));
    const refMs = median(refs.map((s) => s.totalMs));
    r.metric('require + activate dist/extension.js (production bundle)', oursMs, 'ms', { atMost: TIME_GOAL_MS });
    r.metric('require undici + ws + zod bundle (reference)', refMs, 'ms');
    r.ratio('ours ÷ reference', oursMs, refMs, TIME_GOAL_RATIO, false);
    r.note('The same in CPU time (all threads), which waiting for a core on a busy machine does not inflate:');
    r.metric('require + activate dist/extension.js, CPU', median(ours.map((s) => s.cpuMs)), 'ms');
    r.metric('require undici + ws + zod bundle (reference), CPU', median(refs.map((s) => s.cpuMs)), 'ms');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
