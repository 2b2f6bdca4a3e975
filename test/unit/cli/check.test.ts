// `api-workbench check`, run as CI runs it (the built dist/cli.js), on the shipped examples and on
// notebooks with known problems.
import * as assert from 'node:assert/strict';
import path from 'node:path';
import { assertBuilt, lines, runCli, tempDir, write } from './cliKit';

const EXAMPLES = path.resolve(__dirname, '../../../../examples');

const BROKEN = [
  '# Broken',
  '',
  '```vars',
  'city = Lisbon',
  '```',
  '',
  '```maps name=place',
  'POST /v1/places:searchText',
  'X-Goog-FieldMask: places.id',
  '',
  '{"textQuery": "{{nope}}"}',
  '',
  '?? status == 200',
  '```',
  '',
  '```llm',
  'POST /chat/completions',
  'Content-Type: application/json',
  '',
  '{"model": "gpt-4o-mnii", "messages": [}',
  '```',
  '',
  '```llm connection=Elsewhere',
  'GET /models',
  '',
  '?? colour == red',
  '```',
  '',
].join('\n');

describe('api-workbench check', function () {
  this.timeout(30_000);
  before(assertBuilt);

  it('the examples have no errors: exit 0', async () => {
    const run = await runCli(['check', EXAMPLES], { cwd: path.dirname(EXAMPLES) });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.ok(!/: error: /.test(run.stdout), run.stdout);
    assert.match(run.stderr, /\d+ notebooks? checked: 0 errors/);
  });

  it('an undefined variable, a malformed JSON body and an unknown check subject: three findings on their lines, exit 1, nothing sent', async () => {
    const dir = tempDir();
    const file = write(dir, 'broken.awb.md', BROKEN);
    const run = await runCli(['check', dir], { cwd: dir });
    assert.equal(run.code, 1);
    assert.deepEqual(lines(run.stdout), [
      `${file}:11: error: unknown variable "nope": define it in a vars cell (nope = …) or pass it in`,
      `${file}:20: error: the body is not valid JSON: "}" is where a value should be (fix it, or set a Content-Type that is not JSON)`,
      `${file}:26: error: "colour" is not something to assert on: use status, duration, header <name>, json.<path>, text, body, count, tool_calls[i].<field>, usage.<field>, cost, ttft, similar "<text>", judge: <rubric>, json matches schema <file> or json matches spec`,
    ]);
    assert.match(run.stderr, /1 notebook checked: 3 errors, 0 other findings/);
  });

  it("a script's syntax error is an error at its line in the notebook, with the parser's message", async () => {
    const dir = tempDir();
    const file = write(
      dir,
      'scripted.awb.md',
      [
        '# Scripts',
        '',
        '```http name=login',
        '< {%',
        '  pm.variables.set("a", 1);',
        '%}',
        'GET https://api.example.com/login',
        '',
        '> {%',
        '  pm.test("ok", () => {',
        '    let x = ;',
        '  });',
        '%}',
        '```',
        '',
      ].join('\n'),
    );
    const run = await runCli(['check', dir], { cwd: dir });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.deepEqual(lines(run.stdout), [`${file}:11: error: the response script does not parse: Unexpected token ';'; fix this line before the cell can run`]);
  });

  it('--var defines a variable; --json gives the findings to tools', async () => {
    const dir = tempDir();
    write(dir, 'broken.awb.md', BROKEN);
    const run = await runCli(['check', 'broken.awb.md', '--var', 'nope=1', '--json'], { cwd: dir });
    assert.equal(run.code, 1);
    const report = JSON.parse(run.stdout) as { files: string[]; findings: Array<{ file: string; line: number; severity: string; code: string }> };
    assert.deepEqual(report.files, ['broken.awb.md']);
    assert.deepEqual(
      report.findings.map((f) => [f.line, f.severity, f.code]),
      [
        [20, 'error', 'malformed-json'],
        [26, 'error', 'syntax'],
      ],
    );
  });

  it('model ids and connection names only with --sandbox (its models) or --connections', async () => {
    const dir = tempDir();
    write(
      dir,
      'models.awb.md',
      '```llm\nPOST /chat/completions\n\n{"model": "gpt-4o-mnii", "messages": []}\n```\n\n```llm connection=Elsewhere\nGET /models\n```\n',
    );
    const offline = await runCli(['check', 'models.awb.md'], { cwd: dir });
    assert.equal(offline.code, 0);
    assert.equal(offline.stdout, '');
    const sandbox = await runCli(['check', 'models.awb.md', '--sandbox'], { cwd: dir });
    assert.equal(sandbox.code, 1);
    assert.deepEqual(lines(sandbox.stdout), [
      'models.awb.md:4: warning: the connection does not offer the model "gpt-4o-mnii": did you mean "gpt-4o-mini"?',
      'models.awb.md:7: error: no llm connection is named "Elsewhere" (there are: Local Sandbox)',
    ]);
    write(dir, 'connections.json', JSON.stringify({ llm: [{ name: 'Work', baseUrl: 'https://api.example.com/v1' }] }));
    const named = await runCli(['check', 'models.awb.md', '--connections', 'connections.json'], { cwd: dir });
    assert.deepEqual(lines(named.stdout), ['models.awb.md:7: error: no llm connection is named "Elsewhere" (there are: Work)']);
  });

  it('usage errors exit 2', async () => {
    const dir = tempDir();
    const none = await runCli(['check'], { cwd: dir });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /check needs at least one notebook file or folder/);
  });
});
