import * as assert from 'node:assert/strict';
import { Redactor } from '../../../src/core/redact';
import { DEEPER_THAN_SHOWN, redactTree } from '../../../src/core/redactTree';
import { ImportError, importPostman } from '../../../src/notebook/api';
import { assertBuilt, runCli, tempDir, write } from './cliKit';

const KEY_IN_NAME = 'sk_live_51HqT0a9ZkQ8cV2xLmN4pR7sW';

describe('CLI: hostile input ends in a sentence, never a stack overflow or a 10 MB line', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    assertBuilt();
    dir = tempDir();
  });

  it('check: a JSON body 10,000 levels deep is an error naming the line, not an internal error', async () => {
    const nb = write(dir, 'deep.awb.md', `\`\`\`llm name=a\nPOST /chat/completions\n\n${'['.repeat(10_000)}${']'.repeat(10_000)}\n\`\`\`\n`);
    const r = await runCli(['check', nb], { cwd: dir });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout + r.stderr, /deep\.awb\.md:\d+: error: .*nested deeper than 500 levels/);
    assert.doesNotMatch(r.stdout + r.stderr, /internal error|call stack/);
  });

  it('import: Postman folders 2,000 deep are refused with a sentence naming the file', () => {
    let folder: Record<string, unknown> = { name: 'leaf', request: 'https://api.example.com/x' };
    for (let i = 0; i < 2000; i++) folder = { name: `f${i}`, item: [folder] };
    const collection = { info: { name: 'Deep', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item: [folder] };
    assert.throws(
      () => importPostman(JSON.stringify(collection), { source: 'deep.json' }),
      (e: unknown) => e instanceof ImportError && /^deep\.json: field item\[0\](\.item\[0\])+: folders are nested deeper than 100 levels$/.test(e.message),
    );
  });

  it('an answer 10,000 levels deep is redacted without a stack overflow; what is too deep is not shown', () => {
    const deep = JSON.parse(`${'['.repeat(10_000)}"x"${']'.repeat(10_000)}`) as unknown;
    let v = redactTree(deep, new Redactor());
    let levels = 0;
    while (Array.isArray(v)) {
      v = v[0];
      levels++;
    }
    assert.equal(v, DEEPER_THAN_SHOWN);
    assert.ok(levels > 100, `${levels}`);
  });

  it('check and run: a 10 MB fence info line is quoted by its start, not printed whole', async () => {
    const nb = write(dir, 'wide.awb.md', `\`\`\`llm name=a ${'x'.repeat(10_000_000)}\nGET /models\n\`\`\`\n`);
    for (const args of [
      ['check', nb],
      ['run', nb, '--sandbox'],
    ]) {
      const r = await runCli(args, { cwd: dir });
      const out = r.stdout + r.stderr;
      assert.match(out, /wide\.awb\.md:1: .*cannot read "x{200}…" on the fence line/, args[0]);
      assert.ok(out.length < 2000, `${args[0]} printed ${out.length} characters`);
    }
  });

  it('a key typed where keyEnv names its variable is refused without being repeated', async () => {
    const conns = write(dir, 'conns-key.json', JSON.stringify({ llm: [{ name: 'Work', baseUrl: 'https://api.openai.com/v1', keyEnv: KEY_IN_NAME }] }));
    const nb = write(dir, 'm.awb.md', '```llm name=m\nGET /models\n```\n');
    for (const command of ['run', 'check']) {
      const r = await runCli([command, nb, '--connections', conns], { cwd: dir, env: { [KEY_IN_NAME]: undefined } });
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, /conns-key\.json: llm\[0\] \("Work"\)\.keyEnv: must name an environment variable \(letters, digits, _\), not hold the key itself/);
      assert.ok(!(r.stdout + r.stderr).includes(KEY_IN_NAME.slice(8)), r.stderr);
    }
  });

  it('a connections file that is not JSON: the error does not quote the text around the fault', async () => {
    const conns = write(dir, 'conns-bad.json', `{"llm": [{"name": "W", "apiKey": ${KEY_IN_NAME}}]}`);
    const nb = write(dir, 'm2.awb.md', '```llm name=m\nGET /models\n```\n');
    const r = await runCli(['run', nb, '--connections', conns], { cwd: dir });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /conns-bad\.json: not valid JSON/);
    assert.ok(!r.stderr.includes(KEY_IN_NAME.slice(0, 8)), r.stderr);
  });
});
