// The command-line runner's reports and runs, through dist/cli.js as CI runs it: JUnit, --data rows,
// --var and --env, a 100 MB answer, --parallel and --bail.
import * as assert from 'node:assert/strict';
import path from 'node:path';
import { assertBuilt, countingServer, lastLine, MODELS, read, runCli, SEARCH, tempDir, write } from './cliKit';

describe('CLI (dist/cli.js run): reports, data and runs', function () {
  this.timeout(60_000);
  let dir: string;

  before(() => {
    assertBuilt();
    dir = tempDir();
  });

  it('--reporter junit: well-formed XML, a testsuite per notebook, a testcase per check named <cell> › <check>, escaped text', async () => {
    const nb = write(dir, 'junit.awb.md', MODELS('models') + SEARCH('place', 'Lisbon', '?? json.places[0].displayName.text == <a & "b\'s">'));
    const out = path.join(dir, 'report.xml');
    const r = await runCli(['run', nb, '--sandbox', '--reporter', 'junit', '--out', out], { cwd: dir });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const xml = read(out);
    assertWellFormedXml(xml);
    assert.match(xml, /<testsuite name="[^"]*junit\.awb\.md" tests="3" failures="1"/);
    assert.deepEqual(
      [...xml.matchAll(/<testcase name="([^"]*)"/g)].map((m) => m[1]),
      ['models › status == 200', 'place › status == 200', 'place › json.places[0].displayName.text == &lt;a &amp; &quot;b&apos;s&quot;&gt;'],
    );
    assert.match(xml, /expected: == &lt;a &amp; &quot;b&apos;s&quot;&gt;/);
    assert.equal(lastLine(r.stdout), '1 passed, 1 failed');
  });

  it('--reporter junit: test names are the same from run to run (no sandbox app id in an unnamed realtime cell)', async () => {
    const nb = write(dir, 'stable.awb.md', '```realtime\nPUBLISH stable-names hello\n{"n": 1}\n\n?? status == 200\n```\n');
    const names = async (run: number) => {
      const out = path.join(dir, `stable-${run}.xml`);
      const r = await runCli(['run', nb, '--sandbox', '--reporter', 'junit', '--out', out], { cwd: dir });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      return [...read(out).matchAll(/<testcase name="([^"]*)"/g)].map((m) => m[1]);
    };
    const first = await names(1);
    assert.deepEqual(first, ['POST /apps/{appId}/events (line 1) › status == 200']);
    assert.deepEqual(await names(2), first);
  });

  it('--data rows (CSV with quoted fields, and JSON): one run per row, each reported on its own', async () => {
    const nb = write(dir, 'rows.awb.md', SEARCH('place', '{{city}}', '?? json.places[0].displayName.text contains {{city}}', '?? text contains {{city}}'));
    const csv = write(dir, 'rows.csv', 'city,note\r\nLisbon,"plain"\r\n"Porto","with, a comma and ""quotes"""\r\n');
    const r = await runCli(['run', nb, '--sandbox', '--data', csv], { cwd: dir });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /rows\.awb\.md \[row 1\]/);
    assert.match(r.stdout, /rows\.awb\.md \[row 2\]/);
    assert.equal(lastLine(r.stdout), '2 passed, 0 failed');

    const json = write(dir, 'rows.json', JSON.stringify([{ city: 'Madrid' }, { city: 'Nowhereville' }]));
    const j = await runCli(['run', nb, '--sandbox', '--data', json, '--reporter', 'json'], { cwd: dir });
    assert.equal(j.code, 1);
    const report = JSON.parse(j.stdout) as { passed: number; failed: number; suites: Array<{ row: number; ok: boolean }> };
    assert.deepEqual(
      report.suites.map((s) => [s.row, s.ok]),
      [
        [1, true],
        [2, false],
      ],
    );
  });

  it('--var wins over vars cells; --env applies the vars cells of that environment', async () => {
    const nb = write(
      dir,
      'env.awb.md',
      '```vars\ncity = Lisbon\n```\n\n```vars env=staging\ncity = Porto\n```\n\n' +
        SEARCH('place', '{{city}}', '?? json.places[0].displayName.text == {{expected}}'),
    );
    const plain = await runCli(['run', nb, '--sandbox', '--var', 'expected=Lisbon'], { cwd: dir });
    assert.equal(plain.code, 0, plain.stdout + plain.stderr);
    const staging = await runCli(['run', nb, '--sandbox', '--env', 'staging', '--var', 'expected=Porto'], { cwd: dir });
    assert.equal(staging.code, 0, staging.stdout + staging.stderr);
    const overridden = await runCli(['run', nb, '--sandbox', '--env', 'staging', '--var', 'city=Madrid', '--var', 'expected=Madrid'], { cwd: dir });
    assert.equal(overridden.code, 0, overridden.stdout + overridden.stderr);
    const wrong = await runCli(['run', nb, '--sandbox', '--var', 'expected=Porto'], { cwd: dir });
    assert.equal(wrong.code, 1);
  });

  it('a 100 MB answer is counted, not kept: the report stays small and memory bounded', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    const big = await countingServer((res) => {
      res.setHeader('content-type', 'text/plain');
      let sent = 0;
      const pump = () => {
        while (sent < 100) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    try {
      const conns = write(dir, 'conns-big.json', JSON.stringify({ llm: [{ name: 'Big', baseUrl: big.url }] }));
      const nb = write(dir, 'big.awb.md', '```llm name=big\nGET /huge\n\n?? status == 200\n?? text contains xxx\n```\n');
      const out = path.join(dir, 'big.json');
      const r = await runCli(['run', nb, '--connections', conns, '--reporter', 'json', '--out', out], { cwd: dir });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const report = read(out);
      assert.ok(report.length < 64 * 1024, `report is ${report.length} bytes`);
      const cell = (JSON.parse(report) as { suites: Array<{ cells: Array<{ response: { size: number; truncated: boolean } }> }> }).suites[0].cells[0];
      assert.equal(cell.response.size, 100 * 1024 * 1024);
      assert.equal(cell.response.truncated, true);
      if (r.peakKiB) assert.ok(r.peakKiB < 200 * 1024, `peak memory ${Math.round(r.peakKiB / 1024)} MiB`);
    } finally {
      big.server.close();
    }
  });

  it('--parallel runs notebooks side by side; --bail stops at the first failed cell', async () => {
    const sub = path.join(dir, 'many');
    (await import('node:fs')).mkdirSync(sub);
    write(sub, 'a.awb.md', MODELS('a1') + MODELS('a2'));
    write(sub, 'b.awb.md', SEARCH('b1', 'Lisbon'));
    write(sub, 'c.awb.md', MODELS('c1'));
    const par = await runCli(['run', sub, '--sandbox', '--parallel', '3'], { cwd: dir });
    assert.equal(par.code, 0, par.stdout + par.stderr);
    assert.equal(lastLine(par.stdout), '4 passed, 0 failed');

    const nb = write(dir, 'bail.awb.md', MODELS('first', '?? status == 404') + MODELS('second', '?? status == 404') + MODELS('third'));
    const bail = await runCli(['run', nb, '--sandbox', '--bail'], { cwd: dir });
    assert.equal(bail.code, 1);
    assert.match(bail.stdout, /✗ first/);
    assert.doesNotMatch(bail.stdout, /second|third/);
    assert.equal(lastLine(bail.stdout), '0 passed, 1 failed');
  });
});

/** Enough of XML 1.0 to catch what a hand-written report gets wrong: nesting, entities, raw < or &. */
function assertWellFormedXml(xml: string): void {
  const body = xml.replace(/^<\?xml [^?]*\?>\s*/, '');
  const stack: string[] = [];
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let pos = 0;
  let roots = 0;
  while (pos < body.length) {
    token.lastIndex = pos;
    const m = token.exec(body);
    assert.ok(m, `malformed XML at ${pos}: ${body.slice(pos, pos + 60)}`);
    const [, close, name, attrs, selfClose, text] = m;
    const checkEntities = (s: string) => assert.doesNotMatch(s, /&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)/i, `bad entity in ${s}`);
    if (text !== undefined) {
      checkEntities(text);
      if (stack.length === 0) assert.match(text, /^\s*$/, 'text outside the root');
    } else if (close) assert.equal(stack.pop(), name, `</${name}> closes the wrong element`);
    else {
      checkEntities(attrs);
      if (stack.length === 0) roots++;
      if (!selfClose) stack.push(name);
    }
    pos = token.lastIndex;
  }
  assert.deepEqual(stack, [], 'unclosed elements');
  assert.equal(roots, 1, 'one root element');
}
