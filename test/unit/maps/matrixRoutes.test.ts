// "Draw actual routes" of a route matrix, against the real sandbox: one Compute Routes request per
// pair with the polyline mask, a few at a time, answers kept in pair order, a pair without a road
// kept as such, and cancelling stops the requests not yet sent.
import * as assert from 'node:assert/strict';
import type { MapsCallOptions, MapsClient } from '../../../src/services/maps/client';
import { PAIR_ROUTE_MASK, routesForPairs, type RoutePair } from '../../../src/services/maps/matrixRoutes';
import { apiErrorOf, cancellationSource } from '../helpers/util';
import { mapsClient, startSandbox, type MapsSandbox } from './helpers';

const LYON = { latitude: 45.76342, longitude: 4.83428 };
const PARIS = { latitude: 48.85661, longitude: 2.35222 };
const MARSEILLE = { latitude: 43.29695, longitude: 5.38107 };
const NEW_YORK = { latitude: 40.71427, longitude: -74.00597 };

const pair = (originIndex: number, destinationIndex: number, origin: RoutePair['origin'], destination: RoutePair['destination']): RoutePair => ({
  originIndex,
  destinationIndex,
  origin,
  destination,
});

describe('maps/matrixRoutes: the routes behind a matrix, against the sandbox', function () {
  this.timeout(20_000);
  let sb: MapsSandbox;
  let maps: MapsClient;
  before(async () => {
    sb = await startSandbox();
    maps = mapsClient(sb);
  });
  after(() => sb.close());

  it('one request per pair with the polyline mask, at most `concurrency` at once, answers in pair order', async () => {
    const pairs = [pair(0, 0, LYON, PARIS), pair(0, 1, LYON, MARSEILLE), pair(1, 0, PARIS, MARSEILLE), pair(1, 1, PARIS, LYON)];
    let inFlight = 0;
    let most = 0;
    const masks: string[] = [];
    const counting: Pick<MapsClient, 'computeRoutes'> = {
      computeRoutes: async (req, opts?: MapsCallOptions) => {
        masks.push([opts?.fieldMask ?? ''].flat().join(','));
        most = Math.max(most, ++inFlight);
        try {
          return await maps.computeRoutes(req, opts);
        } finally {
          inFlight--;
        }
      },
    };
    const progress: number[] = [];
    const routes = await routesForPairs(counting, pairs, 'DRIVE', { concurrency: 2, onRoute: (_r, done) => progress.push(done) });
    assert.equal(masks.length, 4);
    assert.ok(masks.every((m) => m === PAIR_ROUTE_MASK));
    assert.equal(most, 2);
    assert.deepEqual(progress, [1, 2, 3, 4]);
    assert.deepEqual(
      routes.map((r) => [r.pair.originIndex, r.pair.destinationIndex]),
      [
        [0, 0],
        [0, 1],
        [1, 0],
        [1, 1],
      ],
    );
    for (const r of routes) {
      assert.equal(r.problem, undefined);
      assert.ok(r.points.length >= 2, 'a road has points');
      // The road runs from the origin to the destination (within a few km of each).
      const [first, last] = [r.points[0], r.points[r.points.length - 1]];
      assert.ok(
        Math.abs(first.latitude - r.pair.origin.latitude) < 0.1 && Math.abs(last.latitude - r.pair.destination.latitude) < 0.1,
        JSON.stringify([first, last]),
      );
      assert.ok((r.distanceMeters ?? 0) > 250_000);
      assert.match(r.duration ?? '', /^\d+s$/);
    }
  });

  it('a pair with no road is kept as "no route", and the others are drawn', async () => {
    const routes = await routesForPairs(maps, [pair(0, 0, LYON, NEW_YORK), pair(0, 1, LYON, PARIS)], 'DRIVE');
    assert.equal(routes[0].problem, 'no route');
    assert.deepEqual(routes[0].points, []);
    assert.ok(routes[1].points.length >= 2);
  });

  it('cancelling stops the requests not yet sent and rejects as cancelled', async () => {
    const src = cancellationSource();
    let sent = 0;
    const cancelling: Pick<MapsClient, 'computeRoutes'> = {
      computeRoutes: (req, opts) => {
        if (++sent === 2) src.cancel();
        return maps.computeRoutes(req, opts);
      },
    };
    const pairs = Array.from({ length: 6 }, (_, i) => pair(0, i, LYON, i % 2 ? PARIS : MARSEILLE));
    const e = await apiErrorOf(routesForPairs(cancelling, pairs, 'DRIVE', { concurrency: 1, cancel: src.token }));
    assert.equal(e.kind, 'cancelled');
    assert.equal(sent, 2, 'nothing is sent after the cancel');
  });
});
