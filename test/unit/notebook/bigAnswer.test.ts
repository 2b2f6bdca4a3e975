import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpConnectionFromSetting } from '../../../src/core/connections';
import { MASK, Redactor } from '../../../src/core/redact';
import { TimeSlicer } from '../../../src/core/timeSlicer';
import { connectionsHost, createRunner, parseNotebook, type CellResult } from '../../../src/notebook/api';

const KEY = 'AIzaBigAnswerTestKey0000000000000';
const PLACES = 70_000;

/** About 20 MB of maps-shaped JSON; place 3 carries the key, as an echoing service might. */
function bigBody(): Buffer {
  const parts: string[] = [];
  for (let i = 0; i < PLACES; i++) {
    parts.push(
      JSON.stringify({
        id: `place_${i}`,
        displayName: { text: `Place number ${i}`, languageCode: 'en' },
        formattedAddress: `${i} Long Street Name, Springfield, IL 62701, USA`,
        location: { latitude: 39.78 + (i % 1000) / 1e4, longitude: -89.65 - (i % 977) / 1e4 },
        types: ['point_of_interest', 'establishment', 'store'],
        rating: 4.2,
        userRatingCount: i % 5000,
        ...(i === 3 ? { note: `requested with ${KEY}` } : {}),
      }),
    );
  }
  return Buffer.from(`{"places":[${parts.join(',')}]}`);
}

describe('notebook engine: a 20 MB JSON answer', function () {
  this.timeout(120_000);
  let server: Server;
  let port: number;
  let body: Buffer;

  before(async () => {
    body = bigBody();
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const small = /^\/v1\/places\/(place_\d+)$/.exec(req.url ?? '');
        const answer = small ? Buffer.from(JSON.stringify({ id: small[1], displayName: { text: `Echo of ${small[1]}` } })) : body;
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
        res.end(answer);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('assertions and variables read it, the key in it is masked, and the event loop keeps turning while it is parsed', async () => {
    assert.ok(body.length > 20 * 1024 * 1024 * 0.95, `${body.length} bytes`);
    const conn = httpConnectionFromSetting(
      'maps',
      { name: 'Big', baseUrl: `http://127.0.0.1:${port}`, auth: { placement: 'header', name: 'X-Goog-Api-Key' } },
      'settings',
    );
    if (typeof conn === 'string') throw new Error(conn);
    const redactor = new Redactor();
    const host = connectionsHost({ connections: [conn], key: () => KEY, redactor });
    const text = [
      '```maps name=big',
      'POST /v1/places:searchText',
      'Content-Type: application/json',
      '',
      '{"textQuery": "everything"}',
      '',
      '?? status == 200',
      `?? json.places.length == ${PLACES}`,
      `?? json.places[${PLACES - 1}].id == place_${PLACES - 1}`,
      '?? json.places[12345].location.latitude > 39',
      '?? json.places[0].displayName.text == "Not this one"',
      '```',
      '',
      '```maps name=one',
      'GET /v1/places/{{big.json.places[12345].id}}',
      '',
      '?? json.displayName.text == "Echo of place_12345"',
      '```',
      '',
    ].join('\n');
    const runner = createRunner(parseNotebook(text, 'big.awb.md').cells, { host, file: 'big.awb.md', maxBodyBytes: 64 * 1024 * 1024 });

    // The event loop keeps turning while the answer is parsed and redacted: each of those jobs works
    // in slices (a TimeSlicer of its own) and pauses between them, and a timer set at the first pause
    // runs before the cell is done. (How long the loop is held is a figure in `npm run bench`,
    // notebook big response, not a wall-clock assertion here.)
    const pausedJobs = new Set<TimeSlicer>();
    let ended = false;
    let timerRanFirst: boolean | undefined;
    const pause = Object.getOwnPropertyDescriptor(TimeSlicer.prototype, 'pause')?.value as (this: TimeSlicer) => Promise<void>;
    TimeSlicer.prototype.pause = function (this: TimeSlicer) {
      if (pausedJobs.size === 0) setTimeout(() => (timerRanFirst = !ended), 0);
      pausedJobs.add(this);
      return pause.call(this);
    };
    let big: CellResult;
    try {
      big = await runner.runCell(0);
    } finally {
      ended = true;
      TimeSlicer.prototype.pause = pause;
    }

    assert.equal(big.response?.size, body.length);
    assert.equal(big.response?.truncated, false);
    assert.deepEqual(
      big.assertions.map((a) => [a.source, a.passed, a.actual]),
      [
        ['?? status == 200', true, '200'],
        [`?? json.places.length == ${PLACES}`, true, String(PLACES)],
        [`?? json.places[${PLACES - 1}].id == place_${PLACES - 1}`, true, `place_${PLACES - 1}`],
        ['?? json.places[12345].location.latitude > 39', true, String(39.78 + 345 / 1e4)],
        ['?? json.places[0].displayName.text == "Not this one"', false, 'Place number 0'],
      ],
    );
    const places = (big.response?.json as { places: Array<{ note?: string }> }).places;
    assert.equal(places.length, PLACES);
    assert.equal(places[3].note, `requested with ${MASK}`);
    assert.ok(!big.response?.text.includes(KEY), 'the key is masked in the text');
    assert.ok(big.response?.text.includes(`"note":"requested with ${MASK}"`));
    assert.ok(pausedJobs.size >= 2, `the parse and the redaction each paused for the event loop (${pausedJobs.size} sliced job(s) did)`);
    assert.equal(timerRanFirst, true, 'a timer set while the answer was worked on ran before the cell was done');

    const one = await runner.runCell(1);
    assert.equal(one.ok, true, JSON.stringify(one.assertions));
    assert.equal(one.request?.url, `http://127.0.0.1:${port}/v1/places/place_12345`);
    runner.dispose();
  });
});
