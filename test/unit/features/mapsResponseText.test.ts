import * as assert from 'node:assert/strict';
import { Redactor } from '../../../src/core/redact';
import { redactedData, responseDocumentText } from '../../../src/features/maps/responseText';

const KEY = 'AIzaSyEcho-0123456789abcdef';

function redactor(...secrets: string[]): (t: string) => string {
  const r = new Redactor();
  for (const s of secrets) r.addSecret(s);
  return (t) => r.text(t);
}

describe('maps response documents', () => {
  it('masks a key the server echoed anywhere in the answer: values, nested arrays, URLs, property names', () => {
    const echoed = {
      error: { code: 403, message: `API key ${KEY} is not valid for this API`, status: 'PERMISSION_DENIED' },
      places: [
        {
          displayName: { text: 'Café' },
          photos: [{ uri: `https://maps.example/photo?maxwidth=400&key=${KEY}` }],
          location: { latitude: 38.7, longitude: -9.1 },
        },
      ],
      [KEY]: true,
      debug: { request: { headers: { 'X-Goog-Api-Key': KEY } } },
    };
    const text = responseDocumentText(echoed, redactor(KEY));
    assert.ok(!text.includes(KEY), text);
    assert.ok(!text.includes(KEY.slice(0, 12)), 'no part of the key survives');
    const back = JSON.parse(text) as typeof echoed;
    // Everything else is the answer as it came: numbers, booleans, the place's name and geometry.
    assert.equal(back.error.code, 403);
    assert.equal(back.error.message, 'API key *** is not valid for this API');
    assert.equal(back.places[0].displayName.text, 'Café');
    assert.deepEqual(back.places[0].location, { latitude: 38.7, longitude: -9.1 });
    assert.equal(back.places[0].photos[0].uri, 'https://maps.example/photo?maxwidth=400&key=***');
    assert.equal((back as Record<string, unknown>)['***'], true);
    assert.equal(back.debug.request.headers['X-Goog-Api-Key'], '***');
  });

  it('masks a key with characters JSON escapes (quotes, backslashes), which a search over the JSON text would miss', () => {
    const odd = 'k"ey\\with/quote';
    const text = responseDocumentText({ echo: `sent ${odd}` }, redactor(odd));
    assert.ok(!text.includes(JSON.stringify(odd).slice(1, -1)), text);
    assert.deepEqual(JSON.parse(text), { echo: 'sent ***' });
  });

  it('keeps the shape of the data for the results tree and the map (strings stay strings, nothing else changes)', () => {
    const data = { results: [{ id: 'a', n: 1, ok: null, flag: false, nested: [[1, 'x']] }], nextPageToken: 'token-123456' };
    assert.deepEqual(redactedData(data, redactor(KEY)), data);
    assert.equal(responseDocumentText(data, redactor(KEY)), JSON.stringify(data, null, 2) + '\n');
  });
});
