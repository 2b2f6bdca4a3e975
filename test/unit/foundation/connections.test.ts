import * as assert from 'node:assert/strict';
import { connectionOrigins, parseConnectionsSetting, type HttpConnection, type RealtimeConnection } from '../../../src/core/connections';

describe('connection settings', () => {
  it('parses LLM connections with bearer default, per-model limits and defaults (60/min, 60 s)', () => {
    const { connections, problems } = parseConnectionsSetting('llm', [
      { name: 'OpenAI', baseUrl: 'https://api.openai.com/v1/' },
      { name: 'Azure', baseUrl: 'https://r.openai.azure.com/openai/v1', auth: { placement: 'header' }, modelRateLimits: { 'gpt-4o': 30 }, timeoutSeconds: 5 },
    ]);
    assert.deepEqual(problems, []);
    const [openai, azure] = connections as HttpConnection[];
    assert.equal(openai.baseUrl, 'https://api.openai.com/v1');
    assert.deepEqual(openai.auth, { placement: 'bearer' });
    assert.equal(openai.rateLimitPerMinute, 60);
    assert.equal(openai.timeoutMs, 60_000);
    assert.deepEqual(azure.auth, { placement: 'header', name: 'api-key' });
    assert.equal(azure.modelRateLimits['gpt-4o'], 30);
    assert.equal(azure.timeoutMs, 5000);
  });

  it('defaults maps keys to the X-Goog-Api-Key header (100/min) and accepts a query parameter', () => {
    const { connections } = parseConnectionsSetting('maps', [
      { name: 'Google', baseUrl: 'https://places.googleapis.com', baseUrls: { routes: 'https://routes.googleapis.com' } },
      { name: 'Query', baseUrl: 'https://maps.example.com', auth: { placement: 'query' } },
    ]);
    const [google, query] = connections as HttpConnection[];
    assert.deepEqual(google.auth, { placement: 'header', name: 'X-Goog-Api-Key' });
    assert.equal(google.rateLimitPerMinute, 100);
    // Google's keys also serve its classic web services, on maps.googleapis.com.
    assert.deepEqual(connectionOrigins(google).sort(), ['https://maps.googleapis.com', 'https://places.googleapis.com', 'https://routes.googleapis.com']);
    assert.deepEqual(query.auth, { placement: 'query', name: 'key' });
  });

  it('derives Pusher hosts from the cluster, or uses an explicit host', () => {
    const { connections, problems } = parseConnectionsSetting('realtime', [
      { name: 'Pusher', appId: '1', key: 'k', cluster: 'eu' },
      { name: 'Local', appId: '2', key: 'k2', host: '127.0.0.1', port: 6001, useTLS: false },
    ]);
    assert.deepEqual(problems, []);
    const [pusher, local] = connections as RealtimeConnection[];
    assert.equal(pusher.wsUrl, 'wss://ws-eu.pusher.com:443/app/k');
    assert.equal(pusher.restBaseUrl, 'https://api-eu.pusher.com:443');
    assert.equal(local.wsUrl, 'ws://127.0.0.1:6001/app/k2');
    assert.equal(local.restBaseUrl, 'http://127.0.0.1:6001');
  });

  it('reports each malformed entry clearly and keeps the valid ones', () => {
    const { connections, problems } = parseConnectionsSetting('llm', [
      { name: 'Good', baseUrl: 'https://api.openai.com/v1' },
      { name: 'NoUrl' },
      { name: 'Ftp', baseUrl: 'ftp://x' },
      { name: 'Good', baseUrl: 'https://other.example/v1' },
      'not an object',
    ]);
    assert.deepEqual(
      connections.map((c) => c.name),
      ['Good'],
    );
    assert.equal(problems.length, 4);
    assert.match(problems[0], /entry 2 \("NoUrl"\): baseUrl/);
    assert.match(problems[1], /entry 3 \("Ftp"\): baseUrl: must be an http\(s\) URL/);
    assert.match(problems[2], /already named "Good"/);
    assert.match(problems[3], /entry 5/);
  });

  it('rejects a non-array setting with one clear problem', () => {
    const r = parseConnectionsSetting('maps', { name: 'x' });
    assert.deepEqual(r.connections, []);
    assert.deepEqual(r.problems, ['the setting must be an array of connections']);
  });

  it('requires host or cluster for realtime and a name for header/query placement', () => {
    assert.match(parseConnectionsSetting('realtime', [{ name: 'R', appId: '1', key: 'k' }]).problems[0], /host" or "cluster/);
  });

  it('lists through the service by default; "listing": "resources" opts into the uniform listing, on every service', () => {
    const llm = parseConnectionsSetting('llm', [
      { name: 'Default', baseUrl: 'https://api.openai.com/v1' },
      { name: 'Listed', baseUrl: 'http://127.0.0.1:8787/v1', listing: 'resources' },
      { name: 'Bad', baseUrl: 'http://127.0.0.1:8787/v1', listing: 'everything' },
    ]);
    assert.deepEqual(
      llm.connections.map((c) => [c.name, c.listing]),
      [
        ['Default', 'service'],
        ['Listed', 'resources'],
      ],
    );
    assert.match(llm.problems[0], /entry 3 \("Bad"\): listing/);
    assert.equal(parseConnectionsSetting('maps', [{ name: 'M', baseUrl: 'http://127.0.0.1:8788', listing: 'resources' }]).connections[0].listing, 'resources');
    assert.equal(
      parseConnectionsSetting('realtime', [{ name: 'R', appId: '1', key: 'k', host: '127.0.0.1', listing: 'resources' }]).connections[0].listing,
      'resources',
    );
  });
});
