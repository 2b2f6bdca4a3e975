// Billing SKUs against Google's documented field lists (Place Details, Text Search, Nearby Search)
// and Routes features: several fields on each side of every SKU boundary.
import * as assert from 'node:assert/strict';
import { placeTierMasks } from '../../../src/services/maps/fieldMasks';
import { compareSku, DEFAULT_SKU_PRICES, skuOf, type SkuOperation } from '../../../src/services/maps/sku';

const sku = (op: SkuOperation, mask: string) => skuOf(op, mask).sku;

describe('maps/sku: which SKU a mask or a request is billed under', () => {
  it('Place Details: each documented field lands in its SKU', () => {
    for (const f of ['id', 'name', 'photos', 'attributions', 'movedPlaceId']) assert.equal(sku('getPlace', f), 'Place Details Essentials (IDs Only)', f);
    for (const f of ['formattedAddress', 'location', 'viewport', 'types', 'addressComponents', 'plusCode', 'shortFormattedAddress'])
      assert.equal(sku('getPlace', `id,${f}`), 'Place Details Essentials', f);
    for (const f of ['displayName', 'businessStatus', 'googleMapsUri', 'primaryType', 'utcOffsetMinutes', 'iconMaskBaseUri'])
      assert.equal(sku('getPlace', `location,${f}`), 'Place Details Pro', f);
    for (const f of ['rating', 'userRatingCount', 'websiteUri', 'nationalPhoneNumber', 'regularOpeningHours', 'priceLevel'])
      assert.equal(sku('getPlace', `displayName,${f}`), 'Place Details Enterprise', f);
    for (const f of ['reviews', 'takeout', 'servesCoffee', 'editorialSummary', 'parkingOptions', 'allowsDogs'])
      assert.equal(sku('getPlace', `rating,${f}`), 'Place Details Enterprise + Atmosphere', f);
  });

  it('names the fields that put a mask in its SKU, reads sub-paths and snake_case, and prices it', () => {
    const r = skuOf('getPlace', 'id, display_name.text ,location,rating,user_rating_count');
    assert.equal(r.sku, 'Place Details Enterprise');
    assert.deepEqual(r.because.sort(), ['rating', 'userRatingCount']);
    assert.equal(r.pricePer1000, 20);
    assert.equal(r.per, 'request');
    assert.deepEqual(skuOf('getPlace', 'id').because, [], 'the cheapest SKU has no reason');
    assert.equal(skuOf('getPlace', 'rating', { prices: { 'Place Details Enterprise': 21.5 } }).pricePer1000, 21.5, 'the price table is editable');
    assert.deepEqual(skuOf('getPlace', 'id,notAField').unknownFields, ['notAField']);
  });

  it('"*" is the dearest SKU of every Places method', () => {
    assert.equal(sku('getPlace', '*'), 'Place Details Enterprise + Atmosphere');
    assert.equal(sku('searchText', '*'), 'Text Search Enterprise + Atmosphere');
    assert.equal(sku('searchText', 'places.*'), 'Text Search Enterprise + Atmosphere');
    assert.equal(sku('searchNearby', '*'), 'Nearby Search Enterprise + Atmosphere');
    assert.equal(skuOf('getPlace', '*').pricePer1000, 25);
  });

  it('Text Search: IDs only, then Pro for Essentials and Pro fields, then as Details', () => {
    assert.equal(sku('searchText', 'places.id,places.name,nextPageToken'), 'Text Search Essentials (IDs Only)');
    assert.equal(skuOf('searchText', 'places.id').pricePer1000, 0);
    for (const f of ['formattedAddress', 'location', 'displayName', 'photos', 'primaryType'])
      assert.equal(sku('searchText', `places.id,places.${f}`), 'Text Search Pro', f);
    assert.equal(sku('searchText', 'places.id,searchUri'), 'Text Search Pro');
    for (const f of ['rating', 'priceLevel', 'currentOpeningHours'])
      assert.equal(sku('searchText', `places.displayName,places.${f}`), 'Text Search Enterprise', f);
    for (const f of ['reviews', 'dineIn', 'servesWine']) assert.equal(sku('searchText', `places.rating,places.${f}`), 'Text Search Enterprise + Atmosphere', f);
    assert.equal(sku('searchText', 'places.id,routingSummaries'), 'Text Search Enterprise + Atmosphere');
    assert.equal(skuOf('searchText', 'places.displayName').pricePer1000, 32);
  });

  it('Nearby Search has no IDs-only SKU: ids are Pro', () => {
    assert.equal(sku('searchNearby', 'places.id'), 'Nearby Search Pro');
    assert.equal(sku('searchNearby', 'places.id,places.location,places.displayName'), 'Nearby Search Pro');
    assert.equal(sku('searchNearby', 'places.id,places.userRatingCount'), 'Nearby Search Enterprise');
    assert.equal(sku('searchNearby', 'places.id,places.outdoorSeating'), 'Nearby Search Enterprise + Atmosphere');
    assert.equal(skuOf('searchNearby', 'places.websiteUri').pricePer1000, 35);
  });

  it('autocomplete bills per request; from the 13th request of a session, nothing', () => {
    assert.equal(skuOf('autocomplete', '*').sku, 'Autocomplete Requests');
    assert.equal(skuOf('autocomplete', '').pricePer1000, 2.83);
    assert.equal(skuOf('autocomplete', '', { sessionRequestNumber: 12 }).sku, 'Autocomplete Requests');
    assert.equal(skuOf('autocomplete', '', { sessionRequestNumber: 13 }).pricePer1000, 0);
  });

  it('Routes: Essentials, Pro and Enterprise by the features the request uses', () => {
    const mask = 'routes.duration,routes.distanceMeters';
    assert.equal(skuOf('computeRoutes', mask, { travelMode: 'DRIVE', routingPreference: 'TRAFFIC_UNAWARE' }).sku, 'Compute Routes Essentials');
    assert.equal(skuOf('computeRoutes', '*').sku, 'Compute Routes Essentials', 'a mask alone does not move a Routes SKU');
    const stop = { location: { latLng: { latitude: 1, longitude: 2 } } };
    assert.equal(skuOf('computeRoutes', mask, { intermediates: Array(10).fill(stop) }).sku, 'Compute Routes Essentials');
    const eleven = skuOf('computeRoutes', mask, { intermediates: Array(11).fill(stop) });
    assert.equal(eleven.sku, 'Compute Routes Pro');
    assert.match(eleven.because[0], /11 intermediate/);
    assert.equal(skuOf('computeRoutes', mask, { routingPreference: 'TRAFFIC_AWARE' }).pricePer1000, 10);
    assert.equal(skuOf('computeRoutes', mask, { routingPreference: 'TRAFFIC_AWARE_OPTIMAL' }).sku, 'Compute Routes Pro');
    assert.equal(skuOf('computeRoutes', mask, { optimizeWaypointOrder: true }).sku, 'Compute Routes Pro');
    assert.equal(skuOf('computeRoutes', mask, { origin: { sideOfRoad: true } }).sku, 'Compute Routes Pro');
    assert.equal(skuOf('computeRoutes', mask, { destination: { location: { heading: 90 } } }).sku, 'Compute Routes Pro');
    const twoWheeler = skuOf('computeRoutes', mask, { travelMode: 'TWO_WHEELER', routingPreference: 'TRAFFIC_AWARE' });
    assert.equal(twoWheeler.sku, 'Compute Routes Enterprise');
    assert.deepEqual(twoWheeler.because, ['travelMode TWO_WHEELER']);
    assert.equal(skuOf('computeRoutes', mask, { extraComputations: ['TOLLS'] }).pricePer1000, 15);
    assert.equal(skuOf('computeRoutes', mask, { extraComputations: ['TRAFFIC_ON_POLYLINE'] }).sku, 'Compute Routes Enterprise');
  });

  it('Route matrix: per element, Pro when traffic-aware, Enterprise for two-wheelers', () => {
    const mask = 'originIndex,destinationIndex,duration';
    const basic = skuOf('computeRouteMatrix', mask, { travelMode: 'DRIVE' });
    assert.equal(basic.sku, 'Compute Route Matrix Essentials');
    assert.equal(basic.per, 'element');
    assert.equal(skuOf('computeRouteMatrix', mask, { routingPreference: 'TRAFFIC_AWARE' }).sku, 'Compute Route Matrix Pro');
    assert.equal(skuOf('computeRouteMatrix', mask, { travelMode: 'TWO_WHEELER' }).sku, 'Compute Route Matrix Enterprise');
  });

  it('compareSku says when a mask change moves to a dearer SKU, and which fields did it', () => {
    const up = compareSku('id,displayName', 'id,displayName,rating,websiteUri', { operation: 'getPlace' });
    assert.equal(up.from.sku, 'Place Details Pro');
    assert.equal(up.to.sku, 'Place Details Enterprise');
    assert.ok(up.dearer && !up.cheaper);
    assert.equal(up.deltaPer1000, 3);
    assert.deepEqual(up.raisedBy.sort(), ['rating', 'websiteUri']);
    const same = compareSku('id,displayName', 'displayName,primaryType', { operation: 'getPlace' });
    assert.ok(!same.dearer && !same.cheaper);
    const down = compareSku('*', 'places.id', { operation: 'searchText' });
    assert.ok(down.cheaper);
    assert.equal(down.deltaPer1000, -40);
    assert.deepEqual(down.raisedBy, []);
    assert.equal(compareSku('places.id', 'places.id,places.location', { operation: 'searchText' }).to.pricePer1000, DEFAULT_SKU_PRICES['Text Search Pro']);
  });

  it('the Places presets step through the SKUs, one mask per tier, cheapest first', () => {
    assert.deepEqual(
      placeTierMasks('getPlace').map((m) => sku('getPlace', m)),
      [
        'Place Details Essentials (IDs Only)',
        'Place Details Essentials',
        'Place Details Pro',
        'Place Details Enterprise',
        'Place Details Enterprise + Atmosphere',
      ],
    );
    assert.deepEqual(
      placeTierMasks('searchText').map((m) => sku('searchText', m)),
      ['Text Search Essentials (IDs Only)', 'Text Search Pro', 'Text Search Pro', 'Text Search Enterprise', 'Text Search Enterprise + Atmosphere'],
    );
    assert.deepEqual(placeTierMasks('computeRoutes'), []);
  });
});
