// The maps session cost counts every request billed by SKU, wherever it was sent from: a notebook
// `maps` cell (a plain request, priced from its path, mask and body) and the playground's maps tools
// (MapsClient calls, against the real sandbox) add to the same tally as the palette commands.
import * as assert from 'node:assert/strict';
import { MapsClient } from '../../../src/services/maps/client';
import { billedRequest } from '../../../src/features/maps/billing';
import { priceTable, SessionCosts } from '../../../src/features/maps/costs';
import { httpClient, startSandbox, type MapsSandbox } from '../maps/helpers';

const BASE = 'https://places.googleapis.com';

describe('maps billing of requests sent outside the palette', function () {
  this.timeout(20_000);

  it('prices a request from its path, field mask (header in any case, or ?fields=) and body', () => {
    assert.deepEqual(billedRequest({ method: 'POST', url: `${BASE}/v1/places:searchText`, headers: { 'x-goog-fieldmask': 'places.id' }, body: '{}' }), {
      operation: 'searchText',
      fieldMask: 'places.id',
      options: {},
      units: 1,
    });
    assert.equal(billedRequest({ method: 'GET', url: `${BASE}/v1/places/ChIJ123?fields=id,rating`, headers: {} })?.fieldMask, 'id,rating');
    assert.equal(billedRequest({ method: 'GET', url: `${BASE}/v1/places/ChIJ123`, headers: {} })?.operation, 'getPlace');
    const route = billedRequest({
      method: 'POST',
      url: 'http://127.0.0.1:9/directions/v2:computeRoutes',
      headers: { 'X-Goog-FieldMask': 'routes.duration' },
      body: JSON.stringify({ origin: { address: 'Lyon' }, destination: { address: 'Paris' }, travelMode: 'TWO_WHEELER' }),
    });
    assert.equal(route?.operation, 'computeRoutes');
    assert.equal(route?.options.travelMode, 'TWO_WHEELER', 'the body decides the Routes SKU');
    const matrix = billedRequest({
      method: 'POST',
      url: 'http://127.0.0.1:9/distanceMatrix/v2:computeRouteMatrix',
      headers: {},
      body: { origins: [{}, {}], destinations: [{}, {}, {}] },
    });
    assert.equal(matrix?.units, 6, 'the matrix is billed per element');
  });

  it('leaves alone what is not billed by SKU here, and counts a body it cannot read at the base SKU', () => {
    assert.equal(billedRequest({ method: 'GET', url: 'https://maps.googleapis.com/maps/api/geocode/json?address=Lyon', headers: {} }), undefined);
    assert.equal(billedRequest({ method: 'POST', url: 'https://addressvalidation.googleapis.com/v1:validateAddress', headers: {} }), undefined);
    assert.equal(billedRequest({ method: 'GET', url: `${BASE}/v1/places:searchText`, headers: {} }), undefined, 'wrong method');
    assert.equal(billedRequest({ method: 'POST', url: 'not a url', headers: {} }), undefined);
    const broken = billedRequest({ method: 'POST', url: `${BASE}/directions/v2:computeRoutes`, headers: {}, body: '{"travelMode": ' });
    assert.deepEqual(broken && { options: broken.options, units: broken.units }, { options: {}, units: 1 });
  });

  it('a notebook cell and a playground call add to the one tally the maps view shows, and every listener hears it', () => {
    const costs = new SessionCosts(() => priceTable({}));
    const heard: string[] = [];
    costs.onDidChange(() => heard.push('view'));
    const other = costs.onDidChange(() => heard.push('other'));
    costs.record('getPlace', 'id,location'); // the palette
    const cell = costs.recordRequest({
      method: 'POST',
      url: `${BASE}/v1/places:searchText`,
      headers: { 'X-Goog-FieldMask': 'places.id' },
      body: '{"textQuery":"Lyon"}',
    });
    assert.equal(cell?.sku, 'Text Search Essentials (IDs Only)');
    other.dispose();
    const tool = costs.recordAnswered({ operation: 'computeRoutes', fieldMask: 'routes.duration', body: { travelMode: 'DRIVE' } });
    assert.equal(tool?.sku, 'Compute Routes Essentials');
    assert.equal(costs.recordAnswered({ operation: 'validateAddress', fieldMask: '*', body: {} }), undefined, 'Address Validation is not tracked');
    assert.equal(costs.requests, 3);
    assert.deepEqual(heard, ['view', 'other', 'view', 'other', 'view']);
  });

  describe('MapsClient tells who listens what was answered', () => {
    let sb: MapsSandbox;
    before(async () => (sb = await startSandbox()));
    after(() => sb.close());

    it('each answered call, with its mask and body; a refused one is not billed', async () => {
      const costs = new SessionCosts(() => priceTable({}));
      const maps = new MapsClient(httpClient(sb), {}, (call) => costs.recordAnswered(call));
      await maps.searchText({ textQuery: 'Lyon', maxResultCount: 1 }); // the basic preset asks for rating: Enterprise
      await maps.computeRouteMatrix({
        origins: [{ waypoint: { address: 'Lyon' } }],
        destinations: [{ waypoint: { address: 'Paris' } }, { waypoint: { address: 'Dijon' } }],
      });
      await assert.rejects(
        new MapsClient(httpClient(sb, {}, 'AIzaWrongKey000000000000000000000'), {}, (call) => costs.recordAnswered(call)).searchText({ textQuery: 'Lyon' }),
      );
      const lines = Object.fromEntries(costs.list().map((l) => [l.sku, l.units]));
      assert.deepEqual(lines, { 'Text Search Enterprise': 1, 'Compute Route Matrix Essentials': 2 });
    });
  });
});
