// The text of a new API notebook (features/notebook/template.ts): it opens without problems, saves
// back unchanged, holds no key, and run as is against the Local Sandbox every one of its checks
// passes, in the default environment and in "staging".
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  connectionsHost,
  createRunner,
  parseNotebook,
  runNotebook,
  sandboxConnections,
  serializeNotebook,
  type CellResult,
  type NotebookHost,
} from '../../../src/notebook/api';
import { NEW_NOTEBOOK_TEMPLATE } from '../../../src/features/notebook/template';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';

const FILE = 'Untitled.awb.md';
const EXAMPLES = path.resolve(__dirname, '../../../../examples');

/** Checks that hold whatever arrives: a count or size at least 0, a number above a negative. */
function alwaysTrueChecks(text: string): string[] {
  return text.split('\n').filter((line) => /^\?\?\s.*(>=\s*0|>\s*-\d+(\.\d+)?)\s*$/.test(line));
}

/** The name of the first place a maps cell found. */
function firstPlace(r: CellResult | undefined): string | undefined {
  return (r?.response?.json as { places?: { displayName?: { text?: string } }[] } | undefined)?.places?.[0]?.displayName?.text;
}

describe('features/notebook/template: a new API notebook', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let host: NotebookHost;
  before(async () => {
    sandbox = await startSandbox({ port: 0, llm: { tokenRate: 0 } });
    host = connectionsHost(sandboxConnections(sandbox.info));
  });
  after(() => sandbox.close());

  it('opens without problems, one request per service with checks, and saves back unchanged', () => {
    const parsed = parseNotebook(NEW_NOTEBOOK_TEMPLATE, FILE);
    assert.deepEqual(parsed.problems, []);
    const code = parsed.cells.filter((c) => c.kind === 'code');
    assert.deepEqual(
      code.map((c) => [c.language, c.metadata.attributes?.name ?? c.metadata.attributes?.env ?? '']),
      [
        ['vars', ''],
        ['vars', 'staging'],
        ['llm', 'chat'],
        ['maps', 'place'],
        ['realtime', 'listen'],
        ['realtime', 'hello'],
      ],
    );
    for (const c of code.filter((x) => x.language !== 'vars')) assert.match(c.value, /^\?\? /m, `${c.metadata.attributes?.name} has checks`);
    assert.equal(serializeNotebook(parsed), NEW_NOTEBOOK_TEMPLATE);
  });

  it('has no check that cannot fail, nor has any example notebook (a LISTEN that heard nothing is not green)', () => {
    const examples = readdirSync(EXAMPLES).filter((f) => f.endsWith('.awb.md'));
    assert.ok(examples.length > 0);
    const texts = [[FILE, NEW_NOTEBOOK_TEMPLATE], ...examples.map((f) => [f, readFileSync(path.join(EXAMPLES, f), 'utf8')])];
    for (const [file, text] of texts) assert.deepEqual(alwaysTrueChecks(text), [], `${file} has a check that cannot fail`);
  });

  it('holds no key: every request gets it from the active connection', () => {
    assert.doesNotMatch(NEW_NOTEBOOK_TEMPLATE, /^(authorization|x-goog-api-key|api-key|x-api-key):/im);
    assert.doesNotMatch(NEW_NOTEBOOK_TEMPLATE, /[?&]key=|\bsk-[a-z0-9]|AIza/i);
  });

  it('run as is against the Local Sandbox, every check passes: the chat, the place in {{city}}, the publish and the listen', async () => {
    const report = await runNotebook(NEW_NOTEBOOK_TEMPLATE, { host, file: FILE });
    const failed = report.results
      .filter((r) => !r.ok)
      .map((r) => `${r.name ?? r.service}: ${r.error ?? JSON.stringify(r.assertions.filter((a) => !a.passed))}`);
    assert.deepEqual(failed, []);
    assert.equal(report.ok, true);
    const byName = new Map(report.results.map((r) => [r.name, r]));
    for (const name of ['chat', 'place', 'hello', 'listen']) {
      const r = byName.get(name);
      assert.ok(r && r.assertions.length > 0 && r.assertions.every((a) => a.passed), `${name}: its checks ran and passed`);
    }
    assert.match(byName.get('chat')?.request?.body ?? '', /Three sights in Lisbon\?/);
    assert.equal(firstPlace(byName.get('place')), 'Lisbon');
    assert.equal(byName.get('hello')?.response?.status, 200);
    assert.equal(byName.get('listen')?.count, 1, 'the listener heard the publish below it');
    assert.ok(!JSON.stringify(report).includes(sandbox.info.llm.apiKey) && !JSON.stringify(report).includes(sandbox.info.maps.apiKey));
  });

  it('in the "staging" environment the same cells ask about Porto', async () => {
    const parsed = parseNotebook(NEW_NOTEBOOK_TEMPLATE, FILE);
    const runner = createRunner(parsed.cells, { host, file: FILE, environment: 'staging' });
    try {
      const index = (name: string) => parsed.cells.findIndex((c) => c.metadata.attributes?.name === name);
      const vars: CellResult[] = [];
      for (const [i, c] of parsed.cells.entries()) if (c.language === 'vars') vars.push(await runner.runCell(i));
      assert.deepEqual(
        vars.map((v) => v.variables),
        [{ city: 'Lisbon' }, { city: 'Porto' }],
      );
      const place = await runner.runCell(index('place'));
      assert.equal(place.ok, true, JSON.stringify(place.assertions));
      assert.match(place.request?.body ?? '', /"textQuery": "Porto"/);
      assert.equal(firstPlace(place), 'Porto');
    } finally {
      runner.dispose();
    }
  });
});
