// The editor's maps logic that needs no editor: typed text as a place, the autocomplete session
// (debounce, abort, one token ended by Place Details) against the real sandbox and a slow server,
// the SKU price table and session cost, the matrix table, and what an empty result says.
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OutgoingRequest } from '../../../src/core/http';
import { dollars, priceTable, SessionCosts, skuLabel } from '../../../src/features/maps/costs';
import { emptyResultText } from '../../../src/features/maps/emptyResults';
import { drawRoutesAction, matrixHtml, matrixMarkdown, matrixRows } from '../../../src/features/maps/matrixTable';
import { AutocompleteSession, parseTypedPlace, typedItem } from '../../../src/features/maps/placeQuery';
import { MapsClient } from '../../../src/services/maps/client';
import { fieldMaskFor } from '../../../src/services/maps/fieldMasks';
import { DEFAULT_SKU_PRICES, skuOf } from '../../../src/services/maps/sku';
import { within } from '../helpers/util';
import { httpClient, mapsClient, startSandbox, type MapsSandbox } from './helpers';

describe('maps editor: place picker text', () => {
  it('reads coordinates, place ids and addresses from typed text', () => {
    assert.deepEqual(parseTypedPlace('45.76,4.83'), { kind: 'latLng', latLng: { latitude: 45.76, longitude: 4.83 }, text: '45.76,4.83' });
    assert.deepEqual(parseTypedPlace(' (45.76, -4.83) ')?.kind, 'latLng');
    assert.deepEqual(parseTypedPlace('Lyon, France'), { kind: 'address', address: 'Lyon, France', text: 'Lyon, France' });
    assert.deepEqual(parseTypedPlace('place:ChIJabc'), { kind: 'place', placeId: 'ChIJabc', text: 'place:ChIJabc' });
    assert.deepEqual(parseTypedPlace('places/ChIJabc')?.kind, 'place');
    // Off the globe: not coordinates, so it is an address the service may still understand.
    assert.equal(parseTypedPlace('95.1, 4.8')?.kind, 'address');
    assert.equal(parseTypedPlace('   '), undefined);
  });

  it('offers the typed text itself as an item', () => {
    assert.deepEqual(typedItem(parseTypedPlace('Lyon, France')!), { label: '$(edit) Use as typed', description: '“Lyon, France” (an address)' });
    assert.deepEqual(typedItem(parseTypedPlace('45.76,4.83')!), { label: '$(pin) Use as coordinates', description: '45.76, 4.83' });
  });
});

describe('maps editor: autocomplete session against the sandbox', function () {
  this.timeout(20_000);
  let sb: MapsSandbox;
  let sent: OutgoingRequest[];
  let maps: MapsClient;
  before(async () => {
    sb = await startSandbox();
  });
  beforeEach(() => {
    sent = [];
    maps = new MapsClient(httpClient(sb, { onRequest: (r) => sent.push(r) }));
  });
  after(() => sb.close());

  const tokenOf = (r: OutgoingRequest) =>
    r.body ? (JSON.parse(r.body) as { sessionToken?: string }).sessionToken : new URL(r.url).searchParams.get('sessionToken');

  it('debounces keystrokes into one request and carries its token into the details call that ends the session', async () => {
    const heard: number[] = [];
    const session = new AutocompleteSession(maps, { debounceMs: 30, onAutocomplete: (n) => heard.push(n) });
    const first = session.suggest('L');
    const second = session.suggest('Ly');
    const third = session.suggest('Lyon');
    assert.equal(await first, undefined, 'superseded while waiting');
    assert.equal(await second, undefined);
    const suggestions = await third;
    assert.ok(suggestions?.length, 'suggestions for Lyon');
    assert.equal(suggestions[0].label, 'Lyon');
    assert.equal(suggestions[0].description, 'France');
    assert.equal(sent.length, 1, 'one request for three keystrokes');
    const more = await session.suggest('Lyon, Fr');
    assert.ok(more?.length);
    assert.deepEqual(heard, [1, 2]);
    const token = session.sessionToken;
    assert.equal(tokenOf(sent[0]), token);
    assert.equal(tokenOf(sent[1]), token, 'the same session token on every request of the session');

    const details = await session.details(suggestions[0].placeId, { fieldMask: 'id,formattedAddress,location' });
    assert.equal(details.sessionToken, token);
    assert.equal(details.autocompleteRequests, 2);
    assert.equal(details.data.formattedAddress, 'Lyon, France');
    assert.ok(details.data.location);
    const get = sent[2];
    assert.equal(get.method, 'GET');
    assert.match(get.url, new RegExp(`/v1/places/${suggestions[0].placeId}\\?`));
    assert.equal(tokenOf(get), token, 'details carries the token');
    assert.equal(get.headers['X-Goog-FieldMask'], 'id,formattedAddress,location');

    // The session ended: the next keystroke starts a new one.
    await session.suggest('Paris');
    assert.notEqual(tokenOf(sent[3]), token);
    assert.equal(tokenOf(sent[3]), session.sessionToken);
    session.dispose();
  });

  it('asks nothing for coordinates or empty text', async () => {
    const session = new AutocompleteSession(maps, { debounceMs: 0 });
    assert.equal(await session.suggest('45.76, 4.83'), undefined);
    assert.equal(await session.suggest('  '), undefined);
    assert.equal(sent.length, 0);
  });

  it('keeps a refused request (wrong key) for the picker to say, instead of suggesting nothing silently', async () => {
    const session = new AutocompleteSession(mapsClient(sb, {}, 'AIzaWrongKeyForTheSession000000'), { debounceMs: 0 });
    assert.equal(await session.suggest('Lyon'), undefined);
    const failure = session.takeFailure();
    assert.match(String((failure as Error).message), /API key|PERMISSION_DENIED|401|403/);
  });
});

