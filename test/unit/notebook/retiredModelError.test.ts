// A cell refused because its model was retired says what to do: the date it stopped and the model
// that replaced it (services/llm/retiredModels.ts), after the service's own 404 text, in the CLI's
// lines, its reports and the editor's output alike (all show CellResult.error).
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { httpConnectionFromSetting } from '../../../src/core/connections';
import { connectionsHost, runNotebook, sandboxConnections, type CellResult, type NotebookHost } from '../../../src/notebook/api';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { assertBuilt, read, runCli, tempDir, write } from '../cli/cliKit';

const KEY = 'sk-sandbox-retired-cell-test';
const DAVINCI_ADVICE = 'OpenAI shut down "davinci" on 2024-01-04; "davinci-002" replaced it: change the cell\'s "model" to "davinci-002".';

const llmCell = (request: string, body: string) => `\`\`\`llm\n${request}\nContent-Type: application/json\n\n${body}\n\`\`\`\n\n`;

describe('a cell whose model was retired', function () {
  this.timeout(30_000);

  it('CLI: the red davinci completions cell names the shutdown date and davinci-002, on the terminal and in the JSON report', async () => {
    assertBuilt();
    const dir = tempDir();
    const nb = write(dir, 'old.awb.md', llmCell('POST /completions', '{"model": "davinci", "prompt": "Say this is a test"}'));
    const out = path.join(dir, 'report.json');
    const r = await runCli(['run', nb, '--sandbox', '--reporter', 'json', '--out', out], { cwd: dir });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /404 model_not_found: The model `davinci` has been deprecated/, 'the service’s own words stay');
    assert.ok(r.stdout.includes(DAVINCI_ADVICE), r.stdout);
    const report = JSON.parse(read(out)) as { suites: Array<{ cells: CellResult[] }> };
    const error = report.suites[0].cells[0].error ?? '';
    assert.ok(error.endsWith(DAVINCI_ADVICE), error);
    assert.equal(error.split(DAVINCI_ADVICE).length, 2, 'said once');
  });

  describe('the engine', () => {
    let sandbox: Sandbox;
    let sandboxHost: NotebookHost;
    before(async () => {
      sandbox = await startSandbox({ port: 0, llmKey: KEY, llm: { tokenRate: 0 }, realtime: { demo: false } });
      sandboxHost = connectionsHost(sandboxConnections(sandbox.info));
    });
    after(() => sandbox.close());

    const run = async (text: string, host: NotebookHost) => (await runNotebook(text, { host, file: 'old.awb.md', baseDir: tempDir() })).results;

    it('a retired chat model and a retired /engines/ path get the advice; an unknown model’s 404 and a served model do not', async () => {
      const [chat, engine, unknown, served] = await run(
        llmCell('POST /chat/completions', '{"model": "gpt-3.5-turbo-0613", "messages": [{"role": "user", "content": "hi"}]}') +
          llmCell('POST /engines/davinci/completions', '{"prompt": "hi"}') +
          llmCell('POST /chat/completions', '{"model": "gpt-nothing", "messages": [{"role": "user", "content": "hi"}]}') +
          llmCell('POST /completions', '{"model": "davinci-002", "prompt": "hi"}'),
        sandboxHost,
      );
      assert.match(chat.error ?? '', /OpenAI shut down "gpt-3\.5-turbo-0613" on 2024-09-13; "gpt-3\.5-turbo" replaced it/);
      assert.ok(engine.error?.endsWith(DAVINCI_ADVICE), engine.error);
      assert.match(unknown.error ?? '', /does not exist or you do not have access to it/);
      assert.doesNotMatch(unknown.error ?? '', /shut down/);
      assert.equal(served.ok, true, served.error);
    });

    describe('a server whose 404 does not name the model', () => {
      let server: Server;
      let baseUrl = '';
      before(async () => {
        // An OpenAI-compatible server that answers every request 404 in words of its own.
        server = createServer((req, res) => {
          req.resume();
          req.on('end', () => {
            res.writeHead(404, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ error: { message: 'Not found.', type: 'invalid_request_error', param: null, code: null } }));
          });
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      });
      after(() => new Promise<void>((resolve) => server.close(() => resolve())));

      it('the model the request body asked for is the one named', async () => {
        const conn = httpConnectionFromSetting('llm', { name: 'Compatible', baseUrl, auth: { placement: 'none' } });
        if (typeof conn === 'string') throw new Error(conn);
        const host = connectionsHost({ connections: [conn], key: () => undefined });
        const [retired, current] = await run(
          llmCell('POST /completions', '{"model": "text-davinci-003", "prompt": "hi"}') +
            llmCell('POST /completions', '{"model": "davinci-002", "prompt": "hi"}'),
          host,
        );
        assert.match(retired.error ?? '', /Not found\..*OpenAI shut down "text-davinci-003" on 2024-01-04; "gpt-3\.5-turbo-instruct" replaced it/);
        assert.doesNotMatch(current.error ?? '', /shut down/);
      });
    });
  });
});
