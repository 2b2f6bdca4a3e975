// The offline basemap's data: the world-atlas TopoJSON the build ships, decoded as the webviews
// decode it, must put places in the right countries, separate coastlines from borders, and give a
// graticule that suits the view and stays inside Web Mercator's square world.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { BASEMAP_FILE, countryAt, decodeBasemap, graticule, graticuleStep, MERCATOR_MAX_LAT, type Basemap, type Line } from '../../../src/webview/lib/basemap';
import { repoRoot } from '../helpers/sandboxProcess';

describe('offline basemap (world-atlas 110m)', () => {
  let basemap: Basemap;

  before(() => {
    // The file esbuild.mjs copies beside the webview bundles.
    const shipped = JSON.parse(readFileSync(path.join(repoRoot(), 'node_modules/world-atlas', BASEMAP_FILE), 'utf8')) as unknown;
    basemap = decodeBasemap(shipped);
  });

  it('decodes every country with a name and polygons in [lat, lng] order', () => {
    assert.ok(basemap.countries.length >= 170, `only ${basemap.countries.length} countries`);
    for (const c of basemap.countries) {
      assert.ok(c.name, 'a country without a name');
      for (const ring of c.polygons.flat()) {
        for (const [lat, lng] of ring) assert.ok(Math.abs(lat) <= 90 && Math.abs(lng) <= 180, `${c.name}: ${lat},${lng} is not [lat, lng]`);
      }
    }
  });

  it('places cities in their countries and the open sea in none', () => {
    const cases: Array<[string, [number, number], string | undefined]> = [
      ['Lyon', [45.76, 4.83], 'France'],
      ['Paris', [48.85, 2.35], 'France'],
      ['Mountain View', [37.39, -122.08], 'United States of America'],
      ['Sydney', [-33.87, 151.0], 'Australia'],
      ['São Paulo', [-23.55, -46.63], 'Brazil'],
      ['mid-Atlantic', [30, -40], undefined],
      ['Mediterranean', [35.5, 18], undefined],
    ];
    for (const [label, point, country] of cases) assert.equal(countryAt(basemap, point), country, label);
  });

  it('splits the arcs: coastlines border one country, borders two (France–Spain along the Pyrenees)', () => {
    assert.ok(basemap.coastlines.length > 50 && basemap.borders.length > 100, `${basemap.coastlines.length} coastlines, ${basemap.borders.length} borders`);
    const inBox = (l: Line, s: number, w: number, n: number, e: number) => l.every(([lat, lng]) => lat >= s && lat <= n && lng >= w && lng <= e);
    assert.ok(
      basemap.borders.some((l) => inBox(l, 42.2, -2, 43.5, 3.3)),
      'no border line along the Pyrenees',
    );
    // The Atlantic coast of France is a coastline, not a border.
    assert.ok(basemap.coastlines.some((l) => l.some(([lat, lng]) => lat > 44 && lat < 47.5 && lng > -2.5 && lng < -1)));
    assert.ok(!basemap.borders.some((l) => l.some(([lat, lng]) => lat > 44 && lat < 47.5 && lng > -2.5 && lng < -1)));
  });

  it('refuses data that is not a countries topology, saying so', () => {
    assert.throws(() => decodeBasemap({ type: 'FeatureCollection', features: [] }), /not a world-atlas countries topology/);
    assert.throws(() => decodeBasemap({ type: 'Topology', arcs: [], objects: {} }), /not a world-atlas countries topology/);
  });
});

describe('offline basemap graticule (Web Mercator)', () => {
  it('picks a spacing giving a handful of lines: 30° for the world, 2° for a country, 0.1° for a city', () => {
    assert.equal(graticuleStep(360), 30);
    assert.equal(graticuleStep(120), 30);
    assert.equal(graticuleStep(10), 2);
    assert.equal(graticuleStep(3.5), 1);
    assert.equal(graticuleStep(0.5), 0.1);
  });

  it('covers the world in 30° steps without crossing Mercator latitude limit', () => {
    const g = graticule({ south: -90, west: -180, north: 90, east: 180 }, 30);
    assert.deepEqual(
      g.meridians.map((l) => l[0][1]),
      [-180, -150, -120, -90, -60, -30, 0, 30, 60, 90, 120, 150, 180],
    );
    assert.deepEqual(
      g.parallels.map((l) => l[0][0]),
      [-60, -30, 0, 30, 60],
    );
    for (const m of g.meridians) assert.deepEqual([m[0][0], m[1][0]], [-MERCATOR_MAX_LAT, MERCATOR_MAX_LAT]);
  });

  it('around a city: exact multiples of 0.1° one step beyond the view, no drift', () => {
    const g = graticule({ south: 45.72, west: 4.78, north: 45.81, east: 4.9 }, 0.1);
    assert.deepEqual(
      g.parallels.map((l) => l[0][0]),
      [45.7, 45.8, 45.9],
    );
    assert.deepEqual(
      g.meridians.map((l) => l[0][1]),
      [4.7, 4.8, 4.9, 5],
    );
    for (const p of g.parallels) assert.deepEqual([p[0][1], p[1][1]], [4.68, 5]);
  });
});