describe('maps editor: a superseded autocomplete request is aborted', () => {
  let server: Server;
  const closedEarly: string[] = [];
  /** Inputs of the requests that arrived, and who waits for one. */
  const arrived: string[] = [];
  let onArrival: () => void = () => undefined;
  before(async () => {
    // Slow on purpose, without a timer: it answers one request at a time, each once the request before
    // it is over, and never answers the first on its own. So the next keystroke arrives while the first
    // is in flight, and is answered only if the first went away.
    let previous: Promise<void> = new Promise<void>(() => undefined);
    let first = true;
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const input = (JSON.parse(body) as { input: string }).input;
        const over = new Promise<void>((r) => res.on('close', () => r()));
        res.on('close', () => {
          if (!res.writableFinished) closedEarly.push(input);
        });
        const wait = first ? new Promise<void>(() => undefined) : previous;
        first = false;
        previous = over;
        void wait.then(() => {
          if (res.destroyed) return;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ suggestions: [{ placePrediction: { placeId: `id-${input}`, text: { text: input } } }] }));
        });
        arrived.push(input);
        onArrival();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('aborts the request in flight when a newer keystroke is sent', async () => {
    const port = (server.address() as AddressInfo).port;
    const maps = new MapsClient(httpClient({ baseUrl: `http://127.0.0.1:${port}` } as MapsSandbox));
    const session = new AutocompleteSession(maps, { debounceMs: 0 });
    const old = session.suggest('Lyo');
    // The first request is at the server (and held there) before the next keystroke.
    if (!arrived.includes('Lyo')) await within(new Promise<void>((r) => (onArrival = () => arrived.includes('Lyo') && r())), 'the first request at the server');
    const latest = await within(session.suggest('Lyon'), 'the newer suggestion (answered once the first request has gone away)');
    assert.equal(await old, undefined, 'the superseded answer is dropped');
    assert.deepEqual(
      latest?.map((s) => s.placeId),
      ['id-Lyon'],
    );
    assert.deepEqual(closedEarly, ['Lyo'], 'the server saw the older request go away unanswered');
    assert.equal(session.takeFailure(), undefined, 'an abort is no failure');
  });
});

