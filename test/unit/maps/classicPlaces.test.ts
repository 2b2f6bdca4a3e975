// Classic Places on the maps sandbox (textsearch, nearbysearch, details, autocomplete): the same
// places as Places (New), in the classic shape, with Google's statuses.
import * as assert from 'node:assert/strict';
import { classic } from './classicHelpers';
import { KEY, raw, startSandbox, type MapsSandbox } from './helpers';

const LISBON = { lat: 38.7223, lng: -9.1393 };

/** Great-circle metres, enough to check a radius. */
function meters(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const h = Math.sin(rad(b.lat - a.lat) / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(rad(b.lng - a.lng) / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(h));
}

describe('maps sandbox: classic Places', function () {
  this.timeout(20_000);
  let sb: MapsSandbox;
  before(async () => {
    sb = await startSandbox();
  });
  after(() => sb.close());

  it('textsearch: the places of Text Search (New), in order, with formatted_address and a working next_page_token', async () => {
    const r = await classic(sb, 'place/textsearch', { query: 'pizza in Lisbon' });
    assert.equal(r.status, 200);
    assert.equal(r.json.status, 'OK');
    assert.deepEqual(r.json.html_attributions, []);
    const first = r.json.results[0];
    for (const field of ['name', 'formatted_address', 'geometry', 'place_id', 'types', 'rating', 'user_ratings_total']) assert.ok(field in first, field);
    assert.equal(first.vicinity, undefined);
    assert.ok(first.types.includes('pizza_restaurant'), JSON.stringify(first.types));
    const fresh = await raw(sb, '/v1/places:searchText', {
      body: { textQuery: 'pizza in Lisbon' },
      headers: { 'X-Goog-Api-Key': KEY, 'X-Goog-FieldMask': 'places.id' },
    });
    assert.deepEqual(
      r.json.results.map((p: { place_id: string }) => p.place_id),
      (fresh.json.places as Array<{ id: string }>).map((p) => p.id),
    );
    // A next-page request sends only the token.
    assert.ok(r.json.next_page_token);
    const next = await classic(sb, 'place/textsearch', { pagetoken: r.json.next_page_token });
    assert.equal(next.json.status, 'OK');
    assert.ok(next.json.results.length > 0);
    assert.ok(!next.json.results.some((p: { place_id: string }) => r.json.results.some((q: { place_id: string }) => q.place_id === p.place_id)));
  });

  it('textsearch: ZERO_RESULTS, and INVALID_REQUEST without a query or with a forged page token', async () => {
    assert.deepEqual((await classic(sb, 'place/textsearch', { query: 'Qxzzyplorkvillezz' })).json, {
      html_attributions: [],
      results: [],
      status: 'ZERO_RESULTS',
    });
    const none = await classic(sb, 'place/textsearch', {});
    assert.deepEqual(none.json, {
      html_attributions: [],
      results: [],
      error_message: "Invalid request. Missing the 'query' parameter.",
      status: 'INVALID_REQUEST',
    });
    assert.equal((await classic(sb, 'place/textsearch', { pagetoken: 'not-a-token' })).json.status, 'INVALID_REQUEST');
  });

  it('nearbysearch: location + radius + type keeps to the circle and gives vicinity; keyword searches as text does', async () => {
    const r = await classic(sb, 'place/nearbysearch', { location: `${LISBON.lat},${LISBON.lng}`, radius: '3000', type: 'restaurant' });
    assert.equal(r.json.status, 'OK');
    for (const p of r.json.results) {
      assert.ok(meters(LISBON, p.geometry.location) <= 3000, JSON.stringify(p.geometry));
      assert.ok(p.types.includes('restaurant'));
      assert.match(p.vicinity ?? '', /^[^,]+ \d+, [^,]+$/, 'street and number, then the town');
      assert.equal(p.formatted_address, undefined);
    }
    const keyword = await classic(sb, 'place/nearbysearch', { location: `${LISBON.lat},${LISBON.lng}`, radius: '5000', keyword: 'pizza' });
    assert.equal(keyword.json.status, 'OK');
    assert.ok(keyword.json.results.every((p: { types: string[] }) => p.types.includes('pizza_restaurant')));
  });

  it('nearbysearch: INVALID_REQUEST without location or radius, or with a radius over 50 km', async () => {
    const noLocation = await classic(sb, 'place/nearbysearch', { radius: '1000' });
    assert.equal(noLocation.json.error_message, "Invalid request. Missing the 'location' parameter.");
    const noRadius = await classic(sb, 'place/nearbysearch', { location: '38.72,-9.14' });
    assert.equal(noRadius.json.error_message, "Invalid request. Missing the 'radius' parameter.");
    const far = await classic(sb, 'place/nearbysearch', { location: '38.72,-9.14', radius: '60000' });
    assert.deepEqual(far.json, {
      html_attributions: [],
      results: [],
      error_message: "Invalid request. Invalid 'radius' parameter.",
      status: 'INVALID_REQUEST',
    });
  });

  it('details: a place by place_id, narrowed by fields (with "geometry/location"); NOT_FOUND and INVALID_REQUEST', async () => {
    const found = (await classic(sb, 'place/textsearch', { query: 'pizza in Lisbon' })).json.results[0];
    const all = await classic(sb, 'place/details', { place_id: found.place_id });
    assert.equal(all.json.status, 'OK');
    assert.equal(all.json.result.name, found.name);
    assert.ok(all.json.result.address_components.length >= 3);
    assert.match(all.json.result.url, /^https:\/\/www\.google\.com\/maps\//);
    const some = await classic(sb, 'place/details', { place_id: found.place_id, fields: 'name,rating,geometry/location' });
    assert.deepEqual(some.json, {
      html_attributions: [],
      result: { name: found.name, rating: found.rating, geometry: { location: found.geometry.location } },
      status: 'OK',
    });
    assert.deepEqual((await classic(sb, 'place/details', { place_id: 'ChIJdW5rbm93bg' })).json, { html_attributions: [], status: 'NOT_FOUND' });
    const missing = await classic(sb, 'place/details', {});
    assert.equal(missing.json.error_message, "Invalid request. Missing the 'place_id' parameter.");
    const field = await classic(sb, 'place/details', { place_id: found.place_id, fields: 'name,colour' });
    assert.equal(field.json.status, 'INVALID_REQUEST');
    assert.match(field.json.error_message ?? '', /Unsupported field name 'colour'/);
  });

  it('autocomplete: predictions with matched substrings and terms; ZERO_RESULTS; INVALID_REQUEST without input', async () => {
    const r = await classic(sb, 'place/autocomplete', { input: 'Lisb' });
    assert.equal(r.json.status, 'OK');
    const first = r.json.predictions[0];
    assert.equal(first.description, 'Lisbon, Portugal');
    assert.deepEqual(first.matched_substrings, [{ length: 4, offset: 0 }]);
    assert.deepEqual(first.structured_formatting, {
      main_text: 'Lisbon',
      main_text_matched_substrings: [{ length: 4, offset: 0 }],
      secondary_text: 'Portugal',
    });
    assert.deepEqual(first.terms, [
      { offset: 0, value: 'Lisbon' },
      { offset: 8, value: 'Portugal' },
    ]);
    const details = await classic(sb, 'place/details', { place_id: first.place_id, fields: 'formatted_address' });
    assert.equal(details.json.result.formatted_address, 'Lisbon, Portugal');
    const pt = await classic(sb, 'place/autocomplete', { input: 'Lisb', components: 'country:us' });
    assert.ok(
      pt.json.predictions.every((p: { description: string }) => p.description.endsWith('USA')),
      JSON.stringify(pt.json.predictions),
    );
    assert.deepEqual((await classic(sb, 'place/autocomplete', { input: 'Qxzzyplorkvillezz' })).json, { predictions: [], status: 'ZERO_RESULTS' });
    const none = await classic(sb, 'place/autocomplete', {});
    assert.deepEqual(none.json, { predictions: [], error_message: "Invalid request. Missing the 'input' parameter.", status: 'INVALID_REQUEST' });
  });
});
