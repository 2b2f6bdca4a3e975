// The maps results the tree, the map and the picker show (features/maps/resultBuilders.ts,
// results.ts), built from the real sandbox's answers: labels and descriptions a user reads, markers
// where the places are, a route's line, and results the ResultStore's schema keeps (one it refused
// would empty the whole store on reload). Plus the arguments scripts pass to the maps commands.
import * as assert from 'node:assert/strict';
import { validate } from '../../../src/core/validate';
import { detailsArgs, matrixArgs, nearbyArgs, routeArgs, searchArgs } from '../../../src/features/maps/commandArgs';
import { formatDistance, formatDuration, geocodeResults, placeResults, routeResult, validationResult } from '../../../src/features/maps/resultBuilders';
import { CAPABILITIES, resultsByConnectionSchema, type MapsResult } from '../../../src/features/maps/results';
import { MAPS_CAPABILITIES } from '../../../src/sandbox/maps';
import { durationSeconds, routePath, TRAVEL_MODES, type MapsClient } from '../../../src/services/maps/client';
import { MASK_PRESETS } from '../../../src/services/maps/fieldMasks';
import { decodePolyline } from '../../../src/services/maps/polyline';
import type { Place } from '../../../src/services/maps/schemas';
import { mapsClient, startSandbox, type MapsSandbox } from '../maps/helpers';

/** The results as the ResultStore keeps them: valid, or the store reads as empty. */
function assertStorable(results: readonly MapsResult[]): void {
  const v = validate(resultsByConnectionSchema, { 'maps:Local Sandbox': results });
  assert.ok(v.ok, `the store would refuse these results: ${v.ok ? '' : v.problem}`);
}

