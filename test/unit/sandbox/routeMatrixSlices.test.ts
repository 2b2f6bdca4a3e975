// A sibling of "the sandbox must survive its users" (issue "Reliability, round 3", class 3): a
// Routes v2 matrix of 625 long routes is ~80 ms of work, and 16 of them at once held the sandbox's
// one thread for over a second (a WebSocket ping or a tiny request waited behind all of them). The
// matrix is now computed in time slices: the event loop gets turns while it is computed, and the
// matrix is still whole.
import * as assert from 'node:assert/strict';
import { computeRouteMatrix } from '../../../src/sandbox/maps/routes';
import { TimeSlicer } from '../../../src/core/timeSlicer';

/** 25 European cities: 625 routes of hundreds to thousands of kilometres. */
const CITIES: ReadonlyArray<[number, number]> = [
  [38.72, -9.14], [41.15, -8.61], [40.42, -3.7], [48.86, 2.35], [52.52, 13.4], [41.9, 12.5], [48.2, 16.37], [50.08, 14.43], [52.23, 21.01],
  [59.91, 10.75], [53.35, -6.26], [51.5, -0.12], [50.85, 4.35], [52.37, 4.9], [47.37, 8.54], [45.46, 9.19], [48.14, 11.58], [53.55, 9.99],
  [45.76, 4.83], [37.39, -5.98], [39.47, -0.38], [41.39, 2.17], [44.84, -0.58], [43.3, 5.37], [43.7, 7.27],
]; // prettier-ignore

describe('sandbox: route matrices are computed in time slices', () => {
  it('while a 25×25 matrix of long routes is computed, the event loop gets turns (I/O, timers, WebSocket pings); the matrix is whole', async () => {
    const waypoints = CITIES.map(([latitude, longitude]) => ({ waypoint: { location: { latLng: { latitude, longitude } } } }));
    let turns = 0;
    let done = false;
    const count = () => {
      turns++;
      if (!done) setImmediate(count);
    };
    setImmediate(count);
    // A slice that is always used up: the matrix gives the event loop a turn at every place it may,
    // however fast this machine computes it. With the 8 ms slices of a real request, a fast core
    // finished all 625 routes inside one slice and the test failed (issue 39: tests that wait on time).
    const elements = await computeRouteMatrix({ origins: waypoints, destinations: waypoints }, new TimeSlicer(0));
    done = true;
    assert.equal(elements.length, CITIES.length * CITIES.length, 'a whole matrix');
    assert.ok(turns >= CITIES.length, `the matrix gave the event loop ${turns} turns in ${CITIES.length * CITIES.length} routes`);
  });
});
