// A notebook `maps` cell on a classic path (/maps/api/…): against the sandbox connection it runs on
// the sandbox's port with the key in `?key=`, masked in what is recorded; against a Google
// connection it goes to maps.googleapis.com, the key again in `?key=` and not in a header.
import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/core/errors';
import { connectionOrigins, parseConnectionsSetting, type HttpConnection } from '../../../src/core/connections';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { connectionsHost, defaultHttpClient, runNotebook, sandboxConnections, type NotebookHost } from '../../../src/notebook/api';

const MAPS_KEY = 'AIzaSandboxClassicNotebookKey0123456789';
const cell = (body: string) => `Geocode.\n\n\`\`\`maps\n${body}\n\`\`\`\n`;

describe('notebook maps cell on a classic web service path', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ port: 0, mapsKey: MAPS_KEY, llm: { tokenRate: 0 }, realtime: { demo: false } });
  });
  after(() => sandbox.close());

  it('runs GET /maps/api/geocode/json?address=Lisbon against the sandbox; the key is sent as ?key= and never recorded', async () => {
    const { connections, key } = sandboxConnections(sandbox.info);
    const host = connectionsHost({ connections, key });
    const report = await runNotebook(
      cell('GET /maps/api/geocode/json?address=Lisbon\n\n?? status == 200\n?? json.status == OK\n?? json.results[0].formatted_address == Lisbon, Portugal'),
      { host, file: 'classic.awb.md' },
    );
    const [r] = report.results;
    // status OK: the key reached the sandbox in ?key= (a classic service answers REQUEST_DENIED otherwise).
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.request?.url, `${sandbox.info.maps.baseUrl}/maps/api/geocode/json?address=Lisbon`);
    assert.equal(r.request?.headers['x-goog-api-key'], undefined, 'no key header on a classic path');
    assert.ok(!JSON.stringify(report).includes(MAPS_KEY), 'the key appears nowhere in the report');
  });

  it('on a Google connection, a classic path goes to https://maps.googleapis.com with the key in ?key=', async () => {
    const { connections } = parseConnectionsSetting('maps', [
      {
        name: 'Google',
        baseUrl: 'https://places.googleapis.com',
        baseUrls: { places: 'https://places.googleapis.com', routes: 'https://routes.googleapis.com' },
      },
    ]);
    const google = connections[0] as HttpConnection;
    assert.ok(connectionOrigins(google).includes('https://maps.googleapis.com'));
    const asked: string[] = [];
    const placements: unknown[] = [];
    const base = connectionsHost({ connections, key: () => 'AIzaNeverSent' });
    // Nothing leaves the machine: the key is refused at the moment it is asked for, with the URL it was for.
    const host: NotebookHost = {
      ...base,
      credentials: ({ url }) => {
        asked.push(String(url));
        return Promise.reject(new ApiError({ kind: 'auth', service: 'Maps (Google)', code: 'origin_not_approved', message: 'stopped by the test' }));
      },
      httpClient: (connection, options) => {
        placements.push(connection.auth);
        return defaultHttpClient(connection, options);
      },
    };
    await runNotebook(
      cell('GET /maps/api/geocode/json?address=Lisbon') + cell('POST /v1/places:searchText\nX-Goog-FieldMask: places.id\n\n{"textQuery": "Lisbon"}'),
      {
        host,
        file: 'google.awb.md',
      },
    );
    assert.deepEqual([...new Set(asked.map((u) => new URL(u).origin))], ['https://maps.googleapis.com', 'https://places.googleapis.com']);
    assert.deepEqual(
      [...new Map(placements.map((p) => [JSON.stringify(p), p])).values()],
      [
        { placement: 'query', name: 'key' },
        { placement: 'header', name: 'X-Goog-Api-Key' },
      ],
    );
  });
});
