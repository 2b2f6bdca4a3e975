// `api-workbench export` as a user runs it: the BUILT dist/cli.js in a child process. What it
// writes goes back through `api-workbench import` and must give the same requests, with the key
// only ever named (an environment variable), never written.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseNotebook, type NotebookCellData } from '../../../src/notebook/api';
import { assertBuilt, read, runCli, tempDir, write } from '../cli/cliKit';

const KEY = 'sk-export-test-0123456789abcdef';
const PROXY = 'https://llm.proxy.example/v1';

function repoRoot(): string {
  return path.resolve(__dirname, '../../../..');
}

/** The request part of each llm/maps cell (method, path, headers, body), assertions cut off. */
function requests(text: string): Array<{ language: string; name?: string; request: string }> {
  return parseNotebook(text)
    .cells.filter((c: NotebookCellData) => c.kind === 'code' && (c.language === 'llm' || c.language === 'maps'))
    .map((c) => ({ language: c.language, name: c.metadata.attributes?.name, request: c.value.split(/\n\n\?\? /)[0].trim() }));
}

describe('CLI: api-workbench export', function () {
  this.timeout(30_000);
  before(assertBuilt);
  const tour = readFileSync(path.join(repoRoot(), 'examples', 'sandbox-tour.awb.md'), 'utf8');

  it('a notebook to .http and back through import: the same requests, names and references; no key', async () => {
    const dir = tempDir();
    write(dir, 'tour.awb.md', tour);
    const exported = await runCli(['export', 'tour.awb.md', '-o', 'tour.http'], { cwd: dir, env: { OPENAI_API_KEY: KEY } });
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal(exported.stdout, '');
    assert.match(exported.stderr, /wrote tour\.http/);
    const http = read(path.join(dir, 'tour.http'));
    assert.match(http, /Authorization: Bearer \{\{\$processEnv OPENAI_API_KEY\}\}/);
    assert.ok(!http.includes(KEY));

    const back = await runCli(['import', 'tour.http', '-o', 'back.awb.md'], { cwd: dir });
    assert.equal(back.code, 0, back.stderr);
    const original = requests(tour);
    assert.ok(original.length >= 4, 'the tour has llm and maps cells');
    assert.deepEqual(requests(read(path.join(dir, 'back.awb.md'))), original);
  });

  it('--connections: the first connection gives the host and its keyEnv names the variable', async () => {
    const dir = tempDir();
    write(dir, 'tour.awb.md', tour);
    write(dir, 'connections.json', JSON.stringify({ llm: [{ name: 'Proxy', baseUrl: PROXY, keyEnv: 'PROXY_LLM_KEY' }] }));
    const r = await runCli(['export', 'tour.awb.md', '--connections', 'connections.json'], { cwd: dir, env: { PROXY_LLM_KEY: KEY } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /GET https:\/\/llm\.proxy\.example\/v1\/models\nAuthorization: Bearer \{\{\$processEnv PROXY_LLM_KEY\}\}/);
    assert.ok(!r.stdout.includes(KEY) && !r.stderr.includes(KEY));
  });

  it('--format javascript-sdk with --connections: one program to the connection, its key read from the keyEnv variable, the skipped cells on stderr', async () => {
    const dir = tempDir();
    write(dir, 'tour.awb.md', tour);
    write(dir, 'connections.json', JSON.stringify({ llm: [{ name: 'Proxy', baseUrl: PROXY, keyEnv: 'PROXY_LLM_KEY' }] }));
    const r = await runCli(['export', 'tour.awb.md', '--format', 'javascript-sdk', '--connections', 'connections.json'], {
      cwd: dir,
      env: { PROXY_LLM_KEY: KEY },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^\/\/ "A tour of the sandbox" as a JavaScript SDK/);
    assert.match(r.stdout, /baseURL: "https:\/\/llm\.proxy\.example\/v1",\n {2}apiKey: process\.env\.PROXY_LLM_KEY/);
    // No realtime connection given: the realtime cells are skipped, and said so.
    assert.match(r.stderr, /^heard: no realtime connection is known/m);
    assert.ok(!r.stdout.includes(KEY) && !r.stderr.includes(KEY));
  });

  it("--format javascript-sdk and python-sdk with a realtime connection: the app secret is read from that connection's keyEnv, never written", async () => {
    const dir = tempDir();
    write(dir, 'tour.awb.md', tour);
    const secret = 'f'.repeat(20);
    write(
      dir,
      'connections.json',
      JSON.stringify({ realtime: [{ name: 'Team', appId: '1234', key: 'abcdef0123456789abcd', cluster: 'eu', keyEnv: 'TEAM_PUSHER_SECRET' }] }),
    );
    for (const [format, read] of [
      ['javascript-sdk', /secret: process\.env\.TEAM_PUSHER_SECRET,/],
      ['python-sdk', /secret=os\.environ\["TEAM_PUSHER_SECRET"\],/],
    ] as const) {
      const r = await runCli(['export', 'tour.awb.md', '--format', format, '--connections', 'connections.json'], {
        cwd: dir,
        env: { TEAM_PUSHER_SECRET: secret },
      });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, read, format);
      assert.doesNotMatch(r.stdout, /PUSHER_APP_SECRET/, format);
      assert.ok(!r.stdout.includes(secret) && !r.stderr.includes(secret), format);
    }
  });

  it('--format curl: one command per llm/maps cell, key as "$VAR", each imports back to its cell', async () => {
    const dir = tempDir();
    write(dir, 'tour.awb.md', tour);
    const r = await runCli(['export', 'tour.awb.md', '--format', 'curl'], { cwd: dir, env: { GOOGLE_MAPS_API_KEY: KEY } });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes(KEY));
    assert.match(r.stderr, /a realtime cell has no cURL form/);
    const commands = r.stdout.trim().split(/\n\n(?=# cell )/);
    // Variables go out as their values, a response reference as a shell variable (never %7B%7B…%7D%7D).
    const filled = tour
      .replace('{{question}} {{city}}', 'What should I see in Lisbon')
      .split('{{city}}')
      .join('Lisbon')
      .replace(
        /\{\{([^{}]+)\}\}/g,
        (_w, ref: string) =>
          `\${${ref
            .replace(/[^A-Za-z0-9]+/g, '_')
            .replace(/^_+|_+$/g, '')
            .toUpperCase()}}`,
      );
    assert.match(r.stdout, /"model": "'"\$\{MODELS_JSON_DATA_0_ID\}"'",/);
    assert.doesNotMatch(r.stdout, /%7B|\{\{/);
    const original = requests(filled);
    assert.equal(commands.length, original.length);
    for (const [i, command] of commands.entries()) {
      assert.match(command, /-H "(Authorization: Bearer \$OPENAI_API_KEY|X-Goog-Api-Key: \$GOOGLE_MAPS_API_KEY)"/);
      write(dir, `cell${i}.sh`, command.replace(/^# .*\n/, ''));
      const back = await runCli(['import', `cell${i}.sh`], { cwd: dir });
      assert.equal(back.code, 0, back.stderr);
      const [cell] = requests(back.stdout);
      assert.equal(cell.language, original[i].language);
      // A JSON body is sent as JSON either way: the importer writes the header curl had out.
      assert.equal(cell.request.replace(/^Content-Type: application\/json\n/m, ''), original[i].request.replace(/^Content-Type: application\/json\n/m, ''));
    }
  });

  it('usage errors exit 2 with a pointer to --help; a missing file names itself', async () => {
    const dir = tempDir();
    const none = await runCli(['export'], { cwd: dir });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /export takes one notebook file\nRun "api-workbench --help"/);
    const format = await runCli(['export', 'x.awb.md', '--format', 'yaml'], { cwd: dir });
    assert.equal(format.code, 2);
    assert.match(format.stderr, /--format is one of http, curl, python, javascript, python-sdk, javascript-sdk, not "yaml"/);
    const missing = await runCli(['export', 'missing.awb.md'], { cwd: dir });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /missing\.awb\.md: no such file/);
    const help = await runCli(['--help'], { cwd: dir });
    assert.match(help.stdout, /api-workbench export <file\.awb\.md> \[-o out\.http\] \[--format http\|curl\|python\|javascript\|python-sdk\|javascript-sdk\]/);
  });
});
