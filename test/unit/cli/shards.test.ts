// --shard i/n and merge-reports against the sandbox: three shards of a run with --matrix and
// --data, merged, give the counts, matrix table and JUnit test cases of the unsharded run; a merged
// run with --baseline finds the regression planted; a shard missing or given twice is refused.
import * as assert from 'node:assert/strict';
import path from 'node:path';
import { shardJobs } from '../../../src/cli/shard';
import { assertBuilt, lastLine, read, runCli, tempDir, write } from './cliKit';

const NOTEBOOK = (near: string) => `# Cities

\`\`\`llm name=suggest
POST /chat/completions

{"model": "{{model}}", "messages": [{"role": "user", "content": "One café in {{city}}${near}"}]}

?? status == 200
?? judge: names a café in Lisbon
\`\`\`
`;

interface JsonReport {
  passed: number;
  failed: number;
  suites: Array<{ name: string; cells: Array<{ assertions: Array<{ source: string; passed: boolean }> }> }>;
}
const report = (text: string) => JSON.parse(text) as JsonReport;

const DATA = 'city\nLisbon\nPorto\nFaro\n';

describe('CLI: --shard and merge-reports', function () {
  this.timeout(120_000);
  let dir: string;
  let nb: string;
  let data: string;
  const base = () => ['run', nb, '--sandbox', '--matrix', 'model=gpt-4o-mini,gpt-4o', '--data', data];

  before(() => {
    assertBuilt();
    dir = tempDir();
    // Lisbon's row passes the judge, Porto's and Faro's fail it: a mixed run.
    nb = write(dir, 'cities.awb.md', NOTEBOOK(''));
    data = write(dir, 'cities.csv', DATA);
  });

  it('every job is in exactly one of n contiguous slices, for any number of jobs and shards', () => {
    for (let count = 0; count <= 23; count++) {
      const jobs = Array.from({ length: count }, (_, i) => i);
      for (let total = 1; total <= 8; total++) {
        const slices = Array.from({ length: total }, (_, i) => shardJobs(jobs, { index: i + 1, total }));
        assert.deepEqual(slices.flat(), jobs, `${count} jobs in ${total} shards`);
        const sizes = slices.map((s) => s.length);
        assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `balanced: ${sizes.join(',')}`);
      }
    }
  });

  it('three shards merged give the unsharded run’s counts, suites, matrix table and JUnit test cases', async () => {
    const whole = await runCli([...base(), '--reporter', 'json', '--out', path.join(dir, 'whole.json')], { cwd: dir });
    assert.equal(whole.code, 1, whole.stdout + whole.stderr);
    assert.deepEqual([report(read(path.join(dir, 'whole.json'))).passed > 0, whole.code], [true, 1]);
    const shards = [];
    for (const i of [1, 2, 3]) {
      const r = await runCli([...base(), '--shard', `${i}/3`, '--reporter', 'json', '--out', path.join(dir, `s${i}.json`)], { cwd: dir });
      assert.match(r.stdout, new RegExp(`^shard ${i}/3: jobs \\d–\\d of 6 `, 'm'));
      shards.push(path.join(dir, `s${i}.json`));
    }
    // Given in any order.
    const merged = await runCli(['merge-reports', shards[2], shards[0], shards[1], '--reporter', 'json'], { cwd: dir });
    const a = report(read(path.join(dir, 'whole.json')));
    const b = report(merged.stdout);
    assert.equal(merged.code, whole.code);
    assert.deepEqual([b.passed, b.failed], [a.passed, a.failed]);
    const names = (r: JsonReport) => r.suites.map((s) => [s.name, s.cells.flatMap((c) => c.assertions.map((x) => `${x.source}:${x.passed}`))]);
    assert.deepEqual(names(b), names(a));

    const matrixOf = (text: string) => text.slice(text.indexOf('check'));
    const wholePretty = await runCli(base(), { cwd: dir });
    const mergedPretty = await runCli(['merge-reports', ...shards], { cwd: dir });
    assert.match(wholePretty.stdout, /model=gpt-4o-mini/);
    assert.equal(lastLine(mergedPretty.stdout).replace(/ in [\d.]+ ?m?s$/, ''), lastLine(wholePretty.stdout).replace(/ in [\d.]+ ?m?s$/, ''));
    assert.equal(matrixOf(mergedPretty.stdout).split('\n').slice(0, 4).join('\n'), matrixOf(wholePretty.stdout).split('\n').slice(0, 4).join('\n'));

    const junitWhole = await runCli([...base(), '--reporter', 'junit'], { cwd: dir });
    const junitMerged = await runCli(['merge-reports', ...shards, '--reporter', 'junit'], { cwd: dir });
    const cases = (xml: string) => [...xml.matchAll(/<testcase [^>]*name="([^"]*)"[^>]*classname="([^"]*)"/g)].map((m) => `${m[2]} › ${m[1]}`);
    assert.ok(cases(junitWhole.stdout).length >= 6, junitWhole.stdout.slice(0, 500));
    assert.deepEqual(cases(junitMerged.stdout), cases(junitWhole.stdout));
  });

  it('a merged run finds the planted regression with --baseline, and a missing or doubled shard is refused (exit 2)', async () => {
    // Every row passes while the prompt also names Lisbon.
    write(dir, 'cities.awb.md', NOTEBOOK(', as in Lisbon'));
    const before = path.join(dir, 'before.json');
    const ok = await runCli([...base(), '--reporter', 'json', '--out', before], { cwd: dir });
    assert.equal(ok.code, 0, ok.stdout);
    // The planted regression: Lisbon taken out of the prompt, so the Porto and Faro rows fail the judge.
    write(dir, 'cities.awb.md', NOTEBOOK(''));
    const shards: string[] = [];
    for (const i of [1, 2]) {
      shards.push(path.join(dir, `r${i}.json`));
      await runCli([...base(), '--shard', `${i}/2`, '--reporter', 'json', '--out', shards[i - 1]], { cwd: dir });
    }
    const merged = await runCli(['merge-reports', ...shards, '--baseline', before], { cwd: dir });
    assert.equal(merged.code, 1);
    assert.match(merged.stdout, /^Regressions \(passed in the baseline, fail now\):/m);
    // Porto and Faro, each under two models.
    assert.equal(lastLine(merged.stdout), '4 regressions');

    const missing = await runCli(['merge-reports', shards[0]], { cwd: dir });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /shard 2 of 2 missing/);
    const twice = await runCli(['merge-reports', shards[0], shards[0], shards[1]], { cwd: dir });
    assert.equal(twice.code, 2);
    assert.match(twice.stderr, /shard 1\/2 is given twice/);
  });
});
