import * as assert from 'node:assert/strict';
import {
  CHECK_SUBJECTS,
  HEADERS,
  OfferCache,
  describeModel,
  fieldsAt,
  findOperation,
  maskFieldsOf,
  maskSelects,
  modelFacts,
  offerKey,
  operationsOf,
  responseHas,
} from '../../../src/catalogue';
import { parseAssertion } from '../../../src/notebook/api';

describe('catalogue: what each service accepts', () => {
  it('finds the operation of a request line, path parameters and {{variables}} included', () => {
    assert.equal(findOperation('llm', 'POST', '/chat/completions')?.id, 'llm.chat');
    assert.equal(findOperation('maps', 'post', '/v1/places:searchText')?.id, 'maps.searchText');
    assert.equal(findOperation('maps', 'GET', '/v1/places/{{place.json.places[0].id}}?languageCode=de')?.id, 'maps.getPlace');
    assert.equal(findOperation('maps', 'GET', '/v1/places:searchText'), undefined, 'the method matters');
    assert.equal(findOperation('llm', 'POST', '/v1/places:searchText'), undefined, 'the service matters');
    assert.ok(operationsOf('maps').some((o) => o.id === 'maps.computeRouteMatrix'));
  });

  it('reads body fields from the services’ zod schemas: required, enums, nested objects and array items', () => {
    const chat = findOperation('llm', 'POST', '/chat/completions')!.body!();
    const model = chat.find((f) => f.name === 'model')!;
    assert.equal(model.required, true);
    assert.deepEqual(model.types, ['string']);
    assert.equal(chat.find((f) => f.name === 'temperature')?.required, false);
    const roles = fieldsAt(chat, ['messages', 0])!.find((f) => f.name === 'role')!;
    assert.deepEqual(roles.values, ['system', 'developer', 'user', 'assistant', 'tool', 'function']);

    const routes = findOperation('maps', 'POST', '/directions/v2:computeRoutes')!.body!();
    assert.deepEqual(routes.find((f) => f.name === 'travelMode')?.values, ['TRAVEL_MODE_UNSPECIFIED', 'DRIVE', 'BICYCLE', 'WALK', 'TWO_WHEELER', 'TRANSIT']);
    assert.ok(fieldsAt(routes, ['origin', 'location'])!.some((f) => f.name === 'latLng'));
    const search = findOperation('maps', 'POST', '/v1/places:searchText')!.body!();
    assert.ok(search.some((f) => f.name === 'textQuery'));
  });

  it('lists field-mask fields with the SKU each one bills under (the SKU table)', () => {
    const fields = maskFieldsOf(findOperation('maps', 'POST', '/v1/places:searchText')!);
    const rating = fields.find((f) => f.path === 'places.rating')!;
    assert.equal(rating.sku?.tier, 'Enterprise');
    assert.equal(rating.sku?.sku, 'Text Search Enterprise');
    assert.equal(rating.sku?.pricePer1000, 35);
    assert.equal(fields.find((f) => f.path === 'places.id')?.sku?.tier, 'Essentials (IDs Only)');
    assert.ok(fields.some((f) => f.path === 'nextPageToken'));
  });

  it('knows which JSON paths an answer has and which a mask selects', () => {
    const search = findOperation('maps', 'POST', '/v1/places:searchText')!;
    assert.equal(responseHas(search, ['places', 0, 'displayName', 'text']), true);
    assert.equal(responseHas(search, ['places', 0, 'displayname']), false);
    const matrix = findOperation('maps', 'POST', '/distanceMatrix/v2:computeRouteMatrix')!;
    assert.equal(responseHas(matrix, [0, 'distanceMeters']), true);
    assert.equal(responseHas(matrix, [0, 'distance']), false);
    assert.equal(maskSelects('places.id,places.displayName', search, ['places', 0, 'displayName', 'text']), true);
    assert.equal(maskSelects('places.id,places.displayName', search, ['places', 0, 'rating']), false);
    assert.equal(maskSelects('*', search, ['places', 0, 'rating']), true);
  });

  it('has headers with values, and key headers only as references', () => {
    const type = HEADERS.find((h) => h.name === 'Content-Type')!;
    assert.ok(type.values?.includes('application/json'));
    assert.ok(!HEADERS.some((h) => h.values?.some((v) => /sk-|AIza/.test(v))));
  });

  it('the check subjects are the ones the parser accepts', () => {
    for (const s of CHECK_SUBJECTS) {
      const line = `?? ${s.example}`;
      assert.equal(typeof parseAssertion(line, 1), 'object', line);
      assert.ok(line.startsWith(`?? ${s.word}`), line);
    }
    assert.match(
      parseAssertion('?? colour == red', 1) as string,
      /use status, duration, header <name>, json.<path>, text, body, count, .*, json matches schema <file> or json matches spec/,
    );
  });

  it('prices a model and says what the connection offers of it', () => {
    const offers = [{ id: 'gpt-4o-mini', contextWindow: 128000 }];
    const lines = describeModel(modelFacts('gpt-4o-mini', offers), offers);
    assert.deepEqual(lines, ['offered by the connection', 'context window 128,000 tokens', '$0.15 input, $0.6 output per million tokens']);
    assert.deepEqual(describeModel(modelFacts('my-model', offers), offers), ['not offered by the connection']);
  });
});

describe('catalogue: what a connection offers', () => {
  it('answers at once from the cache and refreshes in the background, once at a time', async () => {
    let now = 0;
    const cache = new OfferCache(() => now, 1000);
    const key = offerKey('llm', 'Local Sandbox');
    assert.equal(cache.modelsOf(key), undefined);
    let loads = 0;
    let release!: (v: Array<{ id: string }>) => void;
    const load = () => {
      loads++;
      return new Promise<Array<{ id: string }>>((r) => (release = r));
    };
    const first = cache.refresh(key, 'models', load);
    assert.equal(cache.refresh(key, 'models', load), undefined, 'a second refresh while one runs is not started');
    assert.equal(cache.modelsOf(key), undefined, 'reading never waits for the refresh');
    release([{ id: 'sandbox-chat' }]);
    await first;
    assert.deepEqual(cache.modelsOf(key), [{ id: 'sandbox-chat' }]);
    assert.equal(cache.refresh(key, 'models', load), undefined, 'a fresh list is not loaded again');
    now = 2000;
    const failed = cache.refresh(key, 'models', () => Promise.reject(new Error('offline')));
    await assert.rejects(failed!);
    assert.deepEqual(cache.modelsOf(key), [{ id: 'sandbox-chat' }], 'a failed refresh keeps the old list');
    assert.equal(loads, 1);
  });

  it('lists a realtime connection’s channels in the background, and lists them again sooner than models', async () => {
    let now = 0;
    const cache = new OfferCache(() => now);
    const key = offerKey('realtime', 'Local Sandbox');
    const occupied = ['demo-ticker'];
    const load = () => Promise.resolve([...occupied]);
    await cache.refresh(key, 'channels', load);
    await cache.refresh(key, 'models', () => Promise.resolve([{ id: 'sandbox-chat' }]));
    assert.deepEqual(cache.channelsOf(key), ['demo-ticker']);
    occupied.push('orders');
    now = 20_000;
    assert.equal(cache.refresh(key, 'channels', load), undefined, 'fresh for a while: typing sends no request');
    now = 31_000;
    await cache.refresh(key, 'channels', load);
    assert.deepEqual(cache.channelsOf(key), ['demo-ticker', 'orders'], 'a channel subscribed since is offered half a minute later at most');
    assert.equal(cache.needsRefresh(key, 'models'), false, 'models stay cached for minutes');
  });
});
