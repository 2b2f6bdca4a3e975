// Copy as Code, proven by running: every cell of examples/ is written in each language whose
// toolchain this machine has, run against the sandbox, and its output checked for the field the
// notebook's own check looks at. A language without a toolchain is skipped, saying which.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { HttpConnection, RealtimeConnection } from '../../../src/core/connections';
import { cellCode, languagesForCell, type CodeLanguage } from '../../../src/features/codegen';
import { connectionsHost, notebookVariables, parseNotebook, partOf, runNotebook, sandboxConnections, type ExportOptions } from '../../../src/notebook/api';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { repoRoot } from '../helpers/sandboxProcess';
import { findToolchains, missingToolchain, runMany } from './toolchains';

const KEYS = { llm: 'sk-sandbox-codegen-test-key-0123456789', maps: 'AIzaSandboxCodegenTestKey0123456789', secret: 'codegen-app-secret-0123456789' };
const RT = { appId: '515151', key: 'codegenpublickey', secret: KEYS.secret };

/** What a cell's code must print (the field the cell's checks read), by cell name: plain HTTP, then SDK. */
const PRINTS: Record<string, { http: RegExp; sdk?: RegExp }> = {
  models: { http: /"object"\s*:\s*"list"|object: 'list'/, sdk: /\S/ },
  chat: { http: /data: .*"finish_reason"|finish_reason/, sdk: /\S/ },
  place: { http: /Lisbon/ },
  route: { http: /distanceMeters/ },
  announce: { http: /./, sdk: /^200$|\{\}/m },
  heard: { http: /./, sdk: /./ },
  ticker: { http: /./, sdk: /price/ },
  suggest: { http: /"choices"|choices/, sdk: /\S/ },
  tool: { http: /find_place/, sdk: /find_place/ },
  respond: { http: /find_place/, sdk: /find_place/ },
  structured: { http: /"choices"|choices/, sdk: /\S/ },
};

/** Languages whose run is slow to start (a compiler each time): only a few cells. */
const SLOW: ReadonlySet<CodeLanguage> = new Set(['java', 'go', 'csharp']);
const SLOW_CELLS = new Set(['models']);

describe('Copy as Code: every cell of examples/ runs against the sandbox', function () {
  this.timeout(240_000);
  let sandbox: Sandbox;
  let targets: ExportOptions;
  let realtime: RealtimeConnection;
  let env: Record<string, string>;

  before(async () => {
    [sandbox] = await Promise.all([
      startSandbox({ port: 0, llmKey: KEYS.llm, mapsKey: KEYS.maps, llm: { tokenRate: 0 }, realtime: { ...RT, demo: true } }),
      findToolchains(),
    ]);
    const { connections } = sandboxConnections(sandbox.info);
    const http = (s: 'llm' | 'maps') => connections.find((c): c is HttpConnection => c.service === s)!;
    targets = {
      llm: { baseUrl: http('llm').baseUrl, auth: http('llm').auth },
      maps: { baseUrl: http('maps').baseUrl, baseUrls: { ...http('maps').baseUrls }, auth: http('maps').auth },
    };
    realtime = connections.find((c): c is RealtimeConnection => c.service === 'realtime')!;
    env = { OPENAI_API_KEY: KEYS.llm, GOOGLE_MAPS_API_KEY: KEYS.maps, PUSHER_APP_SECRET: KEYS.secret };
  });
  after(async () => {
    await sandbox?.close();
  });

  for (const example of ['sandbox-tour.awb.md', 'prompt-evals.awb.md']) {
    it(`${example}: each cell, in each language this machine runs`, async () => {
      const file = path.join(repoRoot(), 'examples', example);
      const text = readFileSync(file, 'utf8');
      const { connections, key } = sandboxConnections(sandbox.info);
      // The notebook's own run gives the earlier answers later cells read.
      const t0 = Date.now();
      const report = await runNotebook(text, { host: connectionsHost({ connections, key }), file, baseDir: path.dirname(file) });
      if (process.env.AWB_TIMINGS) console.log(`      notebook run: ${Date.now() - t0} ms`);
      const results = new Map(report.results.filter((r) => r.name).map((r) => [r.name!, r]));
      const known = (expr: string) => {
        const dot = expr.search(/[.[]/);
        const result = dot > 0 ? results.get(expr.slice(0, dot)) : undefined;
        const value = result && partOf(result, expr.slice(dot));
        return value === undefined ? undefined : typeof value === 'string' ? value : JSON.stringify(value);
      };
      const { cells } = parseNotebook(text);
      const vars = notebookVariables(cells);
      const skipped = new Set<string>();
      const programs: Array<{ name: string; language: CodeLanguage; code: string; want: RegExp }> = [];
      for (const cell of cells) {
        const name = cell.metadata.attributes?.name;
        if (cell.kind !== 'code' || !name) continue;
        const expected = PRINTS[name];
        assert.ok(expected, `no expectation for cell ${name}`);
        const opts = { targets, vars, known, realtime };
        for (const language of languagesForCell(cell, opts)) {
          const missing = missingToolchain(language === 'python-sdk' && cell.language === 'realtime' ? 'python-pusher' : language);
          if (missing || (SLOW.has(language) && !SLOW_CELLS.has(name))) {
            if (missing) skipped.add(`${language}: ${missing}`);
            continue;
          }
          const code = await cellCode(cell, language, opts);
          for (const secret of Object.values(KEYS)) assert.ok(!code.includes(secret), `${name} as ${language} holds a key`);
          programs.push({ name, language, code, want: language.endsWith('-sdk') ? (expected.sdk ?? expected.http) : expected.http });
        }
      }
      // Many programs to an interpreter (toolchains.ts): starting one per program took most of the time.
      const t1 = Date.now();
      const ran = await runMany(programs, env);
      if (process.env.AWB_TIMINGS) console.log(`      ${programs.length} programs: ${Date.now() - t1} ms`);
      const failures = programs.flatMap(({ name, language, code, want }, i) =>
        ran[i].code !== 0 || !want.test(ran[i].stdout)
          ? [`${name} as ${language}: exit ${ran[i].code}, printed ${ran[i].stdout.slice(0, 300)}\n${ran[i].stderr.slice(0, 600)}\n--- code ---\n${code}`]
          : [],
      );
      for (const s of skipped) console.log(`      skipped ${s}`);
      assert.deepEqual(failures, []);
      assert.ok(programs.length >= 8, `only ${programs.length} programs ran`);
    });
  }
});
