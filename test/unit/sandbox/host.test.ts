// startSandbox() in-process: what the editor's sandbox controller and other tests build on.
import * as assert from 'node:assert/strict';
import { startSandbox } from '../../../src/sandbox/host';
import { freePortRange, listenOn } from '../helpers/sandboxProcess';

async function isFree(port: number): Promise<boolean> {
  try {
    const s = await listenOn(port);
    await new Promise((r) => s.close(r));
    return true;
  } catch {
    return false;
  }
}

describe('sandbox host: startSandbox()', function () {
  this.timeout(15_000);

  it('starts the three services on the base port and the next two; close() frees them all', async () => {
    const base = await freePortRange(3);
    const sb = await startSandbox({ port: base });
    try {
      assert.equal(sb.info.llm.baseUrl, `http://127.0.0.1:${base}/v1`);
      assert.equal(sb.info.maps.baseUrl, `http://127.0.0.1:${base + 1}`);
      assert.equal(sb.info.realtime.port, base + 2);
      assert.deepEqual(await Promise.all([0, 1, 2].map((i) => isFree(base + i))), [false, false, false]);
    } finally {
      await sb.close();
    }
    assert.deepEqual(await Promise.all([0, 1, 2].map((i) => isFree(base + i))), [true, true, true]);
  });

  it('credentials not given are fresh for each start; given ones are used as they are', async () => {
    const [a, b] = [
      await startSandbox({ port: 0 }),
      await startSandbox({ port: 0, llmKey: 'sk-given-123456', realtime: { appId: '77', secret: 'given-secret' } }),
    ];
    try {
      assert.notEqual(a.info.llm.apiKey, b.info.llm.apiKey);
      assert.notEqual(a.info.maps.apiKey, b.info.maps.apiKey);
      assert.notEqual(a.info.realtime.key, b.info.realtime.key);
      assert.equal(b.info.llm.apiKey, 'sk-given-123456');
      assert.equal(b.info.realtime.appId, '77');
      assert.equal(b.info.realtime.secret, 'given-secret');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('when a later port is taken, start fails and the services already started are closed again', async () => {
    const base = await freePortRange(3);
    const blocker = await listenOn(base + 2);
    try {
      await assert.rejects(startSandbox({ port: base }), /EADDRINUSE/);
      assert.deepEqual([await isFree(base), await isFree(base + 1)], [true, true]);
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });
});
