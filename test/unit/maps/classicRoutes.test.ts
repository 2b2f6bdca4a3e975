// Classic Directions and Distance Matrix on the maps sandbox: the roads of Routes v2, in the classic
// shape ({text, value} distances and durations, encoded overview polylines), with Google's statuses.
import * as assert from 'node:assert/strict';
import { decodePolyline } from '../../../src/services/maps/polyline';
import { classic, type LatLng } from './classicHelpers';
import { KEY, raw, startSandbox, type MapsSandbox } from './helpers';

const near = (a: LatLng, b: { latitude: number; longitude: number }) => Math.abs(a.lat - b.latitude) < 1e-4 && Math.abs(a.lng - b.longitude) < 1e-4;

describe('maps sandbox: classic Directions', function () {
  this.timeout(20_000);
  let sb: MapsSandbox;
  before(async () => {
    sb = await startSandbox();
  });
  after(() => sb.close());

  it('origin and destination as addresses: the Routes v2 route, with {text, value}, addresses and an overview polyline', async () => {
    const r = await classic(sb, 'directions', { origin: 'Lisbon', destination: 'Porto' });
    assert.equal(r.status, 200);
    assert.equal(r.json.status, 'OK');
    assert.deepEqual(
      r.json.geocoded_waypoints.map((w) => w.geocoder_status),
      ['OK', 'OK'],
    );
    const leg = r.json.routes[0].legs[0];
    assert.equal(leg.start_address, 'Lisbon, Portugal');
    assert.equal(leg.end_address, 'Porto, Portugal');
    assert.match(leg.distance.text, /^\d+ km$/);
    assert.match(leg.duration.text, /^\d+ hours?( \d+ mins?)?$/);
    const v2 = await raw(sb, '/directions/v2:computeRoutes', {
      body: { origin: { address: 'Lisbon' }, destination: { address: 'Porto' } },
      headers: { 'X-Goog-Api-Key': KEY, 'X-Goog-FieldMask': 'routes.distanceMeters,routes.duration' },
    });
    const route = (v2.json.routes as Array<{ distanceMeters: number; duration: string }>)[0];
    assert.equal(leg.distance.value, route.distanceMeters);
    assert.equal(`${leg.duration.value}s`, route.duration);
    const points = decodePolyline(r.json.routes[0].overview_polyline.points);
    assert.ok(near(leg.start_location, points[0]) && near(leg.end_location, points[points.length - 1]));
    assert.equal(leg.steps[0].travel_mode, 'DRIVING');
    assert.match(leg.steps[0].html_instructions, /^Head (north|northeast|northwest)/);
    assert.ok(leg.steps.slice(1).every((s) => s.maneuver !== undefined));
  });

  it('"lat,lng" and "place_id:…" stops, waypoints, and mode=walking', async () => {
    const porto = (await classic(sb, 'geocode', { address: 'Porto' })).json.results[0];
    const r = await classic(sb, 'directions', { origin: '38.7223,-9.1393', destination: `place_id:${porto.place_id}`, waypoints: 'Coimbra', mode: 'walking' });
    assert.equal(r.json.status, 'OK');
    assert.equal(r.json.geocoded_waypoints[2].place_id, porto.place_id);
    const legs = r.json.routes[0].legs;
    assert.deepEqual(
      legs.map((l) => [l.start_address, l.end_address]),
      [
        ['Lisbon, Portugal', 'Coimbra, Portugal'],
        ['Coimbra, Portugal', 'Porto, Portugal'],
      ],
    );
    assert.deepEqual(r.json.routes[0].waypoint_order, [0]);
    assert.equal(legs[0].steps[0].travel_mode, 'WALKING');
    // On foot Lisbon to Coimbra takes days.
    assert.ok(legs[0].duration.value > 24 * 3600, String(legs[0].duration.value));
  });

  it('NOT_FOUND when a stop cannot be geocoded, ZERO_RESULTS when no road joins them', async () => {
    const lost = await classic(sb, 'directions', { origin: 'Lisbon', destination: 'Qxzzyplorkvillezz' });
    assert.equal(lost.status, 200);
    assert.equal(lost.json.status, 'NOT_FOUND');
    assert.deepEqual(lost.json.routes, []);
    assert.deepEqual(
      lost.json.geocoded_waypoints.map((w) => w.geocoder_status),
      ['OK', 'ZERO_RESULTS'],
    );
    const ocean = await classic(sb, 'directions', { origin: 'Lisbon', destination: 'New York' });
    assert.equal(ocean.json.status, 'ZERO_RESULTS');
    assert.deepEqual(ocean.json.routes, []);
  });

  it('INVALID_REQUEST for a missing stop or an unknown mode; MAX_WAYPOINTS_EXCEEDED past 25', async () => {
    const missing = await classic(sb, 'directions', { origin: 'Lisbon' });
    assert.deepEqual(missing.json, {
      geocoded_waypoints: [],
      routes: [],
      error_message: "Invalid request. Missing the 'destination' parameter.",
      status: 'INVALID_REQUEST',
    });
    const mode = await classic(sb, 'directions', { origin: 'Lisbon', destination: 'Porto', mode: 'teleport' });
    assert.equal(mode.json.error_message, "Invalid request. Invalid 'mode' parameter.");
    const many = await classic(sb, 'directions', { origin: 'Lisbon', destination: 'Porto', waypoints: Array(26).fill('Coimbra').join('|') });
    assert.equal(many.json.status, 'MAX_WAYPOINTS_EXCEEDED');
  });
});

