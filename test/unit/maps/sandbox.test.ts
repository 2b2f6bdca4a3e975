// The maps sandbox on the wire: Google's paths, keys, field masks, error bodies and quota, checked
// with plain HTTP requests as any Google client would send them.
import * as assert from 'node:assert/strict';
import { decodePolyline } from '../../../src/services/maps/polyline';
import { KEY, raw, startSandbox, type MapsSandbox } from './helpers';

const FIELD_MASK_REQUIRED = /^FieldMask is a required parameter\. See https:\/\/cloud\.google\.com\/apis\/docs\/system-parameters on how to provide it\./;

describe('maps sandbox: Google-shaped wire behaviour', function () {
  this.timeout(20_000);
  let sb: MapsSandbox;
  before(async () => {
    sb = await startSandbox();
  });
  after(() => sb.close());

  describe('keys', () => {
    it('accepts the key in X-Goog-Api-Key, in ?key= and as a Bearer token', async () => {
      const body = { textQuery: 'Lyon' };
      const mask = { 'X-Goog-FieldMask': 'places.id' };
      for (const r of [
        await raw(sb, '/v1/places:searchText', { body, headers: { ...mask, 'X-Goog-Api-Key': KEY } }),
        await raw(sb, `/v1/places:searchText?key=${KEY}`, { body, headers: mask }),
        await raw(sb, '/v1/places:searchText', { body, headers: { ...mask, authorization: `Bearer ${KEY}` } }),
      ]) {
        assert.equal(r.status, 200);
        assert.ok(Array.isArray(r.json.places));
      }
    });

    it('answers a missing or wrong key with a google.rpc error naming the reason', async () => {
      const missing = await raw(sb, '/v1/places:searchText', { body: { textQuery: 'Lyon' } });
      assert.equal(missing.status, 401);
      assert.equal(missing.json.error?.status, 'UNAUTHENTICATED');
      assert.equal(missing.json.error?.details?.[0]?.reason, 'API_KEY_MISSING');
      const wrong = await raw(sb, '/v1/places:searchText?key=AIzaWrong', { body: { textQuery: 'Lyon' } });
      assert.equal(wrong.status, 401);
      assert.equal(wrong.json.error?.message, 'API key not valid. Please pass a valid API key.');
      assert.equal(wrong.json.error?.details?.[0]?.reason, 'API_KEY_INVALID');
    });
  });

  describe('field masks', () => {
    const auth = { 'X-Goog-Api-Key': KEY };

    it('Places and Routes refuse a request without a mask: 400 INVALID_ARGUMENT with Google’s message', async () => {
      const cases: Array<[string, unknown, string]> = [
        ['/v1/places:searchText', { textQuery: 'Lyon' }, "'places.displayName'"],
        [
          '/v1/places:searchNearby',
          { locationRestriction: { circle: { center: { latitude: 45.75, longitude: 4.85 }, radius: 1000 } } },
          "'places.displayName'",
        ],
        [
          '/directions/v2:computeRoutes',
          { origin: { address: 'Lyon' }, destination: { address: 'Paris' } },
          "'routes.distanceMeters,routes.duration,routes.polyline.encodedPolyline'",
        ],
        [
          '/distanceMatrix/v2:computeRouteMatrix',
          { origins: [{ waypoint: { address: 'Lyon' } }], destinations: [{ waypoint: { address: 'Paris' } }] },
          "'originIndex",
        ],
      ];
      for (const [path, body, example] of cases) {
        const r = await raw(sb, path, { body, headers: auth });
        assert.equal(r.status, 400, path);
        assert.equal(r.json.error?.code, 400);
        assert.equal(r.json.error?.status, 'INVALID_ARGUMENT');
        assert.match(r.json.error?.message ?? '', FIELD_MASK_REQUIRED);
        assert.ok(r.json.error?.message.includes(`'X-Goog-FieldMask' to value ${example}`), r.json.error?.message);
        assert.match(r.json.error?.message ?? '', /You can also set the value to '\*' in manual testing/);
      }
      const details = await raw(sb, '/v1/places/ChIJZ2VvbmFtZXM6Mjk5Njk0NA', { headers: auth });
      assert.equal(details.status, 400);
      assert.ok(details.json.error?.message.includes("value 'displayName', 'id' to ask for the display name and the place id of a place."));
    });

    it('Address Validation and Geocoding answer without a mask, with every field', async () => {
      const v = await raw(sb, '/v1:validateAddress', { body: { address: { regionCode: 'FR', addressLines: ['Lyon'] } }, headers: auth });
      assert.equal(v.status, 200);
      assert.ok(v.json.result && v.json.responseId);
      const g = await raw(sb, '/v4/geocode/address/Lyon', { headers: auth });
      assert.equal(g.status, 200);
      const first = (g.json.results as Array<Record<string, unknown>>)[0];
      assert.ok(first.formattedAddress && first.location && first.addressComponents && first.placeId);
    });

    it('filters the response to the mask, from the header, from ?fields= and in the parenthesis syntax', async () => {
      const header = await raw(sb, '/v1/places:searchText', {
        body: { textQuery: 'Paris' },
        headers: { ...auth, 'X-Goog-FieldMask': 'places.displayName,places.location' },
      });
      const places = header.json.places as Array<Record<string, unknown>>;
      assert.ok(places.length > 1);
      for (const p of places) assert.deepEqual(Object.keys(p).sort(), ['displayName', 'location']);

      const query = await raw(sb, `/v1/places:searchText?fields=places.displayName.text`, { body: { textQuery: 'Paris' }, headers: auth });
      for (const p of query.json.places as Array<{ displayName: Record<string, unknown> }>) {
        assert.deepEqual(Object.keys(p), ['displayName']);
        assert.deepEqual(Object.keys(p.displayName), ['text']);
      }

      const parens = await raw(sb, `/v1/places:searchText?fields=${encodeURIComponent('places(id,rating)')}`, {
        body: { textQuery: 'Paris', pageSize: 2 },
        headers: auth,
      });
      assert.deepEqual(Object.keys((parens.json.places as object[])[0]).sort(), ['id', 'rating']);

      const star = await raw(sb, '/v1/places:searchText', { body: { textQuery: 'Paris', pageSize: 1 }, headers: { ...auth, 'X-Goog-FieldMask': '*' } });
      const full = (star.json.places as Array<Record<string, unknown>>)[0];
      for (const f of ['name', 'id', 'displayName', 'formattedAddress', 'location', 'viewport', 'types', 'rating', 'googleMapsUri', 'plusCode'])
        assert.ok(f in full, f);
    });

    it('a mask naming a field the message does not have is Google’s 400 "Cannot find matching fields"', async () => {
      const r = await raw(sb, '/v1/places:searchText', {
        body: { textQuery: 'Paris' },
        headers: { ...auth, 'X-Goog-FieldMask': 'places.displayName,places.nonsense' },
      });
      assert.equal(r.status, 400);
      assert.equal(r.json.error?.message, 'Request contains an invalid argument.');
      const bad = r.json.error?.details?.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest') as {
        fieldViolations: Array<{ description: string }>;
      };
      assert.equal(bad.fieldViolations[0].description, "Error expanding 'fields' parameter. Cannot find matching fields for path 'places.nonsense'.");
      // A real field the sandbox never fills (phone numbers of a city) is accepted and simply absent.
      const ok = await raw(sb, '/v1/places:searchText', {
        body: { textQuery: 'Paris', pageSize: 1 },
        headers: { ...auth, 'X-Goog-FieldMask': 'places.nationalPhoneNumber,places.id' },
      });
      assert.equal(ok.status, 200);
      assert.deepEqual(Object.keys((ok.json.places as object[])[0]), ['id']);
    });

    it('computeRouteMatrix applies the mask to every element of its JSON array', async () => {
      const r = await raw(sb, '/distanceMatrix/v2:computeRouteMatrix', {
        body: { origins: [{ waypoint: { address: 'Lyon' } }, { waypoint: { address: 'Marseille' } }], destinations: [{ waypoint: { address: 'Paris' } }] },
        headers: { ...auth, 'X-Goog-FieldMask': 'originIndex,destinationIndex,distanceMeters' },
      });
      assert.equal(r.status, 200);
      const elements = r.json as unknown as Array<Record<string, unknown>>;
      assert.ok(Array.isArray(elements));
      assert.equal(elements.length, 2);
      for (const e of elements) assert.deepEqual(Object.keys(e).sort(), ['destinationIndex', 'distanceMeters', 'originIndex']);
    });
  });

  describe('request bodies', () => {
    const headers = { 'X-Goog-Api-Key': KEY, 'X-Goog-FieldMask': '*' };
    it('an unknown field name is "Invalid JSON payload received. Unknown name …: Cannot find field."', async () => {
      const r = await raw(sb, '/v1/places:searchText', { body: { textQuery: 'Lyon', txtQuery: 'x' }, headers });
      assert.equal(r.status, 400);
      assert.equal(r.json.error?.message, 'Invalid JSON payload received. Unknown name "txtQuery": Cannot find field.');
      const nested = await raw(sb, '/directions/v2:computeRoutes', { body: { origin: { adress: 'Lyon' }, destination: { address: 'Paris' } }, headers });
      assert.equal(nested.json.error?.message, 'Invalid JSON payload received. Unknown name "adress" at \'origin\': Cannot find field.');
    });

    it('malformed JSON and values of the wrong type are 400 INVALID_ARGUMENT', async () => {
      const r = await raw(sb, '/v1/places:searchText', { body: '{"textQuery": ', headers });
      assert.equal(r.status, 400);
      assert.match(r.json.error?.message ?? '', /^Invalid JSON payload received\./);
      const t = await raw(sb, '/v1/places:searchText', { body: { textQuery: 42 }, headers });
      assert.equal(t.status, 400);
      assert.equal(t.json.error?.status, 'INVALID_ARGUMENT');
      assert.match(t.json.error?.message ?? '', /text_query/);
    });
  });

  it('an unknown path is 404 NOT_FOUND in the google.rpc shape', async () => {
    const r = await raw(sb, '/v1/places:searchEverything', { body: {}, headers: { 'X-Goog-Api-Key': KEY } });
    assert.equal(r.status, 404);
    assert.equal(r.json.error?.status, 'NOT_FOUND');
  });

  it('GET /v1/resources lists the four capabilities', async () => {
    const r = await raw(sb, '/v1/resources', { headers: { 'X-Goog-Api-Key': KEY } });
    assert.deepEqual(
      (r.json.resources as Array<{ name: string }>).map((x) => x.name),
      ['Places', 'Routes', 'Address Validation', 'Geocoding'],
    );
  });

  it('a route polyline (Google encoding) starts at the origin and ends at the destination', async () => {
    const origin = { latitude: 45.76342, longitude: 4.83428 };
    const destination = { latitude: 48.85661, longitude: 2.35222 };
    const r = await raw(sb, '/directions/v2:computeRoutes', {
      body: { origin: { location: { latLng: origin } }, destination: { location: { latLng: destination } } },
      headers: { 'X-Goog-Api-Key': KEY, 'X-Goog-FieldMask': 'routes.polyline.encodedPolyline,routes.distanceMeters,routes.duration' },
    });
    const route = (r.json.routes as Array<{ polyline: { encodedPolyline: string }; distanceMeters: number; duration: string }>)[0];
    const pts = decodePolyline(route.polyline.encodedPolyline);
    assert.deepEqual(pts[0], origin);
    assert.deepEqual(pts[pts.length - 1], destination);
    assert.match(route.duration, /^\d+s$/);
    // Lyon–Paris is 392 km as the crow flies; by road a little more.
    assert.ok(route.distanceMeters > 392_000 && route.distanceMeters < 550_000, String(route.distanceMeters));
  });
});

