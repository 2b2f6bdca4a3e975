// The "done when" from the command line: the collection and the .http file written for the
// script tests run green from `api-workbench import` with no edit, and each pm.test / client.test is
// a JUnit testcase named `<cell> › <test name>`.
import * as assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { assertBuilt, read, runCli, tempDir } from './cliKit';

const FIXTURES = path.resolve('test/unit/notebook/scripts/fixtures');

async function importAndRun(dir: string, fixture: string): Promise<string> {
  copyFileSync(path.join(FIXTURES, fixture), path.join(dir, fixture));
  const imported = await runCli(['import', fixture, '-o', `${fixture}.awb.md`], { cwd: dir });
  assert.equal(imported.code, 0, imported.stdout + imported.stderr);
  const junit = path.join(dir, `${fixture}.xml`);
  const r = await runCli(['run', `${fixture}.awb.md`, '--sandbox', '--reporter', 'junit', '--out', junit], { cwd: dir });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  return read(junit);
}

const testcases = (xml: string) => [...xml.matchAll(/<testcase name="([^"]*)"/g)].map((m) => m[1].replace(/&quot;/g, '"').replace(/&amp;/g, '&'));

describe('CLI: imported collections and .http files with scripts run green, their tests JUnit testcases by name', function () {
  this.timeout(90_000);
  let dir: string;
  before(() => {
    assertBuilt();
    dir = tempDir();
  });

  it('Postman: the token chain, the HMAC pre-request script and every pm.expect chain pass; each pm.test is <cell> › <test>', async () => {
    const xml = await importAndRun(dir, 'chained.postman_collection.json');
    assert.doesNotMatch(xml, /<failure/);
    const names = testcases(xml);
    for (const test of ['status 200', 'eql', 'equal', 'include', 'have.property', 'be.a / an', 'above / below', 'oneOf', 'match', 'to.be.ok', 'not'])
      assert.ok(
        names.some((n) => n.endsWith(` › ${test}`)),
        `${test} in ${names.join(', ')}`,
      );
  });

  it('.http: IntelliJ handlers chained by client.global.set pass; each client.test is <cell> › <test>', async () => {
    const xml = await importAndRun(dir, 'handlers.http');
    assert.doesNotMatch(xml, /<failure/);
    const names = testcases(xml);
    assert.ok(
      names.some((n) => n.endsWith(' › listed')),
      names.join(', '),
    );
    assert.ok(
      names.some((n) => n.endsWith(' › answered by the kept model')),
      names.join(', '),
    );
  });
});
