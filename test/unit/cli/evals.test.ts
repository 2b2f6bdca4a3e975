// Evaluating prompts from the command line against the sandbox: --matrix over two models with the
// table at the end, JUnit with one testcase per check and value, --judge-model.
import * as assert from 'node:assert/strict';
import path from 'node:path';
import { assertBuilt, lastLine, lines, read, runCli, tempDir, write } from './cliKit';

/** Three checks on one llm cell whose model is {{model}}. */
const EVAL = `# Café

\`\`\`llm name=ask
POST /chat/completions

{"model": "{{model}}", "messages": [{"role": "user", "content": "Suggest one café in Lisbon"}]}

?? status == 200
?? cost < 0.0003
?? judge: names a café in Lisbon
\`\`\`
`;

describe('CLI: evaluating prompts (--matrix, JUnit per check, --judge-model)', function () {
  this.timeout(60_000);
  let dir: string;

  before(() => {
    assertBuilt();
    dir = tempDir();
  });

  it('--matrix model=a,b runs the notebook once per model and ends with the table of checks × models (pass/fail, latency, tokens, cost)', async () => {
    const nb = write(dir, 'matrix.awb.md', EVAL);
    const r = await runCli(['run', nb, '--sandbox', '--matrix', 'model=gpt-4o-mini,gpt-4o'], { cwd: dir });
    // gpt-4o costs more than 0.0003 USD for this answer: its cost check fails, gpt-4o-mini's passes.
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /matrix\.awb\.md \[model=gpt-4o-mini\]\n {2}✓ ask/);
    // A judge's reason is printed when it passes too.
    assert.match(r.stdout, /\n {4}\?\? judge: names a café in Lisbon: pass \(gpt-4o-mini\): The answer has 2 of the rubric’s 3 words \(café, lisbon\)/);
    assert.match(r.stdout, /matrix\.awb\.md \[model=gpt-4o\]\n {2}✗ ask/);
    const out = lines(r.stdout);
    const table = out.slice(
      out.findIndex((l) => l.startsWith('check ')),
      -1,
    );
    assert.deepEqual(
      table.map((l) => l.split(/ {2,}/)),
      [
        ['check', 'model=gpt-4o-mini', 'model=gpt-4o'],
        ['ask › status == 200', '✓', '✓'],
        ['ask › cost < 0.0003', '✓', '✗'],
        ['ask › judge: names a café in Lisbon', '✓', '✓'],
        ['passed', '3/3', '2/3'],
        ['latency (ms)', table[5].split(/ {2,}/)[1], table[5].split(/ {2,}/)[2]],
        ['tokens', '73', '65'],
        // The answer's cost and the judge's (the cell's model judges).
        ['cost (USD)', '0.0000856', '0.00132'],
      ],
    );
    assert.match(table[5], /^latency \(ms\) +\d+ +\d+$/);
    assert.equal(lastLine(r.stdout), '1 passed, 1 failed');
  });

  it('several --matrix options multiply; JUnit has one testsuite per value and one testcase per check: checks × values', async () => {
    const nb = write(
      dir,
      'product.awb.md',
      EVAL.replace('"content": "Suggest one café in Lisbon"', '"content": "Suggest one café in {{city}}"').replace('in Lisbon\n```', 'in {{city}}\n```'),
    );
    const xmlFile = path.join(dir, 'product.xml');
    const r = await runCli(
      ['run', nb, '--sandbox', '--matrix', 'model=gpt-4o-mini,sandbox-chat', '--matrix', 'city=Lisbon,Porto', '--reporter', 'junit', '--out', xmlFile],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const xml = read(xmlFile);
    const suites = [...xml.matchAll(/<testsuite name="([^"]*)" tests="(\d+)"/g)].map((m) => [path.basename(m[1]), Number(m[2])]);
    assert.deepEqual(suites, [
      ['product.awb.md [model=gpt-4o-mini, city=Lisbon]', 3],
      ['product.awb.md [model=gpt-4o-mini, city=Porto]', 3],
      ['product.awb.md [model=sandbox-chat, city=Lisbon]', 3],
      ['product.awb.md [model=sandbox-chat, city=Porto]', 3],
    ]);
    const cases = [...xml.matchAll(/<testcase name="([^"]*)"/g)].map((m) => m[1]);
    assert.equal(cases.length, 3 * 4, 'checks × values');
    assert.match(xml, /<testsuites name="api-workbench" tests="12" failures="0"/);
    assert.deepEqual(cases.slice(0, 3), ['ask › status == 200', 'ask › cost &lt; 0.0003', 'ask › judge: names a café in {{city}}']);
  });

  it('a failed check in JUnit carries expected and actual; a failed judge its model and reason', async () => {
    const nb = write(dir, 'judged.awb.md', EVAL.replace('names a café in Lisbon', 'recommends a restaurant in Tokyo'));
    const xmlFile = path.join(dir, 'judged.xml');
    const r = await runCli(
      ['run', nb, '--sandbox', '--var', 'model=gpt-4o-mini', '--judge-model', 'sandbox-chat-mini', '--reporter', 'junit', '--out', xmlFile],
      {
        cwd: dir,
      },
    );
    assert.equal(r.code, 1);
    const xml = read(xmlFile);
    assert.match(
      xml,
      /<testcase name="ask › judge: recommends a restaurant in Tokyo"[^>]*>\s*<failure message="\?\? judge: recommends a restaurant in Tokyo: expected judge: recommends a restaurant in Tokyo, actual fail: The answer has 0 of the rubric’s 3 words; missing: recommends, restaurant, tokyo\./,
    );
    assert.match(xml, /judge sandbox-chat-mini: The answer has 0 of the rubric’s 3 words/);
    assert.match(r.stdout, /judge: {4}sandbox-chat-mini/);
  });

  it('--matrix and --judge-model usage errors are one line, exit 2', async () => {
    for (const [args, message] of [
      [['--matrix', 'model'], '--matrix takes name=value,value (e.g. model=gpt-4o-mini,gpt-4o), not "model"'],
      [['--matrix', 'model=a,', '--matrix', 'x=1'], '--matrix takes name=value,value (e.g. model=gpt-4o-mini,gpt-4o), not "model=a,"'],
      [['--matrix', 'model=a', '--matrix', 'model=b'], '--matrix model is given twice: list all its values in one --matrix model=a,b'],
      [['--judge-model', ' '], '--judge-model needs a model id'],
      [['--reporter', 'html'], '--reporter html writes a page: give the file with --out report.html'],
    ] as const) {
      const r = await runCli(['run', 'x.awb.md', ...args], { cwd: dir });
      assert.equal(r.code, 2);
      assert.equal(lines(r.stderr)[0], `api-workbench: ${message}`);
    }
  });
});
