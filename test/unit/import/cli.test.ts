// `api-workbench import` as a user runs it: the BUILT dist/cli.js in a child process.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { assertBuilt, CLI, read, runCli, tempDir, write } from '../cli/cliKit';
import { parseNotebook } from '../../../src/notebook/api';
import { GOOGLE_KEY, OPENAI_CHAT_CURL_WITH_KEY, OPENAI_KEY, POSTMAN_COLLECTION, POSTMAN_TOKEN, REST_CLIENT_FILE } from './samples';

function withStdin(args: readonly string[], stdin: string, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

describe('CLI: api-workbench import', function () {
  this.timeout(30_000);
  before(assertBuilt);

  it('a .http file to -o: the notebook written, the report on stderr, no key anywhere', async () => {
    const dir = tempDir();
    write(dir, 'requests.http', REST_CLIENT_FILE);
    const r = await runCli(['import', 'requests.http', '-o', 'requests.awb.md'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    const text = read(`${dir}/requests.awb.md`);
    assert.deepEqual(parseNotebook(text).problems, []);
    assert.match(text, /```llm name=models\nGET \/models\n```/);
    assert.match(r.stderr, /httpbin\.org is not a host/);
    assert.match(r.stderr, /a key \(llm https:\/\/api\.openai\.com\) was found in the Authorization header \(variable token\): not written/);
    for (const out of [text, r.stderr]) for (const key of [OPENAI_KEY, GOOGLE_KEY]) assert.ok(!out.includes(key));
  });

  it('a Postman collection to stdout', async () => {
    const dir = tempDir();
    write(dir, 'collection.json', POSTMAN_COLLECTION);
    const r = await runCli(['import', 'collection.json'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^# Workbench sample\n/);
    assert.ok(!r.stdout.includes(POSTMAN_TOKEN) && !r.stderr.includes(POSTMAN_TOKEN));
  });

  it('- reads a cURL command from stdin', async () => {
    const r = await withStdin(['import', '-'], OPENAI_CHAT_CURL_WITH_KEY + '\n', tempDir());
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^```llm\nPOST \/chat\/completions\n/);
    assert.ok(!r.stdout.includes(OPENAI_KEY) && !r.stderr.includes(OPENAI_KEY));
    assert.match(r.stderr, /Authorization header was removed/);
  });

  it('malformed input: exit 2, the line or field named, nothing written', async () => {
    const dir = tempDir();
    const quote = await withStdin(['import', '-', '-o', 'out.awb.md'], "curl 'https://api.openai.com/v1/models\n", dir);
    assert.equal(quote.code, 2);
    assert.equal(quote.stderr, 'api-workbench: stdin: line 1: the single quote opened here is never closed\n');
    write(dir, 'bad.json', '{"info": {"name": "x", "schema": "https://example.com/other.json"}, "item": []}');
    const schema = await runCli(['import', 'bad.json', '-o', 'out.awb.md'], { cwd: dir });
    assert.equal(schema.code, 2);
    assert.match(schema.stderr, /bad\.json: field info\.schema: /);
    write(dir, 'broken.json', '{"info": ');
    assert.equal((await runCli(['import', 'broken.json', '-o', 'out.awb.md'], { cwd: dir })).code, 2);
    assert.equal(existsSync(`${dir}/out.awb.md`), false);
    const usage = await runCli(['import'], { cwd: dir });
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /import takes one file/);
  });
});
