// A real Google Place ID (`ChIJ…`) in a details request: the sandbox answers a synthetic place of
// the Place Details shape, the same for the same id and saying it is sandbox data; a malformed id
// still gets Google's error.
import * as assert from 'node:assert/strict';
import { KEY, raw, startSandbox, type MapsSandbox } from './helpers';

/** Shaped like Google's ids (27 characters), held by no gazetteer. */
const REAL_ID = 'ChIJq6qq6jK1EmsRx9tGf3aLmPQ';
const OTHER_ID = 'ChIJb7cL_9xXcUgR3m7Qv0PK2TA';

describe('maps sandbox: Place Details for a Place ID it does not know', function () {
  this.timeout(20_000);
  let sb: MapsSandbox;
  before(async () => {
    sb = await startSandbox();
  });
  after(() => sb.close());

  const details = (id: string, mask: string) => raw(sb, `/v1/places/${id}`, { headers: { 'X-Goog-Api-Key': KEY, 'X-Goog-FieldMask': mask } });

  it('a well-formed ChIJ id answers a deterministic place under that id, marked as sandbox data', async () => {
    const mask = 'id,name,displayName,formattedAddress,location,types,rating,attributions';
    const first = await details(REAL_ID, mask);
    assert.equal(first.status, 200, JSON.stringify(first.json));
    const place = first.json as {
      id: string;
      name: string;
      displayName: { text: string };
      formattedAddress: string;
      location: { latitude: number };
      types: string[];
      attributions: { provider: string }[];
    };
    assert.equal(place.id, REAL_ID);
    assert.equal(place.name, `places/${REAL_ID}`);
    assert.match(place.displayName.text, /\(sandbox data: synthetic place for a Place ID the sandbox does not know\)$/);
    assert.match(place.attributions[0].provider, /synthetic place/);
    assert.ok(place.formattedAddress.length > 5 && typeof place.location.latitude === 'number' && place.types.length > 0);
    assert.deepEqual((await details(REAL_ID, mask)).json, first.json, 'the same id, the same place');
    const other = await details(OTHER_ID, mask);
    assert.notEqual((other.json as { formattedAddress: string }).formattedAddress, place.formattedAddress);
    const idOnly = await details(REAL_ID, 'id');
    assert.deepEqual(idOnly.json, { id: REAL_ID }, 'the field mask applies as to any place');
  });

  it('a malformed id keeps Google’s answers: a short ChIJ id NOT_FOUND, anything else INVALID_ARGUMENT', async () => {
    const short = await details('ChIJdW5rbm93bg', 'id');
    assert.equal(short.status, 404);
    assert.equal(short.json.error?.status, 'NOT_FOUND');
    const bad = await details('not-a-place-id!', 'id');
    assert.equal(bad.status, 400);
    assert.equal(bad.json.error?.status, 'INVALID_ARGUMENT');
  });
});