describe('maps sandbox: quota per API key', function () {
  this.timeout(20_000);
  let sb: MapsSandbox;
  before(async () => {
    sb = await startSandbox({ limit: 3, windowMs: 60_000 });
  });
  after(() => sb.close());

  it('past the limit answers 429 RESOURCE_EXHAUSTED with ErrorInfo and RetryInfo', async () => {
    const headers = { 'X-Goog-Api-Key': KEY };
    for (let i = 0; i < 3; i++) assert.equal((await raw(sb, '/v4/geocode/address/Lyon', { headers })).status, 200);
    const r = await raw(sb, '/v4/geocode/address/Lyon', { headers });
    assert.equal(r.status, 429);
    assert.equal(r.json.error?.code, 429);
    assert.equal(r.json.error?.status, 'RESOURCE_EXHAUSTED');
    assert.match(
      r.json.error?.message ?? '',
      /^Quota exceeded for quota metric 'Requests' and limit 'Requests per minute' of service 'geocode\.googleapis\.com'/,
    );
    const info = r.json.error?.details?.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo');
    assert.equal(info?.reason, 'RATE_LIMIT_EXCEEDED');
    const retry = r.json.error?.details?.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.RetryInfo');
    assert.match(String(retry?.retryDelay), /^\d+(\.\d{3})?s$/);
    // The sandbox's own resource listing is not metered.
    assert.equal((await raw(sb, '/v1/resources', { headers })).status, 200);
  });
});
