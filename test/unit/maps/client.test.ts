// MapsClient against the real sandbox: every operation, presets and custom masks, errors as
// ApiErrors with Google's status and message, the 429 + RetryInfo retry, and key placement.
import * as assert from 'node:assert/strict';
import type { RetryNotice } from '../../../src/core/http';
import { durationSeconds, MapsClient, MapsInputError, parseLatLng, routePath, type MapsCallOptions } from '../../../src/services/maps/client';
import { googleErrorParser, parseDuration } from '../../../src/services/maps/errors';
import { fieldMaskFor } from '../../../src/services/maps/fieldMasks';
import { ManualClock } from '../helpers/clock';
import { apiErrorOf, cancellationSource } from '../helpers/util';
import { httpClient, mapsClient, QUERY_AUTH, startSandbox, type MapsSandbox } from './helpers';

const LYON = { latitude: 45.76342, longitude: 4.83428 };
const PARIS = { latitude: 48.85661, longitude: 2.35222 };
const DIJON = { latitude: 47.32167, longitude: 5.04139 };

describe('maps/client: every operation against the sandbox', function () {
  this.timeout(20_000);
  let sb: MapsSandbox;
  let maps: MapsClient;
  before(async () => {
    sb = await startSandbox();
    maps = mapsClient(sb);
  });
  after(() => sb.close());

  it('searchText finds real places (GeoNames), most populous first, with address and rating', async () => {
    const r = await maps.searchText({ textQuery: 'Springfield' });
    const places = r.data.places ?? [];
    assert.ok(places.length >= 5, 'several Springfields');
    assert.equal(places[0].formattedAddress, 'Springfield, MO, USA');
    for (const p of places) {
      assert.ok(p.id && p.displayName?.text === 'Springfield' && p.location && typeof p.rating === 'number');
      assert.ok(p.rating >= 1 && p.rating <= 5);
    }
    assert.equal(r.fieldMask, fieldMaskFor('searchText', { preset: 'basic' }));
    assert.match(r.headers['content-type'] ?? '', /^application\/json/, 'the response headers, for the response viewer');
    const qualified = await maps.searchText({ textQuery: 'Springfield, IL' });
    assert.equal(qualified.data.places?.[0].formattedAddress, 'Springfield, IL, USA');
  });

  it('searchText pages with pageSize / nextPageToken, and says {} when nothing matches', async () => {
    const first = await maps.searchText({ textQuery: 'Springfield', pageSize: 3 }, { preset: 'contact' });
    assert.equal(first.data.places?.length, 3);
    assert.ok(first.data.nextPageToken);
    const second = await maps.searchText({ textQuery: 'Springfield', pageSize: 3, pageToken: first.data.nextPageToken }, { preset: 'contact' });
    const ids = new Set([...(first.data.places ?? []), ...(second.data.places ?? [])].map((p) => p.id));
    assert.equal(ids.size, 6, 'the second page continues the first');
    const none = await maps.searchText({ textQuery: 'Qwxyzzy Nowhere' });
    assert.deepEqual(none.data, {});
  });

  it('searchNearby returns places inside the circle; the 50 km radius limit is enforced', async () => {
    const r = await maps.searchNearby({ locationRestriction: { circle: { center: PARIS, radius: 10_000 } }, maxResultCount: 5 });
    const places = r.data.places ?? [];
    assert.equal(places.length, 5);
    assert.equal(places[0].displayName?.text, 'Paris');
    const byDistance = await maps.searchNearby({
      locationRestriction: { circle: { center: PARIS, radius: 10_000 } },
      rankPreference: 'DISTANCE',
      maxResultCount: 1,
    });
    assert.equal(byDistance.data.places?.[0].displayName?.text, 'Paris');
    const e = await apiErrorOf(maps.searchNearby({ locationRestriction: { circle: { center: PARIS, radius: 60_000 } } }));
    assert.equal(e.status, 400);
    assert.equal(e.code, 'INVALID_ARGUMENT');
    assert.match(e.serviceMessage ?? '', /radius/);
  });

  it('getPlace returns the place a search found, filtered to the chosen mask; unknown ids are 404', async () => {
    const found = await maps.searchText({ textQuery: 'Lyon' });
    const id = found.data.places![0].id!;
    const place = await maps.getPlace(id, { fieldMask: 'displayName,formattedAddress' });
    assert.deepEqual(place.data, { displayName: { text: 'Lyon', languageCode: 'en' }, formattedAddress: 'Lyon, France' });
    const byName = await maps.getPlace(`places/${id}`, { preset: 'contact' });
    assert.equal(byName.data.websiteUri?.startsWith('https://www.geonames.org/'), true);
    const e = await apiErrorOf(maps.getPlace('ChIJZ2VvbmFtZXM6OTk5'));
    assert.equal(e.status, 404);
    assert.equal(e.code, 'NOT_FOUND');
    await assert.rejects(maps.getPlace('places/a/b'), MapsInputError);
  });

  it('computeRoutes: lat/lng, place id and address waypoints; intermediates become legs; the polyline runs origin → destination', async () => {
    const lyonId = (await maps.searchText({ textQuery: 'Lyon' })).data.places![0].id!;
    const r = await maps.computeRoutes({
      origin: { placeId: lyonId },
      intermediates: [{ location: { latLng: DIJON } }],
      destination: { address: 'Paris, France' },
      travelMode: 'DRIVE',
    });
    const route = r.data.routes![0];
    assert.equal(route.legs?.length, 2);
    const legSum = route.legs.reduce((s, l) => s + (l.distanceMeters ?? 0), 0);
    assert.equal(legSum, route.distanceMeters);
    const path = routePath(route);
    const lyon = (await maps.getPlace(lyonId, { fieldMask: 'location' })).data.location!;
    assert.deepEqual(path[0], { latitude: lyon.latitude, longitude: lyon.longitude });
    const paris = (await maps.searchText({ textQuery: 'Paris, France' })).data.places![0].location!;
    assert.deepEqual(path[path.length - 1], { latitude: paris.latitude, longitude: paris.longitude });
    assert.ok(
      path.some((p) => Math.abs(p.latitude - DIJON.latitude) < 1e-5 && Math.abs(p.longitude - DIJON.longitude) < 1e-5),
      'passes through the intermediate',
    );
    assert.equal(r.data.geocodingResults?.destination?.placeId !== undefined, true);
  });

  it('computeRoutes: durations are "Ns" strings from per-mode speeds (walk slower than bike slower than car)', async () => {
    const seconds: Record<string, number> = {};
    for (const mode of ['DRIVE', 'BICYCLE', 'WALK'] as const) {
      const r = await maps.computeRoutes({ origin: { location: { latLng: LYON } }, destination: { location: { latLng: DIJON } }, travelMode: mode });
      const route = r.data.routes![0];
      assert.match(route.duration ?? '', /^\d+s$/);
      seconds[mode] = durationSeconds(route.duration)!;
      const kmh = route.distanceMeters! / 1000 / (seconds[mode] / 3600);
      const expected = { DRIVE: [50, 110], BICYCLE: [12, 20], WALK: [4, 6] }[mode];
      assert.ok(kmh >= expected[0] && kmh <= expected[1], `${mode} at ${kmh.toFixed(1)} km/h`);
    }
    assert.ok(seconds.WALK > seconds.BICYCLE && seconds.BICYCLE > seconds.DRIVE);
  });

  it('computeRoutes: an address that cannot be geocoded gives no route and says why', async () => {
    const r = await maps.computeRoutes({ origin: { address: 'Qwxyzzy Nowhere' }, destination: { location: { latLng: PARIS } } });
    assert.equal(r.data.routes, undefined);
    assert.equal(r.data.geocodingResults?.origin?.geocoderStatus?.code, 5);
  });

  it('computeRouteMatrix returns one element per origin × destination', async () => {
    const r = await maps.computeRouteMatrix({
      origins: [{ waypoint: { location: { latLng: LYON } } }, { waypoint: { address: 'Marseille' } }],
      destinations: [{ waypoint: { location: { latLng: PARIS } } }, { waypoint: { location: { latLng: DIJON } } }, { waypoint: { address: 'New York City' } }],
      travelMode: 'DRIVE',
    });
    assert.equal(r.data.length, 6);
    const pairs = r.data.map((e) => `${e.originIndex}:${e.destinationIndex}`).sort();
    assert.deepEqual(pairs, ['0:0', '0:1', '0:2', '1:0', '1:1', '1:2']);
    const lyonParis = r.data.find((e) => e.originIndex === 0 && e.destinationIndex === 0)!;
    assert.equal(lyonParis.condition, 'ROUTE_EXISTS');
    assert.ok(lyonParis.distanceMeters! > 392_000);
    assert.equal(r.data.find((e) => e.originIndex === 0 && e.destinationIndex === 2)?.condition, 'ROUTE_NOT_FOUND', 'no road across the Atlantic');
  });

  it('validateAddress: granularities, corrected / inferred / replaced components and the verdict', async () => {
    const r = await maps.validateAddress({ address: { regionCode: 'US', addressLines: ['1600 Amphitheatre Pkwy', 'Mountian View, NY 94043'] } });
    const { verdict, address, geocode } = r.data.result!;
    assert.equal(verdict?.inputGranularity, 'PREMISE');
    assert.equal(verdict?.validationGranularity, 'OTHER', 'the street cannot be confirmed, the locality can');
    assert.equal(verdict?.hasUnconfirmedComponents, true);
    assert.equal(verdict?.hasReplacedComponents, true, 'NY replaced by CA');
    assert.equal(verdict?.hasSpellCorrectedComponents, true, 'Mountian → Mountain');
    assert.equal(verdict?.hasInferredComponents, true, 'country inferred');
    assert.equal(address?.formattedAddress, '1600 Amphitheatre Pkwy, Mountain View, CA 94043, USA');
    const byType = Object.fromEntries((address?.addressComponents ?? []).map((c) => [c.componentType, c])) as Record<
      string,
      { confirmationLevel?: string; spellCorrected?: boolean; replaced?: boolean; inferred?: boolean }
    >;
    assert.equal(byType.locality.confirmationLevel, 'CONFIRMED');
    assert.equal(byType.locality.spellCorrected, true);
    assert.equal(byType.administrative_area_level_1.replaced, true);
    assert.equal(byType.country.inferred, true);
    assert.equal(byType.route.confirmationLevel, 'UNCONFIRMED_BUT_PLAUSIBLE');
    assert.ok(geocode?.location && geocode.placeId);

    const bad = await maps.validateAddress({ address: { regionCode: 'FR', addressLines: ['Qwxyzzy'] } });
    assert.equal(bad.data.result?.verdict?.addressComplete, undefined);
    assert.equal(bad.data.result?.verdict?.possibleNextAction, 'FIX');
    assert.equal(bad.data.result?.address?.addressComponents?.find((c) => c.componentType === 'locality')?.confirmationLevel, 'UNCONFIRMED_AND_SUSPICIOUS');
  });

  it('geocodeAddress and reverseGeocode (Geocoding v4)', async () => {
    const fwd = await maps.geocodeAddress({ address: 'Springfield, IL' });
    const first = fwd.data.results![0];
    assert.equal(first.formattedAddress, 'Springfield, IL, USA');
    assert.ok(Math.abs(first.location!.latitude! - 39.8) < 0.1 && Math.abs(first.location!.longitude! + 89.64) < 0.1);
    const street = await maps.geocodeAddress({ address: '1600 Amphitheatre Pkwy, Mountain View, CA' });
    assert.equal(street.data.results?.[0].formattedAddress, 'Mountain View, CA, USA');
    const rev = await maps.reverseGeocode({ location: { latitude: 48.8584, longitude: 2.2945 } });
    assert.equal(rev.data.results?.[0].formattedAddress, 'Paris, France');
    assert.match(rev.data.plusCode?.globalCode ?? '', /^8FW4V7/);
    await assert.rejects(maps.reverseGeocode({ location: { latitude: 91, longitude: 0 } }), MapsInputError);
    await assert.rejects(maps.geocodeAddress({ address: '  ' }), MapsInputError);
  });

  it('a custom mask overrides the preset and the response keeps only those fields', async () => {
    const r = await maps.searchText({ textQuery: 'Paris' }, { fieldMask: ['places.displayName', 'places.formattedAddress'] });
    assert.equal(r.fieldMask, 'places.displayName,places.formattedAddress');
    for (const p of r.data.places ?? []) assert.deepEqual(Object.keys(p).sort(), ['displayName', 'formattedAddress']);
    const everything = await maps.searchText({ textQuery: 'Paris', pageSize: 1 }, { preset: 'everything' });
    assert.equal(everything.fieldMask, '*');
    assert.ok(everything.data.places![0].plusCode && everything.data.places![0].viewport);
  });

  it('a bad mask is an ApiError carrying Google’s field violation', async () => {
    const e = await apiErrorOf(maps.searchText({ textQuery: 'Paris' }, { fieldMask: 'places.bogus' }));
    assert.equal(e.kind, 'http');
    assert.equal(e.status, 400);
    assert.equal(e.code, 'INVALID_ARGUMENT');
    assert.match(e.describe(), /Cannot find matching fields for path 'places\.bogus'/);
  });

  it('the key can go in the ?key= query parameter instead of the header', async () => {
    const viaQuery = new MapsClient(httpClient(sb, { auth: QUERY_AUTH }));
    const r = await viaQuery.geocodeAddress({ address: 'Lyon' });
    assert.equal(r.data.results?.[0].formattedAddress, 'Lyon, France');
    const wrong = await apiErrorOf(mapsClient(sb, {}, 'AIzaWrongKey').geocodeAddress({ address: 'Lyon' }));
    assert.equal(wrong.status, 401);
    assert.equal(wrong.code, 'UNAUTHENTICATED');
    assert.match(wrong.describe(), /API key not valid/);
  });

  it('a cancelled call rejects as cancelled', async () => {
    const src = cancellationSource();
    src.cancel();
    const e = await apiErrorOf(maps.searchText({ textQuery: 'Paris' }, { cancel: src.token } satisfies MapsCallOptions));
    assert.equal(e.kind, 'cancelled');
  });
});