describe('maps sandbox: classic Distance Matrix', function () {
  this.timeout(20_000);
  let sb: MapsSandbox;
  before(async () => {
    sb = await startSandbox();
  });
  after(() => sb.close());

  it('rows × elements with a status each: OK, NOT_FOUND (not geocoded), ZERO_RESULTS (no road); addresses in order', async () => {
    const r = await classic(sb, 'distancematrix', { origins: 'Lisbon|Porto', destinations: 'Madrid|Qxzzyplorkvillezz|New York' });
    assert.equal(r.status, 200);
    assert.equal(r.json.status, 'OK');
    assert.deepEqual(r.json.origin_addresses, ['Lisbon, Portugal', 'Porto, Portugal']);
    assert.deepEqual(r.json.destination_addresses, ['Madrid, Spain', '', 'New York City, NY, USA']);
    assert.deepEqual(
      r.json.rows.map((row) => row.elements.map((e) => e.status)),
      [
        ['OK', 'NOT_FOUND', 'ZERO_RESULTS'],
        ['OK', 'NOT_FOUND', 'ZERO_RESULTS'],
      ],
    );
    const lisbonMadrid = r.json.rows[0].elements[0];
    assert.match(lisbonMadrid.distance?.text ?? '', /^\d+ km$/);
    assert.ok((lisbonMadrid.distance?.value ?? 0) > 500_000, JSON.stringify(lisbonMadrid));
    // The same leg as Directions draws.
    const directions = await classic(sb, 'directions', { origin: 'Lisbon', destination: 'Madrid' });
    assert.equal(lisbonMadrid.distance?.value, directions.json.routes[0].legs[0].distance.value);
  });

  it('INVALID_REQUEST without origins or destinations; MAX_DIMENSIONS_EXCEEDED and MAX_ELEMENTS_EXCEEDED past the limits', async () => {
    const none = await classic(sb, 'distancematrix', { destinations: 'Porto' });
    assert.deepEqual(none.json, {
      destination_addresses: [],
      origin_addresses: [],
      rows: [],
      error_message: "Invalid request. Missing the 'origins' parameter.",
      status: 'INVALID_REQUEST',
    });
    const wide = await classic(sb, 'distancematrix', { origins: Array(26).fill('Lisbon').join('|'), destinations: 'Porto' });
    assert.equal(wide.json.status, 'MAX_DIMENSIONS_EXCEEDED');
    const big = await classic(sb, 'distancematrix', { origins: Array(11).fill('Lisbon').join('|'), destinations: Array(10).fill('Porto').join('|') });
    assert.equal(big.json.status, 'MAX_ELEMENTS_EXCEEDED');
  });
});
