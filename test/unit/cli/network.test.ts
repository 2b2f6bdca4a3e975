// The CLI behind a corporate proxy and against a private certificate authority: the built CLI runs
// a notebook with an llm, a maps and a realtime (WebSocket) cell against its own sandbox serving
// HTTPS/WSS with a certificate from a CA made in the test. The sandbox is on loopback, which is
// never proxied unless NO_PROXY holds <-loopback>: that is how these runs ask for the proxy.
import * as assert from 'node:assert/strict';
import { startTestProxy, testPki, type TestProxy } from '../helpers/netKit';
import { assertBuilt, runCli, tempDir, write } from './cliKit';

const PASSWORD = 'cli-proxy-pw-0123';
const NOTEBOOK =
  '# behind a proxy\n\n' +
  '```llm name=models\nGET /models\n\n?? status == 200\n```\n\n' +
  '```maps name=search\nPOST /v1/places:searchText\nX-Goog-FieldMask: places.id\n\n{"textQuery": "Berlin"}\n\n?? status == 200\n```\n\n' +
  '```realtime name=listen\nLISTEN cli-net-test 200ms\n```\n';

describe('CLI: proxies (HTTPS_PROXY, NO_PROXY, credentials) and private certificates (--ca, NODE_EXTRA_CA_CERTS)', function () {
  this.timeout(60_000);
  const pki = testPki();
  let dir: string;
  let notebook: string;
  let proxy: TestProxy;
  /** The sandbox's TLS, and no proxy or CA setting inherited from the machine running the tests. */
  const baseEnv = {
    SANDBOX_TLS_CERT: pki.certFile,
    SANDBOX_TLS_KEY: pki.keyFile,
    SANDBOX_REALTIME_DEMO: '0',
    HTTPS_PROXY: undefined,
    https_proxy: undefined,
    HTTP_PROXY: undefined,
    http_proxy: undefined,
    NO_PROXY: undefined,
    no_proxy: undefined,
    NODE_EXTRA_CA_CERTS: undefined,
  };

  before(() => {
    assertBuilt();
    dir = tempDir();
    notebook = write(dir, 'proxied.awb.md', NOTEBOOK);
  });
  beforeEach(async () => (proxy = await startTestProxy()));
  afterEach(() => proxy.close());

  const proxyUrl = () => `http://alice:${PASSWORD}@127.0.0.1:${proxy.port}`;

  it('every service’s traffic, the WebSocket included, goes through HTTPS_PROXY with its credentials as Proxy-Authorization', async () => {
    const r = await runCli(['run', notebook, '--sandbox', '--ca', pki.caFile], {
      cwd: dir,
      env: { ...baseEnv, HTTPS_PROXY: proxyUrl(), NO_PROXY: '<-loopback>' },
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /3 passed, 0 failed/);
    // One tunnel target per service: the LLM's port, the maps' port, and the realtime WebSocket's port.
    const targets = new Set(proxy.seen.map((s) => s.target));
    assert.equal(targets.size, 3, JSON.stringify(proxy.seen));
    for (const s of proxy.seen) {
      assert.equal(s.kind, 'connect');
      assert.match(s.target, /^127\.0\.0\.1:\d+$/);
      assert.equal(s.proxyAuthorization, `Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}`);
    }
    assert.doesNotMatch(r.stdout + r.stderr, new RegExp(PASSWORD));
  });

  it('--proxy does the same without the environment variables', async () => {
    const r = await runCli(['run', notebook, '--sandbox', '--ca', pki.caFile, '--proxy', proxyUrl()], {
      cwd: dir,
      env: { ...baseEnv, NO_PROXY: '<-loopback>' },
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(new Set(proxy.seen.map((s) => s.target)).size, 3);
  });

  it('NO_PROXY naming the host bypasses the proxy; so does loopback by default', async () => {
    const named = await runCli(['run', notebook, '--sandbox', '--ca', pki.caFile], {
      cwd: dir,
      env: { ...baseEnv, HTTPS_PROXY: proxyUrl(), NO_PROXY: '<-loopback>,127.0.0.1' },
    });
    assert.equal(named.code, 0, named.stdout + named.stderr);
    const loopback = await runCli(['run', notebook, '--sandbox', '--ca', pki.caFile], { cwd: dir, env: { ...baseEnv, HTTPS_PROXY: proxyUrl() } });
    assert.equal(loopback.code, 0, loopback.stdout + loopback.stderr);
    assert.deepEqual(proxy.seen, []);
  });

  it('a proxy that answers 407 is named (credentials masked) with its answer, in the cell’s failure', async () => {
    const refusing = await startTestProxy({ answer: 407 });
    try {
      const r = await runCli(['run', notebook, '--sandbox', '--ca', pki.caFile], {
        cwd: dir,
        env: { ...baseEnv, HTTPS_PROXY: `http://alice:${PASSWORD}@127.0.0.1:${refusing.port}`, NO_PROXY: '<-loopback>' },
      });
      assert.equal(r.code, 1);
      assert.match(r.stdout, new RegExp(`the proxy http://\\*\\*\\*@127\\.0\\.0\\.1:${refusing.port} answered 407 Proxy Authentication Required`));
      assert.doesNotMatch(r.stdout + r.stderr, new RegExp(PASSWORD));
    } finally {
      await refusing.close();
    }
  });

  it('a sandbox certificate from a private CA: without trust each cell fails naming the certificate problem and how to trust the CA', async () => {
    const r = await runCli(['run', notebook, '--sandbox'], { cwd: dir, env: baseEnv });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /the TLS connection to 127\.0\.0\.1:\d+ was refused: it was issued by a certificate authority that is not trusted here/);
    assert.match(r.stdout, /--ca <ca\.pem> or NODE_EXTRA_CA_CERTS/);
    assert.match(r.stdout, /0 passed, 3 failed/);
  });

  it('passes with the CA in NODE_EXTRA_CA_CERTS, and with --ca', async () => {
    const fromEnv = await runCli(['run', notebook, '--sandbox'], { cwd: dir, env: { ...baseEnv, NODE_EXTRA_CA_CERTS: pki.caFile } });
    assert.equal(fromEnv.code, 0, fromEnv.stdout + fromEnv.stderr);
    const fromFlag = await runCli(['run', notebook, '--sandbox', '--ca', pki.caFile], { cwd: dir, env: baseEnv });
    assert.equal(fromFlag.code, 0, fromFlag.stdout + fromFlag.stderr);
  });

  it('a proxy URL that cannot be used stops the run before anything is sent (exit 2), its password masked', async () => {
    const r = await runCli(['run', notebook, '--sandbox', '--proxy', `socks5://alice:${PASSWORD}@127.0.0.1:1080`], { cwd: dir, env: baseEnv });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--proxy: the proxy socks5:\/\/\*\*\*@127\.0\.0\.1:1080 uses socks5; only http:\/\/ and https:\/\/ proxies are supported/);
    assert.doesNotMatch(r.stderr, new RegExp(PASSWORD));
  });

  it('a --ca file that cannot be used stops the run before anything is sent (exit 2)', async () => {
    const notPem = write(dir, 'not.pem', 'hello');
    const r = await runCli(['run', notebook, '--sandbox', '--ca', notPem], { cwd: dir, env: baseEnv });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--ca: .*not\.pem holds no PEM certificate/);
  });
});