describe('maps/client: quota 429 and retry', function () {
  this.timeout(20_000);
  let sb: MapsSandbox;
  afterEach(() => sb?.close());

  it('a 429 RESOURCE_EXHAUSTED is retried after RetryInfo.retryDelay, then succeeds', async () => {
    // One clock for the sandbox's quota window and the client's retry wait: the wait moves it, no real time passes.
    const clock = ManualClock.instant();
    sb = await startSandbox({ limit: 2, windowMs: 600 }, clock);
    const maps = mapsClient(sb, { clock });
    await maps.geocodeAddress({ address: 'Lyon' });
    await maps.geocodeAddress({ address: 'Lyon' });
    const notices: RetryNotice[] = [];
    const r = await maps.geocodeAddress({ address: 'Paris' }, { onRetry: (n) => notices.push(n) });
    assert.equal(r.data.results?.[0].formattedAddress, 'Paris, France');
    assert.ok(notices.length >= 1);
    assert.equal(notices[0].error.status, 429);
    assert.equal(notices[0].error.code, 'RESOURCE_EXHAUSTED');
    assert.ok(notices[0].delayMs > 0 && notices[0].delayMs <= 600, `waited the server's retryDelay (${notices[0].delayMs} ms)`);
  });

  it('with retries off, the 429 reaches the caller as rate-limited with the wait Google asked for', async () => {
    sb = await startSandbox({ limit: 1, windowMs: 60_000 });
    const maps = mapsClient(sb, { retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 1 } });
    await maps.geocodeAddress({ address: 'Lyon' });
    const e = await apiErrorOf(maps.geocodeAddress({ address: 'Lyon' }));
    assert.equal(e.kind, 'rate-limited');
    assert.equal(e.code, 'RESOURCE_EXHAUSTED');
    assert.ok(e.retryAfterMs !== undefined && e.retryAfterMs > 50_000 && e.retryAfterMs <= 60_000);
    assert.match(e.describe(), /Quota exceeded for quota metric 'Requests'/);
  });
});

