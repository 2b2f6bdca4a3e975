// The key-leak properties of redactLeaks.test.ts, carried to what a notebook sends and reads
// (issue 37, items 1 and 3): any connection key, reached through any `{{$env}}` name (its keyEnv or
// another variable holding the same value), anywhere in an http cell's URL, header or body, is
// refused with nothing sent; any schema file holding a key, wherever it breaks JSON, fails its check
// without a run of 5 of the key's characters in the result.
import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { connectionsHost, runNotebook } from '../../../src/notebook/api';

const RUN = 5;
function leakedRun(output: string, key: string): string | undefined {
  for (let i = 0; i + RUN <= key.length; i++) if (output.includes(key.slice(i, i + RUN))) return key.slice(i, i + RUN);
  return undefined;
}

const keyChars = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.'.split(''));
const key = fc.array(keyChars, { minLength: 20, maxLength: 64 }).map((cs) => cs.join(''));
const filler = fc.string({ maxLength: 20 }).map((s) => s.replace(/[^a-z ]/g, 'x'));

describe('key leaks through a notebook: {{$env}} and schema files (property)', function () {
  this.timeout(120_000);
  let server: Server;
  let base = '';
  let hits = 0;
  let dir: string;

  before(async () => {
    server = createServer((req, res) => {
      hits++;
      req.resume();
      res.setHeader('content-type', 'application/json');
      res.end('{"id": 1}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    dir = mkdtempSync(path.join(tmpdir(), 'awb-keyleaks-'));
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("a connection's key through any {{$env}} name, anywhere in the request, is refused and nothing is sent", async () => {
    await fc.assert(
      fc.asyncProperty(key, filler, filler, fc.constantFrom('url', 'header', 'body'), fc.boolean(), async (k, before, after, where, byName) => {
        const variable = byName ? 'OPENAI_API_KEY' : 'SOME_ALIAS';
        const host = connectionsHost({
          connections: [],
          key: () => undefined,
          allowedHosts: ['127.0.0.1'],
          env: { OPENAI_API_KEY: k, SOME_ALIAS: k },
          envPolicy: { allowed: [variable], credentials: new Map([['OPENAI_API_KEY', 'the llm connection "OpenAI"']]) },
          knownCredentials: [{ value: k, owner: 'the llm connection "OpenAI"' }],
        });
        const ref = `${before}{{$env ${variable}}}${after}`;
        const request =
          where === 'url'
            ? `GET ${base}/x?q=${before.replace(/ /g, '+')}{{$env ${variable}}}${after.replace(/ /g, '+')}`
            : where === 'header'
              ? `GET ${base}/x\nX-Note: ${ref}`
              : `POST ${base}/x\nContent-Type: text/plain\n\n${ref}`;
        const before_ = hits;
        const [r] = (await runNotebook(`\`\`\`http\n${request}\n\`\`\`\n`, { host, file: 'p.awb.md', baseDir: dir })).results;
        assert.equal(hits, before_, `sent: ${request}`);
        assert.equal(r.ok, false);
        assert.match(r.error ?? '', /holds the key of the llm connection "OpenAI"/);
        assert.equal(leakedRun(JSON.stringify(r), k), undefined, JSON.stringify(r));
      }),
      { numRuns: 60, seed: 37 },
    );
  });

  it('a schema file holding a key, broken anywhere, fails its check without showing the key', async () => {
    const host = connectionsHost({ connections: [], key: () => undefined, allowedHosts: ['127.0.0.1'] });
    await fc.assert(
      fc.asyncProperty(key, filler, filler, fc.constantFrom('raw', 'line', 'json-ish'), async (k, before, after, how) => {
        const content = how === 'raw' ? `${before}${k}${after}` : how === 'line' ? `${before}\n${k}=${after}` : `{"key": ${k}, "x": "${after}"}`;
        writeFileSync(path.join(dir, 'schema.json'), content);
        const [r] = (await runNotebook(`\`\`\`http\nGET ${base}/s\n\n?? json matches schema ./schema.json\n\`\`\`\n`, { host, file: 'p.awb.md', baseDir: dir }))
          .results;
        assert.equal(r.assertions[0].passed, false);
        assert.match(r.assertions[0].actual, /is not valid JSON( at line \d+ column \d+)?\.\)$/);
        assert.equal(leakedRun(JSON.stringify(r), k), undefined, r.assertions[0].actual);
      }),
      { numRuns: 60, seed: 37 },
    );
  });
});
