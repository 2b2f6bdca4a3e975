// Google's classic web services on the maps sandbox (maps.googleapis.com/maps/api/*): keys, statuses
// and the geocoder, checked with plain HTTP requests as the classic client libraries send them.
import * as assert from 'node:assert/strict';
import { classic } from './classicHelpers';
import { KEY, raw, startSandbox, type MapsSandbox } from './helpers';

describe('maps sandbox: classic web services, keys and quota', function () {
  this.timeout(20_000);
  let sb: MapsSandbox;
  before(async () => {
    sb = await startSandbox({ limit: 3, windowMs: 60_000 });
  });
  after(() => sb.close());

  it('a missing key, a key only in X-Goog-Api-Key and a wrong key are REQUEST_DENIED with HTTP 200 and Google’s messages', async () => {
    const missing = await classic(sb, 'geocode', { address: 'Lisbon' }, null);
    assert.equal(missing.status, 200);
    assert.deepEqual(missing.json, {
      results: [],
      error_message:
        'You must use an API key to authenticate each request to Google Maps Platform APIs. For additional information, please refer to http://g.co/dev/maps-no-account',
      status: 'REQUEST_DENIED',
    });
    // The classic services read the key from the query only (their documented place for it).
    const header = await classic(sb, 'geocode', { address: 'Lisbon' }, null, { 'X-Goog-Api-Key': KEY });
    assert.equal(header.json.status, 'REQUEST_DENIED');
    const wrong = await classic(sb, 'directions', { origin: 'Lisbon', destination: 'Porto' }, 'AIzaWrongKey');
    assert.equal(wrong.status, 200);
    assert.deepEqual(wrong.json, { geocoded_waypoints: [], routes: [], error_message: 'The provided API key is invalid.', status: 'REQUEST_DENIED' });
  });

  it('past the sandbox’s rate limit (shared with the new APIs) answers OVER_QUERY_LIMIT with HTTP 200', async () => {
    assert.equal((await classic(sb, 'geocode', { address: 'Lisbon' })).json.status, 'OK');
    assert.equal((await raw(sb, '/v4/geocode/address/Lisbon', { headers: { 'X-Goog-Api-Key': KEY } })).status, 200);
    assert.equal((await classic(sb, 'place/autocomplete', { input: 'Lisb' })).json.status, 'OK');
    const over = await classic(sb, 'distancematrix', { origins: 'Lisbon', destinations: 'Porto' });
    assert.equal(over.status, 200);
    assert.deepEqual(over.json, {
      destination_addresses: [],
      origin_addresses: [],
      rows: [],
      error_message: 'You have exceeded your rate-limit for this API.',
      status: 'OVER_QUERY_LIMIT',
    });
  });
});

describe('maps sandbox: classic Geocoding', function () {
  this.timeout(20_000);
  let sb: MapsSandbox;
  before(async () => {
    sb = await startSandbox();
  });
  after(() => sb.close());

  it('forward: address= gives the same place as Geocoding v4, in the classic shape', async () => {
    const r = await classic(sb, 'geocode', { address: 'Lisbon' });
    assert.equal(r.status, 200);
    assert.equal(r.json.status, 'OK');
    const first = r.json.results[0];
    assert.equal(first.formatted_address, 'Lisbon, Portugal');
    assert.ok(Math.abs(first.geometry.location.lat - 38.72) < 0.05 && Math.abs(first.geometry.location.lng + 9.14) < 0.05, JSON.stringify(first.geometry));
    assert.equal(first.geometry.location_type, 'APPROXIMATE');
    assert.ok(first.geometry.viewport.northeast.lat > first.geometry.viewport.southwest.lat);
    assert.deepEqual(first.types, ['locality', 'political']);
    assert.deepEqual(first.address_components.at(-1), { long_name: 'Portugal', short_name: 'PT', types: ['country', 'political'] });
    const v4 = await raw(sb, '/v4/geocode/address/Lisbon', { headers: { 'X-Goog-Api-Key': KEY } });
    assert.equal(first.place_id, (v4.json.results as Array<{ placeId: string }>)[0].placeId);
  });

  it('reverse (latlng=) and by place_id= find that place again; components= alone is a structured address', async () => {
    const forward = (await classic(sb, 'geocode', { address: 'Lisbon' })).json.results[0];
    const reverse = await classic(sb, 'geocode', { latlng: '38.7223,-9.1393' });
    assert.equal(reverse.json.status, 'OK');
    assert.equal(reverse.json.results[0].place_id, forward.place_id);
    const byId = await classic(sb, 'geocode', { place_id: forward.place_id });
    assert.equal(byId.json.status, 'OK');
    assert.equal(byId.json.results[0].formatted_address, 'Lisbon, Portugal');
    const components = await classic(sb, 'geocode', { components: 'locality:Porto|country:PT' });
    assert.equal(components.json.status, 'OK');
    assert.equal(components.json.results[0].formatted_address, 'Porto, Portugal');
  });

  it('ZERO_RESULTS for an unknown address, the middle of an ocean and an unknown place id', async () => {
    const cases: Array<Record<string, string>> = [{ address: 'Qxzzyplorkvillezz' }, { latlng: '0,-30' }, { place_id: 'ChIJdW5rbm93bg' }];
    for (const params of cases) {
      const r = await classic(sb, 'geocode', params);
      assert.equal(r.status, 200);
      assert.deepEqual(r.json, { results: [], status: 'ZERO_RESULTS' }, JSON.stringify(params));
    }
  });

  it('INVALID_REQUEST with error_message for a missing or malformed parameter', async () => {
    const none = await classic(sb, 'geocode', {});
    assert.equal(none.status, 200);
    assert.deepEqual(none.json, {
      results: [],
      error_message: "Invalid request. Missing the 'address', 'components', 'latlng' or 'place_id' parameter.",
      status: 'INVALID_REQUEST',
    });
    const latlng = await classic(sb, 'geocode', { latlng: '95,10' });
    assert.equal(latlng.json.status, 'INVALID_REQUEST');
    assert.equal(latlng.json.error_message, "Invalid request. Invalid 'latlng' parameter.");
  });
});
