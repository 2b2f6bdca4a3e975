// The uniform listing client (src/services/resources.ts) against the three sandbox services: the
// right key lists, no key and a wrong key are a 401 the client reports with the service's message.
import * as assert from 'node:assert/strict';
import { HttpClient } from '../../../src/core/http';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { LLM_MODELS } from '../../../src/sandbox/llm';
import { MAPS_CAPABILITIES } from '../../../src/sandbox/maps';
import { ResourcesClient, resourcesHttpOptions } from '../../../src/services/resources';
import { apiErrorOf } from '../helpers/util';

function client(baseUrl: string, key: string | undefined): ResourcesClient {
  return new ResourcesClient(new HttpClient({ service: 'listing', ...resourcesHttpOptions(baseUrl), credentials: () => Promise.resolve(key) }));
}

describe('uniform resource listing client against the sandbox', function () {
  this.timeout(15_000);
  let sb: Sandbox;
  let bases: Record<'llm' | 'maps' | 'realtime', string>;
  let keys: Record<'llm' | 'maps' | 'realtime', string>;

  before(async () => {
    sb = await startSandbox({ port: 0, realtime: { demo: true } });
    const i = sb.info;
    bases = { llm: i.llm.baseUrl, maps: i.maps.baseUrl, realtime: `http://${i.realtime.host}:${i.realtime.port}` };
    keys = { llm: i.llm.apiKey, maps: i.maps.apiKey, realtime: i.realtime.secret };
  });
  after(() => sb.close());

  it('LLM: the models, from the /v1 base URL (the listing is at the origin)', async () => {
    const list = await client(bases.llm, keys.llm).list();
    assert.deepEqual(
      list.map((r) => [r.id, r.kind]),
      LLM_MODELS.map((m) => [m.id, 'model']),
    );
  });

  it('maps: the four capabilities', async () => {
    const list = await client(bases.maps, keys.maps).list();
    assert.deepEqual(
      list.map((r) => [r.id, r.kind]),
      MAPS_CAPABILITIES.map((c) => [c.id, 'capability']),
    );
  });

  it('realtime: the occupied channels (the demo presence channel), with the app secret', async () => {
    const list = await client(bases.realtime, keys.realtime).list();
    const demo = list.find((r) => r.id === 'presence-demo');
    assert.ok(demo, `presence-demo missing from ${JSON.stringify(list)}`);
    assert.equal(demo.kind, 'channel');
    assert.match(demo.detail ?? '', /2 members/);
  });

  for (const service of ['llm', 'maps', 'realtime'] as const) {
    it(`${service}: no key and a wrong key are a 401 with the service's message, and the key never shows`, async () => {
      const none = await apiErrorOf(client(bases[service], undefined).list());
      assert.equal(none.status, 401);
      assert.ok(none.serviceMessage, "the service's own error message is read from its JSON body");
      const wrongKey = `wrong-${service}-key-123456`;
      const wrong = await apiErrorOf(client(bases[service], wrongKey).list());
      assert.equal(wrong.status, 401);
      assert.ok(!wrong.describe().includes(wrongKey), wrong.describe());
    });
  }
});
