// The HTML report and --baseline against the sandbox: one self-contained page (nothing loaded from
// elsewhere, no key) with the matrix, each answer, the judges' reasons and cost; a baseline run that
// finds exactly the regression planted, listed first, with "N regressions" last.
import * as assert from 'node:assert/strict';
import path from 'node:path';
import { assertBuilt, lastLine, lines, read, runCli, tempDir, write } from './cliKit';

const LLM_KEY = 'sk-report-test-key-0123456789abcdef';

/** Two cells: one whose prompt names {{city}}, judged on Lisbon; one that stays the same. */
const NOTEBOOK = (city: string) => `# Cafés

\`\`\`llm name=suggest
POST /chat/completions

{"model": "{{model}}", "messages": [{"role": "user", "content": "Suggest one café in ${city}"}]}

?? status == 200
?? judge: names a café in Lisbon
\`\`\`

\`\`\`llm name=steady
POST /chat/completions

{"model": "{{model}}", "messages": [{"role": "user", "content": "Say hello"}]}

?? status == 200
?? usage.total_tokens < 500
\`\`\`
`;

describe('CLI: the HTML report and --baseline', function () {
  this.timeout(60_000);
  let dir: string;

  before(() => {
    assertBuilt();
    dir = tempDir();
  });

  it('--reporter html --out: one self-contained page with the matrix, each answer, the judges’ reasons and cost totals; no key', async () => {
    const nb = write(dir, 'page.awb.md', NOTEBOOK('Lisbon'));
    const page = path.join(dir, 'report.html');
    const r = await runCli(['run', nb, '--sandbox', '--matrix', 'model=gpt-4o-mini,gpt-4o', '--reporter', 'html', '--out', page], {
      cwd: dir,
      env: { SANDBOX_LLM_KEY: LLM_KEY },
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const html = read(page);
    assert.match(html, /^<!doctype html>/);
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">/);
    // Nothing from elsewhere: no script, no link, no src=, no url(), no @import.
    assert.doesNotMatch(html, /<script|<link|\ssrc=|url\(|@import|https?:\/\//i);
    assert.doesNotMatch(html, new RegExp(LLM_KEY));
    assert.match(html, /<h2>Matrix<\/h2><table><tr><th>check<\/th><th>model=gpt-4o-mini<\/th><th>model=gpt-4o<\/th><\/tr>/);
    assert.match(
      html,
      /<td>suggest › judge: names a café in Lisbon<\/td><td><span class="pass">✓ pass<\/span><\/td><td><span class="pass">✓ pass<\/span><\/td>/,
    );
    assert.match(html, /<pre>Sandbox answer from gpt-4o-mini to “Suggest one café in Lisbon”:/);
    assert.match(html, /<div class="reason">judge gpt-4o \(0\.\d+ USD\): The answer has 2 of the rubric’s 3 words \(café, lisbon\)/);
    assert.match(html, /<div class="card"><b>0\.\d+<\/b>cost \(USD\)<\/div>/);
    assert.match(html, /<th>cost \(USD\)<\/th><td class="num">0\.\d+<\/td><td class="num">0\.\d+<\/td>/);
  });

  it('--baseline previous.json finds exactly the regression planted, lists it first, and ends with "N regressions"', async () => {
    const nb = write(dir, 'base.awb.md', NOTEBOOK('Lisbon'));
    const previous = path.join(dir, 'previous.json');
    const before = await runCli(['run', nb, '--sandbox', '--var', 'model=sandbox-chat', '--reporter', 'json', '--out', previous], { cwd: dir });
    assert.equal(before.code, 0, before.stdout + before.stderr);

    // The planted regression: the prompt now asks about Porto, so the judge on Lisbon fails.
    write(dir, 'base.awb.md', NOTEBOOK('Porto'));
    const now = await runCli(['run', nb, '--sandbox', '--var', 'model=sandbox-chat', '--baseline', previous], { cwd: dir });
    assert.equal(now.code, 1);
    const out = lines(now.stdout);
    assert.equal(lastLine(now.stdout), '1 regressions');
    const at = out.indexOf('Regressions (passed in the baseline, fail now):');
    assert.ok(at >= 0, now.stdout);
    assert.equal(out[at + 1], `  ✗ ${nb} › suggest › judge: names a café in Lisbon`);
    assert.match(out[at + 3], /^ {6}actual: {3}fail: The answer has 1 of the rubric’s 3 words \(café\); missing: names, lisbon\./);
    assert.equal(out.filter((l) => l.startsWith('  ✗ ')).length, 2, 'the regression and the failed cell, nothing else');

    // In a report file the regressions come first.
    const report = path.join(dir, 'now.txt');
    await runCli(['run', nb, '--sandbox', '--var', 'model=sandbox-chat', '--baseline', previous, '--out', report], { cwd: dir });
    const text = lines(read(report));
    assert.equal(text[0], 'Regressions (passed in the baseline, fail now):');
    assert.equal(text.at(-1), '1 regressions');
    const json = path.join(dir, 'now.json');
    await runCli(['run', nb, '--sandbox', '--var', 'model=sandbox-chat', '--baseline', previous, '--reporter', 'json', '--out', json], { cwd: dir });
    assert.deepEqual((JSON.parse(read(json)) as { regressions: string[] }).regressions, [`${nb} › suggest › judge: names a café in Lisbon`]);
  });

  it('the same run with nothing changed: 0 regressions; a file that is not a json report stops the run before anything is sent', async () => {
    const nb = write(dir, 'same.awb.md', NOTEBOOK('Lisbon'));
    const previous = path.join(dir, 'same.json');
    await runCli(['run', nb, '--sandbox', '--var', 'model=sandbox-chat', '--reporter', 'json', '--out', previous], { cwd: dir });
    const again = await runCli(['run', nb, '--sandbox', '--var', 'model=sandbox-chat', '--baseline', previous], { cwd: dir });
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.equal(lastLine(again.stdout), '0 regressions');
    const notReport = write(dir, 'junk.json', '{"hello": 1}');
    const bad = await runCli(['run', nb, '--sandbox', '--baseline', notReport], { cwd: dir });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^api-workbench: --baseline .*junk\.json is not a report of "api-workbench run --reporter json" \(/);
    assert.equal(bad.stdout, '');
  });
});
