import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redactor } from '../../../src/core/redact';
import { connectionsHost, runNotebook, type CellResult } from '../../../src/notebook/api';

// A key of the run that happens to end in a zip code, as the sandbox's random keys may.
const KEY = 'sk-run-key-4f1c9e0a90210';

describe('notebook vars: a value is refused only when it holds a secret of the run', function () {
  this.timeout(20_000);
  let server: Server;
  let host = '';
  let seen: string[];

  before(async () => {
    server = createServer((req, res) => {
      seen.push(decodeURIComponent(req.url ?? ''));
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));
  beforeEach(() => {
    seen = [];
  });

  /** The http cell after a vars cell holding `vars`, sending {{name}} of each. */
  async function sendVars(vars: Record<string, string>): Promise<CellResult> {
    const redactor = new Redactor();
    redactor.addSecret(KEY);
    const notebookHost = connectionsHost({ connections: [], key: () => undefined, redactor, allowedHosts: [host] });
    const lines = Object.entries(vars).map(([k, v]) => `${k} = ${v}`);
    const query = Object.keys(vars)
      .map((k) => `${k}={{${k}}}`)
      .join('&');
    const text = `\`\`\`vars\n${lines.join('\n')}\n\`\`\`\n\n\`\`\`http\nGET http://${host}/q?${query}\n\`\`\`\n`;
    const report = await runNotebook(text, { host: notebookHost, file: 'v.awb.md' });
    return report.results[1];
  }

  it('a value that a key of the run merely ends in, and a filter naming token=, are sent as ordinary values', async () => {
    const r = await sendVars({ zip: '90210', filter: 'status=open&token=abc', q: 'api_key=none' });
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(seen, ['/q?zip=90210&filter=status=open&token=abc&q=api_key=none']);
  });

  it('a value that is a key of the run, or holds one whole (also URL-encoded), is refused without showing it; nothing is sent', async () => {
    for (const value of [KEY, `Bearer ${KEY}`, `https://x.test/?k=${encodeURIComponent(KEY)}`]) {
      const r = await sendVars({ leak: value });
      assert.equal(r.ok, false, value);
      assert.match(r.error ?? '', /v\.awb\.md:2: the value of "leak" is a secret: secrets never go in vars/);
      assert.ok(!(r.error ?? '').includes(KEY));
    }
    assert.deepEqual(seen, []);
  });
});
