// *Import OpenAPI…* from a URL, the part without VS Code: the address checked, the document fetched
// from a real local server through the product's transport, and imported as a file would be; a
// failure is a sentence naming the address and what to do.
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { downloadSpec, importFetchedSpec, specNameOf, specUrl } from '../../../src/features/notebook/openApiUrl';
import { ImportError } from '../../../src/notebook/api';

const SPEC = `openapi: 3.0.3
info: { title: Tiny, version: '1' }
servers: [{ url: 'https://tiny.example.com' }]
paths:
  /things:
    get:
      operationId: listThings
      responses: { '200': { description: ok } }
`;

describe('Import OpenAPI from a URL', function () {
  let server: Server;
  let base: string;
  const seen: string[] = [];

  before(async () => {
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`.trim());
      if (req.url?.startsWith('/openapi.yaml')) {
        res.writeHead(200, { 'Content-Type': 'application/yaml' });
        res.end(SPEC);
      } else if (req.url === '/refs.yaml') {
        res.writeHead(200, { 'Content-Type': 'application/yaml' });
        res.end(SPEC.replace("responses: { '200': { description: ok } }", "responses: { '200': { $ref: './other.yaml#/Ok' } }"));
      } else if (req.url === '/big.yaml') {
        res.writeHead(200, { 'Content-Type': 'application/yaml' });
        res.end(`${SPEC}# ${'x'.repeat(4096)}\n`);
      } else {
        res.writeHead(404, { 'Content-Type': 'text/plain' });
        res.end('no such document');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('takes http and https addresses only, never one with a password', function () {
    assert.equal(specUrl(' https://api.example.com/openapi.yaml ').href, 'https://api.example.com/openapi.yaml');
    assert.throws(() => specUrl('api.example.com/openapi.yaml'), /is not a URL: give the address of an OpenAPI document/);
    assert.throws(() => specUrl('file:///etc/passwd'), /file: addresses are not fetched: give an http or https address/);
    assert.throws(() => specUrl('https://me:pw@api.example.com/openapi.yaml'), /carries a user name or password/);
    assert.equal(specNameOf(new URL('https://x.example.com/v2/spec.json')), 'spec.json');
    assert.equal(specNameOf(new URL('https://x.example.com/docs/')), 'openapi.yaml');
  });

  it('fetches the document (a GET without credentials) and imports it as a file would be', async function () {
    const url = specUrl(`${base}/openapi.yaml?version=2`);
    const text = await downloadSpec(url);
    assert.equal(text, SPEC);
    assert.equal(seen.at(-1), 'GET /openapi.yaml?version=2');
    const result = await importFetchedSpec(text, url);
    assert.match(result.text, /```vars\nspec = \.\/openapi\.yaml\nbaseUrl = https:\/\/tiny\.example\.com\n```/);
    assert.match(result.text, /```http name=listThings\nGET \{\{baseUrl\}\}\/things/);
  });

  it('an address that answers 404 or too much, or a document with $refs to other files: a sentence saying what to do', async function () {
    await assert.rejects(downloadSpec(specUrl(`${base}/missing.yaml`)), (e: Error) => {
      assert.match(e.message, new RegExp(`^The OpenAPI document could not be fetched from ${base}/missing\\.yaml: .*404`));
      assert.match(e.message, /Check the address and your network settings \(http\.proxy\), or download it and import the file\.$/);
      return true;
    });
    await assert.rejects(
      downloadSpec(specUrl(`${base}/big.yaml`), { maxBytes: 1024 }),
      /The document at http:\/\/127\.0\.0\.1:\d+\/big\.yaml is larger than 1 KB: download it and import the file\.$/,
    );
    const refs = specUrl(`${base}/refs.yaml`);
    await assert.rejects(importFetchedSpec(await downloadSpec(refs), refs), (e: unknown) => {
      assert.ok(e instanceof ImportError);
      assert.equal(e.source, refs.href);
      assert.match(e.detail, /other\.yaml.*a document fetched from a URL cannot bring in other files/);
      return true;
    });
  });
});
