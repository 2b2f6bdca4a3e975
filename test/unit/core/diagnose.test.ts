// The Diagnose Connection report against the sandbox serving HTTPS with a certificate from a CA
// made in the test: name resolution, the proxy decision, the TLS chain and its issuer, trusted or
// not (in words), the request's status, latency and rate-limit headers — and no key anywhere.
import * as assert from 'node:assert/strict';
import { HttpClient } from '../../../src/core/http';
import { diagnoseConnection, type DiagnoseInput } from '../../../src/core/net/diagnose';
import { configureNetwork } from '../../../src/core/net/network';
import { DIRECT } from '../../../src/core/net/settings';
import { Redactor } from '../../../src/core/redact';
import { readSandboxTls, startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { LIMITED_MODEL } from '../../../src/sandbox/llm';
import { startTestProxy, testPki } from '../helpers/netKit';

const KEY = 'diagnose-key-0123456789';

describe('core/net: Diagnose Connection report', function () {
  this.timeout(30_000);
  const pki = testPki();
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ port: 0, llmKey: KEY, llm: { tokenRate: 0 }, tls: readSandboxTls(pki.certFile, pki.keyFile), realtime: { demo: false } });
  });
  after(() => sandbox.close());

  afterEach(() => configureNetwork(DIRECT));

  /** The report's settings are also the process's, as in the front ends (the probe's requests use them). */
  function input(settings: DiagnoseInput['settings'], key = KEY): DiagnoseInput {
    configureNetwork(settings);
    const redactor = new Redactor();
    redactor.addSecret(key);
    const http = new HttpClient({
      service: 'Sandbox',
      baseUrl: sandbox.info.llm.baseUrl,
      auth: { placement: 'bearer' },
      credentials: () => Promise.resolve(key),
      retry: { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 0 },
    });
    return {
      title: 'Language Models (Sandbox)',
      url: sandbox.info.llm.baseUrl,
      auth: 'API key as Authorization: Bearer (SecretStorage)',
      settings,
      redactor,
      probe: async () => {
        // The tightly limited model answers with OpenAI's x-ratelimit-* headers.
        const r = await http.json({ path: 'chat/completions', body: { model: LIMITED_MODEL, messages: [{ role: 'user', content: 'hi' }] } });
        return { status: r.status, headers: r.headers, durationMs: r.durationMs, requestId: r.requestId };
      },
    };
  }

  it('trusted chain: resolution, no proxy and why, the issuer, HTTP 200 with latency and rate limits, the key masked', async () => {
    const report = await diagnoseConnection(input({ ...DIRECT, ca: [pki.ca] }));
    assert.match(report, /## Name resolution\n- 127\.0\.0\.1 → 127\.0\.0\.1 \(\d+ ms\)/);
    assert.match(report, /## Proxy\n- none: no HTTPS proxy is set/);
    assert.match(report, /- trusted: the chain ends in a certificate authority trusted here/);
    assert.match(report, /1\. server — issued by API Workbench Test CA, valid until /);
    assert.match(report, /- HTTP 200 in \d+ ms: the credentials were accepted/);
    assert.match(report, /- request id: req_/);
    assert.match(report, /- rate limits:\n {2}- x-ratelimit-limit-requests: \d+\n {2}- x-ratelimit-remaining-requests: \d+/);
    assert.doesNotMatch(report, new RegExp(KEY));
  });

  it('untrusted private CA: the problem in words and how to trust it; a wrong key: refused (401)', async () => {
    const report = await diagnoseConnection(input(DIRECT, 'wrong-key-0123456789'));
    assert.match(report, /- NOT trusted: the TLS connection to 127\.0\.0\.1 was refused: .*(not trusted here|self-signed).*--ca <ca\.pem>/);
    assert.match(report, /- failed after \d+ ms: .*127\.0\.0\.1/);
    const refused = await diagnoseConnection(input({ ...DIRECT, ca: [pki.ca] }, 'wrong-key-0123456789'));
    assert.match(refused, /HTTP 401 in \d+ ms: the credentials were refused/);
  });

  it('through a proxy: named with its credentials masked, the chain read through its tunnel', async () => {
    const proxy = await startTestProxy();
    try {
      const proxyUrl = new URL(`http://alice:proxy-pw-987654@127.0.0.1:${proxy.port}`);
      const i = input({ ...DIRECT, ca: [pki.ca], httpsProxy: proxyUrl, noProxy: ['<-loopback>'] });
      i.probe = undefined;
      i.probeSkipped = 'not asked in this test';
      i.redactor.addSecret('proxy-pw-987654');
      const report = await diagnoseConnection(i);
      assert.match(report, new RegExp(`## Proxy\\n- through http://\\*\\*\\*@127\\.0\\.0\\.1:${proxy.port}`));
      assert.match(report, /\(through the proxy’s tunnel\)/);
      assert.match(report, /- not checked: not asked in this test/);
      assert.ok(proxy.seen.some((s) => s.kind === 'connect'));
      assert.doesNotMatch(report, /proxy-pw-987654|alice/);
    } finally {
      await proxy.close();
    }
  });
});