describe('maps editor: SKU prices and session cost', () => {
  it('the user table overrides the defaults; junk is ignored', () => {
    const t = priceTable({ 'Place Details Pro': 20, 'Text Search Pro': -1, 'Nearby Search Pro': 'cheap' });
    assert.equal(t['Place Details Pro'], 20);
    assert.equal(t['Text Search Pro'], DEFAULT_SKU_PRICES['Text Search Pro']);
    assert.equal(t['Nearby Search Pro'], DEFAULT_SKU_PRICES['Nearby Search Pro']);
  });

  it('labels each preset mask with its SKU and price', () => {
    const label = (op: 'getPlace' | 'searchText' | 'computeRouteMatrix', preset: 'basic' | 'everything') => skuLabel(skuOf(op, fieldMaskFor(op, { preset })));
    // The basic preset asks for rating (an Enterprise field); "*" is every field.
    assert.equal(label('getPlace', 'basic'), 'Place Details Enterprise · $20.00 / 1,000');
    assert.equal(label('getPlace', 'everything'), 'Place Details Enterprise + Atmosphere · $25.00 / 1,000');
    assert.equal(skuLabel(skuOf('getPlace', 'id,formattedAddress,location')), 'Place Details Essentials · $5.00 / 1,000');
    assert.equal(label('computeRouteMatrix', 'everything'), 'Compute Route Matrix Essentials · $5.00 / 1,000 elements');
  });

  it('adds up this session per SKU, matrix elements counted as units, at the current prices', () => {
    let prices: Record<string, number> = priceTable({});
    const costs = new SessionCosts(() => prices);
    let changes = 0;
    costs.onDidChange(() => changes++);
    costs.record('getPlace', 'id,formattedAddress,location');
    costs.record('getPlace', 'id,formattedAddress,location');
    costs.record('computeRouteMatrix', 'originIndex,destinationIndex,duration', { travelMode: 'DRIVE' }, 6);
    for (let n = 1; n <= 13; n++) costs.record('autocomplete', 'suggestions.placePrediction', { sessionRequestNumber: n });
    assert.equal(changes, 16);
    assert.equal(costs.requests, 16);
    const lines = Object.fromEntries(costs.list().map((l) => [l.sku, l]));
    assert.equal(lines['Place Details Essentials'].count, 2);
    assert.equal(lines['Compute Route Matrix Essentials'].units, 6);
    assert.equal(lines['Autocomplete Requests'].count, 12);
    assert.equal(lines['Autocomplete Session Usage'].cost, 0, 'the 13th request of a session is free');
    const expected = (2 * 5 + 6 * 5 + 12 * 2.83) / 1000;
    assert.ok(Math.abs(costs.total - expected) < 1e-9, `${costs.total} vs ${expected}`);
    assert.equal(costs.summary(), `16 requests · ≈ ${dollars(expected)}`);
    prices = priceTable({ 'Place Details Essentials': 50 });
    costs.record('getPlace', 'id,location');
    assert.equal(Object.fromEntries(costs.list().map((l) => [l.sku, l]))['Place Details Essentials'].cost, (3 * 50) / 1000);
  });
});

describe('maps editor: route matrix table and empty results', () => {
  it('one row per pair in origin/destination order, with what failed', () => {
    const rows = matrixRows(
      [
        { originIndex: 1, destinationIndex: 0, condition: 'ROUTE_NOT_FOUND' },
        { originIndex: 0, destinationIndex: 1, condition: 'ROUTE_EXISTS', distanceMeters: 465_300, duration: '16200s' },
        { originIndex: 0, destinationIndex: 0, status: { code: 3, message: 'bad waypoint' } },
        { originIndex: 1, destinationIndex: 1, condition: 'ROUTE_EXISTS', distanceMeters: 800, duration: '120s', status: {} },
      ],
      ['Lyon', 'Paris <b>'],
      ['Marseille', 'Nice'],
    );
    assert.deepEqual(
      rows.map((r) => [r.origin, r.destination, r.distance, r.duration, r.condition]),
      [
        ['Lyon', 'Marseille', '—', '—', 'error: bad waypoint'],
        ['Lyon', 'Nice', '465 km', '4 h 30 min', 'ROUTE_EXISTS'],
        ['Paris <b>', 'Marseille', '—', '—', 'ROUTE_NOT_FOUND'],
        ['Paris <b>', 'Nice', '800 m', '2 min', 'ROUTE_EXISTS'],
      ],
    );
    const html = matrixHtml('Route matrix', '2 of 4', rows, 'n0nce');
    assert.ok(html.includes('Paris &lt;b&gt;') && !html.includes('Paris <b>'), 'names are escaped');
    assert.match(html, /content="default-src 'none'; style-src 'nonce-n0nce'"/);
    assert.ok(!/<script/i.test(html));
    assert.ok(!html.includes('command:'), 'no action unless one is given');
    const withAction = matrixHtml('Route matrix', '2 of 4', rows, 'n0nce', drawRoutesAction(2, 'Compute Routes Essentials'));
    assert.match(
      withAction,
      /<a class="action" href="command:apiWorkbench\.maps\.drawMatrixRoutes" title="[^"]*\(Compute Routes Essentials each\)">Draw actual routes \(2 route requests, billed\)<\/a>/,
    );
    assert.ok(!/<script/i.test(withAction));
    assert.match(matrixMarkdown(rows), /^\| Origin \| Destination \| Distance \| Duration \| Condition \|\n\|---\|/);
  });

  it('an empty result says what was searched, and against the sandbox what it knows', () => {
    const searched = 'No places found for “pizza in Atlantis” (Text Search).';
    assert.equal(emptyResultText(searched, false), searched);
    const text = emptyResultText(searched, true);
    assert.ok(text.startsWith(searched));
    assert.match(text, /at least 5,000 inhabitants/);
    for (const kind of ['pizza', 'cafe', 'museum', 'hotel', 'pharmacy']) assert.ok(text.includes(kind), kind);
  });
});
