// The sandbox router: patterns, decoding once and safely, and what a miss says.
import * as assert from 'node:assert/strict';
import { pathSegments, requestUrl, Router } from '../../../src/sandbox/router';

describe('sandbox router', () => {
  const router = new Router<string>()
    .add('GET', '/v1/models/{model}', 'model')
    .add('POST', '/v1/places:searchText', 'search')
    .add('GET', '/v4/geocode/address/{address...}', 'geocode')
    .add('PUT', '/apps/{appId}/sandbox/webhooks', 'put-webhooks')
    .add('GET', '/apps/{appId}/sandbox/webhooks', 'get-webhooks');

  it('binds {name} to one decoded segment and {name...} to the decoded rest', () => {
    assert.deepEqual(router.match('GET', '/v1/models/gpt%2F4o'), { kind: 'found', handler: 'model', params: { model: 'gpt/4o' } });
    assert.deepEqual(router.match('GET', '/v4/geocode/address/1600%20Amphitheatre/Mountain%20View'), {
      kind: 'found',
      handler: 'geocode',
      params: { address: '1600 Amphitheatre/Mountain View' },
    });
    assert.equal(router.match('GET', '/v4/geocode/address').kind, 'not-found');
    assert.equal(router.match('GET', '/v1/models/').kind, 'not-found', 'an empty segment is no parameter');
  });

  it('matches literal colons, also when a client percent-encodes them', () => {
    assert.equal(router.match('POST', '/v1/places:searchText').kind, 'found');
    assert.equal(router.match('POST', '/v1/places%3AsearchText').kind, 'found');
  });

  it('decodes once: %2525 stays %25', () => {
    assert.deepEqual(router.match('GET', '/v1/models/a%2525b'), { kind: 'found', handler: 'model', params: { model: 'a%25b' } });
  });

  it('reports malformed percent-encoding as bad-path instead of throwing', () => {
    for (const path of ['/v1/models/%zz', '/v1/models/%E0%A4%A', '/%', '/v1/%ED%A0%80'])
      assert.deepEqual(router.match('GET', path), { kind: 'bad-path' }, path);
    assert.equal(pathSegments('/a/%zz'), undefined);
  });

  it('tells a wrong method (with the allowed ones) from an unknown path', () => {
    assert.deepEqual(router.match('DELETE', '/apps/1/sandbox/webhooks'), { kind: 'wrong-method', allowed: ['PUT', 'GET'] });
    assert.deepEqual(router.match('GET', '/apps/1/nothing'), { kind: 'not-found' });
  });

  it('reads a request target starting with // as a path, and refuses no target at all', () => {
    assert.equal(requestUrl('//evil.example/x')?.pathname, '//evil.example/x');
    assert.equal(requestUrl('/a?b=1')?.searchParams.get('b'), '1');
    assert.equal(requestUrl('*'), undefined);
  });
});
