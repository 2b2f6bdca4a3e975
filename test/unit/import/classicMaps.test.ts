// Google's classic Maps web services (maps.googleapis.com/maps/api/…) in and out of notebooks: an
// imported request becomes a maps cell (its ?key= taken out and offered to store) that runs on a
// maps connection, and the export writes classic paths to the host and key parameter the
// connection itself uses (classicMapsBaseUrl), not to the Places host.
import * as assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import {
  cellToCurl,
  connectionsHost,
  exportHttpFile,
  importCurl,
  importPostman,
  parseNotebook,
  runNotebook,
  sandboxConnections,
} from '../../../src/notebook/api';
import { knownConnectionsOf } from '../../../src/notebook/import/classify';
import type { HttpConnection } from '../../../src/core/connections';

const KEY = 'AIzaSyClassicImportTestKey0123456789abc';
const GEOCODE = `https://maps.googleapis.com/maps/api/geocode/json?address=Lisbon&key=${KEY}`;

const codeCells = (text: string) => parseNotebook(text).cells.filter((c) => c.kind === 'code');

describe('import and export: the classic Maps web services', function () {
  this.timeout(30_000);

  it('a classic request becomes a maps cell without its key, which is offered to store', () => {
    const r = importCurl(`curl '${GEOCODE}'`);
    const [cell] = codeCells(r.text);
    assert.equal(cell.language, 'maps');
    assert.equal(cell.value.split('\n')[0], 'GET /maps/api/geocode/json?address=Lisbon');
    assert.ok(!r.text.includes(KEY) && !r.report.join('\n').includes(KEY), 'the key stays out of the notebook and the report');
    assert.deepEqual(r.secrets, [{ service: 'maps', origin: 'https://maps.googleapis.com', param: 'key', value: KEY }]);
    // Postman too (the request named after its URL, masked).
    const p = importPostman(
      JSON.stringify({
        info: { name: 'c', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
        item: [{ name: 'geocode', request: { method: 'GET', url: GEOCODE } }],
      }),
    );
    assert.equal(codeCells(p.text)[0].language, 'maps');
    assert.equal(p.secrets[0].value, KEY);
  });

  it('a maps.googleapis.com path outside the classic services stays an http cell, saying why', () => {
    const r = importCurl(`curl 'https://maps.googleapis.com/other/thing?key=${KEY}'`);
    assert.equal(codeCells(r.text)[0].language, 'http');
    assert.ok(
      r.report.some((l) => l.includes('is not one of the classic Maps web services')),
      r.report.join('\n'),
    );
  });

  it('a Google maps connection covers the classic host: the cell is relative to it', () => {
    const google: HttpConnection = {
      service: 'maps',
      name: 'Google',
      baseUrl: 'https://places.googleapis.com',
      baseUrls: { routes: 'https://routes.googleapis.com' },
      auth: { placement: 'header', name: 'X-Goog-Api-Key' },
      timeoutMs: 30_000,
      rateLimitPerMinute: 60,
      modelRateLimits: {},
      listing: 'service',
      source: 'settings',
    };
    const known = knownConnectionsOf([google]);
    assert.ok(known.some((k) => k.baseUrl === 'https://maps.googleapis.com'));
    const r = importCurl(`curl '${GEOCODE}'`, { connections: known });
    assert.equal(codeCells(r.text)[0].value.split('\n')[0], 'GET /maps/api/geocode/json?address=Lisbon');
  });

  describe('on the sandbox', () => {
    let sandbox: Sandbox;
    before(async () => {
      sandbox = await startSandbox({
        port: 0,
        llmKey: 'sk-sandbox-classic-key-0123456789',
        mapsKey: 'AIzaSandboxClassicKey0123456789',
        llm: { tokenRate: 0 },
        realtime: { appId: '778', key: 'classicpublickey', secret: 'classic-app-secret-0123456789', demo: false },
      });
    });
    after(() => sandbox.close());

    it('the imported classic cell runs on a maps connection (the key from the connection, in ?key=)', async () => {
      const r = importCurl(`curl '${GEOCODE}'`);
      const { connections, key } = sandboxConnections(sandbox.info);
      const text = r.text.replace('\n```\n', '\n\n?? status == 200\n?? json.status == OK\n```\n');
      const report = await runNotebook(text, { host: connectionsHost({ connections, key }), file: 'classic.awb.md' });
      assert.deepEqual(report.problems, []);
      const [res] = report.results;
      assert.equal(res.ok, true, JSON.stringify({ error: res.error, status: res.response?.status, body: res.response?.text.slice(0, 300) }));
    });
  });

  it('export: a classic path goes to the classic host with the key as ?key=, as the connection sends it', () => {
    const notebook = '```maps name=geo\nGET /maps/api/geocode/json?address=Lisbon\n```\n';
    const http = exportHttpFile(notebook);
    assert.match(http, /GET https:\/\/maps\.googleapis\.com\/maps\/api\/geocode\/json\?address=Lisbon&key=\{\{\$processEnv GOOGLE_MAPS_API_KEY\}\}\n/);
    assert.doesNotMatch(http, /X-Goog-Api-Key/, 'the classic services take the key only in ?key=');
    const curl = cellToCurl(parseNotebook(notebook).cells[0])!;
    assert.equal(curl, `curl 'https://maps.googleapis.com/maps/api/geocode/json?address=Lisbon'"&key=$GOOGLE_MAPS_API_KEY"`);
    // A connection with a classic host of its own (a proxy): that one.
    const proxied = exportHttpFile(notebook, {
      maps: {
        baseUrl: 'https://maps-proxy.example.com',
        baseUrls: { classic: 'https://classic-proxy.example.com' },
        auth: { placement: 'header', name: 'X-Goog-Api-Key' },
      },
    });
    assert.match(proxied, /GET https:\/\/classic-proxy\.example\.com\/maps\/api\/geocode\/json\?address=Lisbon&key=/);
    // The new APIs are unchanged: their own hosts, the key in the header.
    assert.match(
      exportHttpFile('```maps\nPOST /v1/places:searchText\n```\n'),
      /POST https:\/\/places\.googleapis\.com\/v1\/places:searchText\nX-Goog-Api-Key: /,
    );
  });
});