describe('maps/client: parsing helpers', () => {
  it('googleErrorParser reads status, message, field violations and RetryInfo', () => {
    const info = googleErrorParser(
      429,
      {
        error: {
          code: 429,
          message: 'Quota exceeded.',
          status: 'RESOURCE_EXHAUSTED',
          details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1.500s' }],
        },
      },
      {},
    );
    assert.deepEqual(info, { code: 'RESOURCE_EXHAUSTED', message: 'Quota exceeded.', retryAfterMs: 1500 });
    assert.deepEqual(googleErrorParser(400, { nope: true }, {}), {});
    assert.equal(parseDuration('30s'), 30_000);
    assert.equal(parseDuration('soon'), undefined);
  });

  it('parseLatLng reads "lat,lng" selections and refuses coordinates off the globe', () => {
    assert.deepEqual(parseLatLng(' 48.8584, 2.2945 '), { latitude: 48.8584, longitude: 2.2945 });
    assert.deepEqual(parseLatLng('(-33.86,151.2)'), { latitude: -33.86, longitude: 151.2 });
    assert.equal(parseLatLng('91,0'), undefined);
    assert.equal(parseLatLng('Paris'), undefined);
  });

  it('fieldMaskFor: presets per operation, custom masks trimmed', () => {
    assert.match(fieldMaskFor('searchText'), /^places\.id,places\.displayName,/);
    assert.ok(fieldMaskFor('getPlace', { preset: 'contact' }).split(',').includes('websiteUri'));
    assert.equal(fieldMaskFor('computeRoutes', { preset: 'everything' }), '*');
    assert.equal(fieldMaskFor('searchText', { fieldMask: ' places.id , ,places.rating ' }), 'places.id,places.rating');
  });
});
