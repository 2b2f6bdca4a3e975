// Autocomplete → Place Details in one session, kinds of places ("pizza in Mountain View") in text
// and nearby search, and the streamed route matrix, against the real sandbox.
import * as assert from 'node:assert/strict';
import { MapsClient, newSessionToken } from '../../../src/services/maps/client';
import { KNOWN_PLACE_KINDS } from '../../../src/sandbox/maps/kinds';
import { PLACE_FIELD_TIERS, skuOf } from '../../../src/services/maps/sku';
import { apiErrorOf } from '../helpers/util';
import { KEY, mapsClient, raw, startSandbox, type MapsSandbox } from './helpers';

const MOUNTAIN_VIEW = { latitude: 37.38605, longitude: -122.08385 };

describe('maps: autocomplete, kinds of places, route matrix', function () {
  this.timeout(20_000);
  let sb: MapsSandbox;
  let maps: MapsClient;
  before(async () => {
    sb = await startSandbox();
    maps = mapsClient(sb);
  });
  after(() => sb.close());

  it('autocomplete predicts cities from a prefix, with matches and structured text', async () => {
    const token = newSessionToken();
    assert.match(token, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const r = await maps.autocomplete({ input: 'San Fran', sessionToken: token, includedRegionCodes: ['us'] });
    const first = r.data.suggestions?.[0]?.placePrediction;
    assert.ok(first);
    assert.equal(first.text?.text, 'San Francisco, CA, USA');
    assert.deepEqual(first.text?.matches, [{ endOffset: 3 }, { startOffset: 4, endOffset: 8 }]);
    assert.equal(first.structuredFormat?.mainText?.text, 'San Francisco');
    assert.equal(first.structuredFormat?.secondaryText?.text, 'CA, USA');
    assert.equal(first.place, `places/${first.placeId}`);
    assert.ok(first.types?.includes('locality'));
    const again = await maps.autocomplete({ input: 'San Fran', sessionToken: token, includedRegionCodes: ['us'] });
    assert.deepEqual(again.data, r.data, 'deterministic');
    const french = await maps.autocomplete({ input: 'San', includedRegionCodes: ['FR'] });
    assert.ok((french.data.suggestions ?? []).every((s) => s.placePrediction?.text?.text?.endsWith('France')));
  });

  it('autocomplete → details with the same session token and a mask returns only the masked fields', async () => {
    const token = newSessionToken();
    const r = await maps.autocomplete({ input: 'pizza in Mountain V', sessionToken: token, origin: MOUNTAIN_VIEW });
    const suggestions = r.data.suggestions ?? [];
    assert.ok(suggestions.length >= 3, 'several pizza places');
    const p = suggestions[0].placePrediction!;
    assert.ok(p.types?.includes('pizza_restaurant'));
    assert.match(p.structuredFormat?.secondaryText?.text ?? '', /Mountain View, CA, USA$/);
    assert.ok((p.distanceMeters ?? 1e9) < 10_000);
    const details = await maps.getPlace(p.placeId!, { sessionToken: token, fieldMask: 'id,displayName,formattedAddress,rating' });
    assert.deepEqual(Object.keys(details.data).sort(), ['displayName', 'formattedAddress', 'id', 'rating']);
    assert.equal(details.data.id, p.placeId);
    assert.equal(details.data.displayName?.text, p.structuredFormat?.mainText?.text);
    assert.match(details.data.formattedAddress ?? '', /^\d+ .+, Mountain View, CA, USA$/);
  });

  it('autocomplete without input is a 400 in Google error shape; a bad session token too', async () => {
    const missing = await raw(sb, '/v1/places:autocomplete', { body: { sessionToken: 'abc' }, headers: { 'X-Goog-Api-Key': KEY } });
    assert.equal(missing.status, 400);
    assert.equal(missing.json.error?.status, 'INVALID_ARGUMENT');
    assert.equal(missing.json.error?.code, 400);
    const badToken = await raw(sb, '/v1/places:autocomplete', { body: { input: 'Lyon', sessionToken: 'not a token!' }, headers: { 'X-Goog-Api-Key': KEY } });
    assert.equal(badToken.status, 400);
    const detailsBadToken = await raw(sb, '/v1/places/ChIJx?sessionToken=has%20space', { headers: { 'X-Goog-Api-Key': KEY, 'X-Goog-FieldMask': 'id' } });
    assert.equal(detailsBadToken.status, 400);
  });

  it('text search finds kinds of places in a city, deterministic, with hours, price and rating', async () => {
    const mask =
      'places.id,places.displayName,places.formattedAddress,places.types,places.primaryType,places.rating,places.userRatingCount,places.regularOpeningHours,places.priceLevel,places.location';
    const r = await maps.searchText({ textQuery: 'pizza in Mountain View' }, { fieldMask: mask });
    const places = r.data.places ?? [];
    assert.ok(places.length >= 3);
    const inTown = places.filter((p) => p.formattedAddress?.endsWith('Mountain View, CA, USA'));
    assert.ok(inTown.length >= 3, 'the town itself first');
    assert.ok(places[0].formattedAddress?.endsWith('Mountain View, CA, USA'));
    for (const p of places) {
      assert.equal(p.primaryType, 'pizza_restaurant');
      assert.ok(p.rating! >= 1 && p.rating! <= 5 && p.userRatingCount! > 0);
      assert.equal(p.regularOpeningHours?.weekdayDescriptions?.length, 7);
      assert.match(p.priceLevel ?? '', /^PRICE_LEVEL_/);
    }
    assert.equal(new Set(inTown.map((p) => p.displayName?.text)).size, inTown.length, 'no two places share a name');
    const again = await maps.searchText({ textQuery: 'Mountain View pizzas' }, { fieldMask: 'places.id' });
    assert.deepEqual(
      again.data.places?.map((p) => p.id),
      places.map((p) => p.id),
      '"<city> <kind>" finds the same',
    );
    const museum = await maps.searchText({ textQuery: 'museum in Paris' }, { fieldMask: 'places.primaryType,places.formattedAddress' });
    assert.equal(museum.data.places?.[0].primaryType, 'museum');
    assert.match(museum.data.places?.[0].formattedAddress ?? '', /Paris, France$/);
    const cafes = await maps.searchText({ textQuery: 'Lyon', includedType: 'cafe' }, { fieldMask: 'places.primaryType' });
    assert.equal(cafes.data.places?.[0].primaryType, 'cafe');
    const nothing = await maps.searchText({ textQuery: 'pizza in Qwxyzzy' });
    assert.deepEqual(nothing.data, {});
    assert.ok(KNOWN_PLACE_KINDS.some((k) => k.type === 'pharmacy' && k.words.includes('pharmacy')));
  });

  it('details accepts every field the SKU tables list, and a generated place fills most of them', async () => {
    const fields = Object.values(PLACE_FIELD_TIERS)
      .flat()
      .filter((f) => f !== 'routingSummaries');
    const found = await maps.searchText({ textQuery: 'cafe in Lyon', maxResultCount: 1 }, { fieldMask: 'places.id' });
    const r = await maps.getPlace(found.data.places![0].id!, { fieldMask: fields });
    assert.equal(r.status, 200);
    assert.ok(Object.keys(r.data).length >= 25);
    assert.equal(skuOf('getPlace', r.fieldMask).sku, 'Place Details Enterprise + Atmosphere');
  });

  it('nearby search with includedTypes answers places of that kind inside the circle', async () => {
    const r = await maps.searchNearby(
      { locationRestriction: { circle: { center: MOUNTAIN_VIEW, radius: 3000 } }, includedTypes: ['cafe'], rankPreference: 'DISTANCE' },
      { fieldMask: 'places.id,places.types,places.location' },
    );
    const places = r.data.places ?? [];
    assert.ok(places.length >= 1);
    for (const p of places) assert.ok(p.types?.includes('cafe'));
    const pharmacies = await maps.searchNearby(
      { locationRestriction: { circle: { center: MOUNTAIN_VIEW, radius: 5000 } }, includedTypes: ['pharmacy'] },
      { fieldMask: 'places.primaryType' },
    );
    assert.ok((pharmacies.data.places ?? []).every((p) => p.primaryType === 'pharmacy'));
    const ocean = await maps.searchNearby({
      locationRestriction: { circle: { center: { latitude: 0, longitude: -140 }, radius: 5000 } },
      includedTypes: ['cafe'],
    });
    assert.deepEqual(ocean.data, {});
  });

  it('route matrix: one element per origin/destination pair, streamed as a JSON array', async () => {
    const body = {
      origins: [{ waypoint: { location: { latLng: MOUNTAIN_VIEW } } }, { waypoint: { address: 'San Jose, CA' } }],
      destinations: [
        { waypoint: { address: 'San Francisco, CA' } },
        { waypoint: { address: 'Oakland, CA' } },
        { waypoint: { location: { latLng: MOUNTAIN_VIEW } } },
      ],
    };
    const res = await fetch(sb.url('/distanceMatrix/v2:computeRouteMatrix'), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'X-Goog-Api-Key': KEY,
        'X-Goog-FieldMask': 'originIndex,destinationIndex,status,condition,distanceMeters,duration',
      },
      body: JSON.stringify(body),
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-length'), null, 'streamed, not one sized body');
    const text = await res.text();
    assert.match(text, /^\[\{.*\}\n,\{/s);
    const elements = JSON.parse(text) as Array<{
      originIndex?: number;
      destinationIndex?: number;
      condition?: string;
      duration?: string;
      distanceMeters?: number;
      status?: object;
    }>;
    assert.equal(elements.length, 6);
    const pairs = new Set(elements.map((e) => `${e.originIndex ?? 0}:${e.destinationIndex ?? 0}`));
    assert.equal(pairs.size, 6);
    const sf = elements.find((e) => (e.originIndex ?? 0) === 0 && (e.destinationIndex ?? 0) === 0)!;
    assert.equal(sf.condition, 'ROUTE_EXISTS');
    assert.deepEqual(sf.status, {});
    assert.ok(sf.distanceMeters! > 40_000 && sf.distanceMeters! < 80_000);
    assert.match(sf.duration ?? '', /^\d+s$/);
    const viaClient = await maps.computeRouteMatrix(body);
    assert.equal(viaClient.data.length, 6);
    // A place found by a kind search is a waypoint like any other.
    const museum = (await maps.searchText({ textQuery: 'museum in San Jose, CA', maxResultCount: 1 }, { fieldMask: 'places.id' })).data.places![0].id!;
    const toMuseum = await maps.computeRouteMatrix({
      origins: [{ waypoint: { location: { latLng: MOUNTAIN_VIEW } } }],
      destinations: [{ waypoint: { placeId: museum } }],
    });
    assert.equal(toMuseum.data[0].condition, 'ROUTE_EXISTS');
    assert.ok(toMuseum.data[0].distanceMeters! > 10_000);
    const e = await apiErrorOf(maps.computeRouteMatrix({ origins: [], destinations: body.destinations }));
    assert.equal(e.status, 400);
  });
});
