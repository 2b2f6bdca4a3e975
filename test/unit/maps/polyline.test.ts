import * as assert from 'node:assert/strict';
import { decodePolyline, encodePolyline, PolylineError } from '../../../src/services/maps/polyline';

// The example of Google's "Encoded Polyline Algorithm Format" page.
const GOOGLE_EXAMPLE = '_p~iF~ps|U_ulLnnqC_mqNvxq`@';
const GOOGLE_POINTS = [
  { latitude: 38.5, longitude: -120.2 },
  { latitude: 40.7, longitude: -120.95 },
  { latitude: 43.252, longitude: -126.453 },
];

describe('maps/polyline: Google encoded polylines', () => {
  it("decodes Google's documented example to (38.5, -120.2), (40.7, -120.95), (43.252, -126.453)", () => {
    assert.deepEqual(decodePolyline(GOOGLE_EXAMPLE), GOOGLE_POINTS);
  });

  it("encodes those points back to Google's string", () => {
    assert.equal(encodePolyline(GOOGLE_POINTS), GOOGLE_EXAMPLE);
  });

  it('round-trips points at 5-decimal precision, across the antimeridian and poles', () => {
    const pts = [
      { latitude: -33.86785, longitude: 151.20732 },
      { latitude: 0, longitude: 179.99999 },
      { latitude: 0.00001, longitude: -179.99999 },
      { latitude: 89.99999, longitude: 0 },
      { latitude: -90, longitude: -180 },
    ];
    assert.deepEqual(decodePolyline(encodePolyline(pts)), pts);
  });

  it('an empty string is an empty path', () => {
    assert.deepEqual(decodePolyline(''), []);
  });

  it('refuses strings that are not polylines instead of returning NaN coordinates', () => {
    assert.throws(() => decodePolyline('abc def'), PolylineError); // space is outside the alphabet
    assert.throws(() => decodePolyline(GOOGLE_EXAMPLE.slice(0, -1)), PolylineError); // cut mid-value
    assert.throws(() => decodePolyline('_p~iF'), PolylineError); // a latitude without its longitude
    assert.throws(() => decodePolyline('~~~~~~~~~~~~~?~~~~~~~~~~~~~?'), PolylineError); // far off the globe
  });
});
