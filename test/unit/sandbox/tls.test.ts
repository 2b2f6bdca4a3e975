import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandboxConnections } from '../../../src/core/connections';
import { errorText } from '../../../src/core/errors';
import { HttpClient } from '../../../src/core/http';
import { configureNetwork } from '../../../src/core/net/network';
import { DIRECT, trustedCertificates } from '../../../src/core/net/settings';
import { openWebSocket } from '../../../src/core/net/webSocket';
import { readSandboxTls, startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { testPki } from '../helpers/netKit';
import { killLeftovers, runSandboxToExit, startSandboxProcess } from '../helpers/sandboxProcess';

describe('sandbox over TLS (--tls-cert, --tls-key): HTTPS and WSS for all three services', function () {
  this.timeout(20_000);
  const pki = testPki();
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ port: 0, tls: readSandboxTls(pki.certFile, pki.keyFile), realtime: { demo: false } });
    configureNetwork({ ...DIRECT, ca: trustedCertificates([pki.ca]) });
  });
  after(async () => {
    configureNetwork(DIRECT);
    await sandbox.close();
  });

  it('announces https base URLs and a TLS realtime endpoint, which the sandbox connections use', () => {
    assert.match(sandbox.info.llm.baseUrl, /^https:\/\/127\.0\.0\.1:\d+\/v1$/);
    assert.match(sandbox.info.maps.baseUrl, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(sandbox.info.realtime.tls, true);
    const realtime = sandboxConnections(sandbox.info).connections.find((c) => c.service === 'realtime');
    assert.ok(realtime && realtime.service === 'realtime' && realtime.useTLS === true);
  });

  it('the LLM and maps answer over HTTPS, with the private CA trusted', async () => {
    const llm = new HttpClient({
      service: 'LLM',
      baseUrl: sandbox.info.llm.baseUrl,
      auth: { placement: 'bearer' },
      credentials: () => Promise.resolve(sandbox.info.llm.apiKey),
    });
    assert.equal((await llm.json({ path: 'models' })).status, 200);
    const maps = new HttpClient({
      service: 'Maps',
      baseUrl: sandbox.info.maps.baseUrl,
      auth: { placement: 'header', name: 'X-Goog-Api-Key' },
      credentials: () => Promise.resolve(sandbox.info.maps.apiKey),
    });
    const res = await maps.json({ path: 'v1/places:searchText', headers: { 'X-Goog-FieldMask': 'places.id' }, body: { textQuery: 'Berlin' } });
    assert.equal(res.status, 200);
  });

  it('the realtime service greets over WSS', async () => {
    const { host, port, key } = sandbox.info.realtime;
    const greeting = await new Promise<string>((resolve, reject) => {
      const socket = openWebSocket(`wss://${host}:${port}/app/${key}?protocol=7`, {});
      socket.once('message', (data: Buffer) => {
        resolve(data.toString());
        socket.close();
      });
      socket.once('error', reject);
    });
    assert.match(greeting, /pusher:connection_established/);
  });

  it('a certificate or key file that is missing or not PEM is refused naming the option', () => {
    const notPem = path.join(pki.dir, 'not.pem');
    writeFileSync(notPem, 'hello');
    assert.throws(() => readSandboxTls(pki.certFile, undefined), /--tls-cert and --tls-key .* go together/);
    assert.throws(() => readSandboxTls(notPem, pki.keyFile), /--tls-cert: .*not\.pem is not a PEM file/);
    assert.throws(
      () => readSandboxTls(pki.certFile, path.join(pki.dir, 'missing.key')),
      (e: Error) => /--tls-key: cannot read .*missing\.key \(ENOENT\)/.test(errorText(e)),
    );
  });
});

describe('node dist/sandbox.js --tls-cert/--tls-key', function () {
  this.timeout(20_000);
  const pki = testPki();
  after(() => killLeftovers());

  it('announces https:// services and a TLS realtime endpoint in its ready line', async () => {
    const sb = await startSandboxProcess(['--port', '0', '--tls-cert', pki.certFile, '--tls-key', pki.keyFile, '--no-realtime-demo']);
    try {
      const info = sb.ready as { llm: { baseUrl: string }; maps: { baseUrl: string }; realtime: { tls?: boolean } };
      assert.match(info.llm.baseUrl, /^https:\/\//);
      assert.match(info.maps.baseUrl, /^https:\/\//);
      assert.equal(info.realtime.tls, true);
    } finally {
      await sb.stop();
    }
  });

  it('only one of the two files: exit 2 saying they go together', async () => {
    const r = await runSandboxToExit(['--port', '0', '--tls-cert', pki.certFile]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--tls-cert and --tls-key .* go together/);
  });
});