describe('features/maps: results from sandbox answers', function () {
  this.timeout(20_000);
  let sb: MapsSandbox;
  let maps: MapsClient;
  before(async () => {
    sb = await startSandbox();
    maps = mapsClient(sb);
  });
  after(() => sb.close());

  it('places become results named as found, with address and rating, a marker on each, in the order found', async () => {
    const places = (await maps.searchText({ textQuery: 'Springfield' })).data.places ?? [];
    assert.ok(places.length >= 5);
    const results = placeResults(places);
    assert.equal(results.length, places.length);
    for (const [i, r] of results.entries()) {
      const p = places[i];
      assert.equal(r.capability, 'places');
      assert.equal(r.id, `place/${p.id}`);
      assert.equal(r.label, 'Springfield');
      assert.equal(r.description, `${p.formattedAddress} · ★ ${p.rating!.toFixed(1)} (${p.userRatingCount})`);
      assert.deepEqual(r.markers, [{ latitude: p.location!.latitude, longitude: p.location!.longitude, label: 'Springfield', detail: r.description }]);
      assert.ok(r.tooltip.includes(`Place id: \`${p.id}\``));
    }
    assert.equal(results[0].description.split(' · ')[0], 'Springfield, MO, USA', 'the best match first');
    assert.ok(
      results.every((r, i) => i === 0 || r.at < results[i - 1].at),
      'newest-first order keeps the order found',
    );
    assertStorable(results);
  });

  it('a place with only some fields (a narrow field mask) is still a result: named by its address, no marker without a location', async () => {
    const id = (await maps.searchText({ textQuery: 'Lyon' })).data.places![0].id!;
    const place = (await maps.getPlace(id, { fieldMask: 'formattedAddress' })).data;
    const [r] = placeResults([place]);
    assert.equal(r.label, 'Lyon, France');
    assert.equal(r.description, 'Lyon, France');
    assert.deepEqual(r.markers, []);
    assertStorable([r]);
    const [bare] = placeResults([{}]);
    assert.equal(bare.label, 'Place');
    assertStorable([bare]);
  });

  it("a route becomes one result: 'from → to', the distance and time the service gave, markers at both ends, the line that decodes to the route", async () => {
    const r = await maps.computeRoutes({ origin: { address: 'Lyon' }, destination: { address: 'Paris' }, intermediates: [{ address: 'Dijon' }] });
    const route = r.data.routes![0];
    const result = routeResult(route, 'Lyon', 'Paris', 'DRIVE');
    assert.equal(result.capability, 'routes');
    assert.equal(result.label, 'Lyon → Paris');
    const [distance, duration, mode] = result.description.split(' · ');
    assert.equal(distance, route.localizedValues?.distance?.text, "the distance reads as the service's own text");
    const m = /^(\d+) h (\d\d) min$/.exec(duration);
    assert.ok(m, duration);
    assert.equal(Number(m[1]) * 60 + Number(m[2]), Math.round(durationSeconds(route.duration)! / 60));
    assert.equal(mode, 'drive');
    assert.match(result.tooltip, /2 legs/);
    assert.match(result.tooltip, /^\*\*Lyon → Paris\*\*/);
    const legs = route.legs!;
    assert.deepEqual(result.markers, [
      { ...legs[0].startLocation!.latLng, label: 'Lyon', detail: 'origin' },
      { ...legs[1].endLocation!.latLng, label: 'Paris', detail: 'destination' },
    ]);
    assert.ok(result.polyline);
    const line = decodePolyline(result.polyline);
    assert.deepEqual(line, routePath(route));
    assert.ok(line.length > 2);
    assertStorable([result]);
    const two = await maps.computeRoutes({ origin: { address: 'Lyon' }, destination: { address: 'Villeurbanne' }, travelMode: 'TWO_WHEELER' });
    const short = routeResult(two.data.routes![0], 'Lyon', 'Villeurbanne', 'TWO_WHEELER');
    assert.equal(short.description, `${two.data.routes![0].localizedValues?.distance?.text} · 6 min · two wheeler`);
    assert.notEqual(short.id, result.id, 'each route is a result of its own');
  });

  it('an address check: the formatted address, the verdict and what is wrong, a warning unless complete and accepted, a marker where it was found', async () => {
    const input = '1600 Amphitheatre Pkwy, Mountain View, CA 94043';
    const answer = (await maps.validateAddress({ address: { addressLines: ['1600 Amphitheatre Pkwy', 'Mountain View, CA 94043'], regionCode: 'US' } })).data;
    const r = validationResult(input, answer);
    assert.equal(r.id, `validation/${answer.responseId}`);
    assert.equal(r.label, '1600 Amphitheatre Pkwy, Mountain View, CA 94043, USA');
    assert.equal(r.description, 'OTHER → CONFIRM · complete, unconfirmed parts, inferred parts');
    assert.equal(r.icon, 'warning');
    assert.deepEqual(
      r.markers.map((mk) => [mk.latitude, mk.longitude, mk.label]),
      [[answer.result!.geocode!.location!.latitude, answer.result!.geocode!.location!.longitude, r.label]],
    );
    assert.match(r.tooltip, /Input: 1600 Amphitheatre Pkwy, Mountain View, CA 94043/);
    // The same answer once the service accepts it.
    const accepted = validationResult(input, {
      ...answer,
      result: { ...answer.result, verdict: { ...answer.result!.verdict, addressComplete: true, possibleNextAction: 'ACCEPT' } },
    });
    assert.equal(accepted.icon, 'pass');
    // An address that needs fixing has no geocode: no marker.
    const fix = validationResult('asdkjh qwe', (await maps.validateAddress({ address: { addressLines: ['asdkjh qwe'], regionCode: 'US' } })).data);
    assert.match(fix.description, /→ FIX · incomplete/);
    assert.deepEqual(fix.markers, []);
    assertStorable([r, accepted, fix]);
  });

  it('geocoding and reverse geocoding: each address with the query it answers, and a marker at the point', async () => {
    const forward = (await maps.geocodeAddress({ address: 'Lyon' })).data.results ?? [];
    const [g] = geocodeResults(forward, 'Lyon');
    assert.equal(g.label, 'Lyon, France');
    assert.equal(g.description, `APPROXIMATE · ${forward[0].location!.latitude!.toFixed(5)}, ${forward[0].location!.longitude!.toFixed(5)} · for “Lyon”`);
    assert.deepEqual([g.markers[0].latitude, g.markers[0].longitude], [forward[0].location!.latitude, forward[0].location!.longitude]);
    const back = (await maps.reverseGeocode({ location: { latitude: 45.76, longitude: 4.84 } })).data.results ?? [];
    const reversed = geocodeResults(back, '45.76, 4.84');
    assert.equal(reversed[0].label, 'Lyon, France');
    assert.match(reversed[0].description, /for “45\.76, 4\.84”$/);
    assert.notEqual(reversed[0].id, g.id, 'the same place found by another query is another result');
    assert.deepEqual(
      geocodeResults(forward, 'Lyon').map((r) => r.id),
      [g.id],
      'the same query again replaces its result (same id)',
    );
    assertStorable([g, ...reversed]);
  });

  it('names with Markdown or HTML in them show as text in the tooltip; very long names still fit the map', async () => {
    const [lyon] = (await maps.searchText({ textQuery: 'Lyon' })).data.places!;
    const name = '**Bold** [click](https://evil.example) <img src=x onerror=alert(1)> _x_';
    const [r] = placeResults([{ ...lyon, displayName: { text: name } }]);
    assert.equal(r.label, name, 'the tree label is plain text, as given');
    const heading = r.tooltip.split('\n\n')[0];
    assert.equal(heading, '**\\*\\*Bold\\*\\* \\[click\\]\\(https://evil\\.example\\) \\<img src=x onerror=alert\\(1\\)\\> \\_x\\_**');
    const long = 'L'.repeat(800);
    const [big] = placeResults([{ ...lyon, displayName: { text: long } }]);
    assert.equal(big.label, long);
    assert.equal(big.markers[0].label.length, 500);
    assertStorable([r, big]);
  });

  it('a place or route whose coordinates are off the globe gets no marker there, so the store and the map still take the result', async () => {
    const [lyon] = (await maps.searchText({ textQuery: 'Lyon' })).data.places!;
    const offGlobe: Place = { ...lyon, location: { latitude: 123.4, longitude: 4.8 } };
    const [place] = placeResults([offGlobe]);
    assert.equal(place.label, 'Lyon');
    assert.deepEqual(place.markers, []);
    const route = (await maps.computeRoutes({ origin: { address: 'Lyon' }, destination: { address: 'Paris' } })).data.routes![0];
    const bent = { ...route, legs: [{ ...route.legs![0], startLocation: { latLng: { latitude: 45.7, longitude: 200 } } }] };
    const r = routeResult(bent, 'Lyon', 'Paris', 'DRIVE');
    assert.deepEqual(
      r.markers.map((m) => m.detail),
      ['destination'],
    );
    assertStorable([place, r]);
  });

  it('distances and times read as a person would say them', () => {
    assert.equal(formatDistance(undefined), '0 m', 'Google leaves a zero distance out');
    assert.equal(formatDistance(850), '850 m');
    assert.equal(formatDistance(1234), '1.2 km');
    assert.equal(formatDistance(12_345), '12 km');
    assert.equal(formatDistance(999.6), '1.0 km', 'not "1000 m"');
    assert.equal(formatDistance(9_960), '10 km', 'not "10.0 km"');
    assert.equal(formatDuration('59s'), '1 min');
    assert.equal(formatDuration('3599s'), '1 h 00 min');
    assert.equal(formatDuration('90061s'), '25 h 01 min');
    assert.equal(formatDuration('1.5s'), '0 min');
    assert.equal(formatDuration(undefined), '?');
    assert.equal(formatDuration('PT5M'), '?');
  });

  it("the tree's capabilities are the ones the sandbox lists", () => {
    assert.deepEqual(
      CAPABILITIES.map((c) => c.id),
      MAPS_CAPABILITIES.map((c) => c.id),
    );
    assert.deepEqual(
      CAPABILITIES.map((c) => c.label),
      MAPS_CAPABILITIES.map((c) => c.name),
    );
  });

  it("a script may pass any of the maps commands' arguments; a wrong type or an unknown travel mode is refused (the command then asks)", () => {
    assert.deepEqual(validate(searchArgs, { query: 'Lyon', preset: 'contact' }), { ok: true, value: { query: 'Lyon', preset: 'contact' } });
    assert.deepEqual(validate(nearbyArgs, { center: '45.76, 4.84', radius: 500, fieldMask: 'places.id' }), {
      ok: true,
      value: { center: '45.76, 4.84', radius: 500, fieldMask: 'places.id' },
    });
    const route = validate(routeArgs, { origin: 'Lyon', destination: 'Paris', intermediates: ['Dijon'], travelMode: 'BICYCLE' });
    assert.ok(route.ok && route.value.travelMode === 'BICYCLE');
    for (const mode of TRAVEL_MODES) assert.ok(validate(matrixArgs, { origins: ['a'], destinations: ['b'], travelMode: mode }).ok, mode);
    for (const preset of MASK_PRESETS) assert.ok(validate(detailsArgs, { placeId: 'x', preset }).ok, preset);
    assert.ok(validate(searchArgs, {}).ok, 'every argument is optional');
    assert.ok(!validate(nearbyArgs, { radius: '500' }).ok);
    assert.ok(!validate(routeArgs, { travelMode: 'FLY' }).ok);
    assert.ok(!validate(searchArgs, { preset: 'all' }).ok);
    assert.ok(!validate(matrixArgs, { origins: 'Lyon' }).ok);
  });
});
