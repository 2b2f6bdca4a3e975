import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { errorText } from '../../../src/core/errors';
import { HttpClient } from '../../../src/core/http';
import { configureNetwork } from '../../../src/core/net/network';
import {
  DIRECT,
  netSettingsFromEditor,
  netSettingsFromEnv,
  proxyAuthorization,
  proxyFor,
  proxySecrets,
  trustedCertificates,
  type NetSettings,
} from '../../../src/core/net/settings';
import { openWebSocket, webSocketErrorText } from '../../../src/core/net/webSocket';
import { Redactor } from '../../../src/core/redact';
import { deliverWebhook } from '../../../src/services/realtime/webhookTools';
import { DEFAULT_RETRY } from '../../../src/core/retry';
import { RealtimeClient } from '../../../src/services/realtime/client';
import { closedPort, startTestProxy, testPki, type TestProxy } from '../helpers/netKit';

const PASSWORD = 's3cret-proxy-pw';

interface Target {
  url: string;
  close(): Promise<void>;
  wss: WebSocketServer;
}

/** A JSON answer and a WebSocket endpoint, over HTTP or (with a certificate) HTTPS. */
async function startTarget(tls?: { cert: string; key: string }): Promise<Target> {
  const handler: http.RequestListener = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  };
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  const wss = new WebSocketServer({ server });
  wss.on('connection', (socket: WebSocket) => socket.send('hello'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    wss,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function client(baseUrl: string): HttpClient {
  return new HttpClient({ service: 'Test', baseUrl, auth: { placement: 'none' }, retry: { ...DEFAULT_RETRY, maxRetries: 0 } });
}

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return errorText(e);
  }
  assert.fail('the request should have failed');
}

function via(proxy: TestProxy, extra: Partial<NetSettings> = {}): NetSettings {
  const url = new URL(proxy.url);
  url.username = 'alice';
  url.password = PASSWORD;
  return { ...DIRECT, httpProxy: url, httpsProxy: url, noProxy: ['<-loopback>'], ...extra };
}

const basic = `Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}`;

/** The first message of a WebSocket, or the error text of its failure. */
function firstMessage(url: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = openWebSocket(url, {});
    socket.on('message', (data: Buffer) => {
      resolve(`message: ${data.toString()}`);
      socket.close();
    });
    socket.on('error', (e: Error) => resolve(`error: ${webSocketErrorText(e, url)}`));
  });
}

describe('core/net: proxies and private certificates for every request and WebSocket', function () {
  this.timeout(20_000);
  const pki = testPki();
  const trusted = trustedCertificates([pki.ca]);
  let plain: Target;
  let secure: Target;
  let proxy: TestProxy;
  before(async () => {
    plain = await startTarget();
    // The whole chain, as most servers send it: the untrusted root is then "in the chain".
    secure = await startTarget({ cert: pki.cert + pki.ca, key: pki.key });
  });
  after(async () => {
    await plain.close();
    await secure.close();
  });
  beforeEach(async () => (proxy = await startTestProxy()));
  afterEach(async () => {
    configureNetwork(DIRECT);
    await proxy.close();
  });

  describe('which requests go through the proxy', () => {
    const s: NetSettings = { ...DIRECT, httpProxy: new URL('http://proxy:3128'), httpsProxy: new URL('http://secure-proxy:3128'), noProxy: [] };
    const through = (url: string, settings = s) => proxyFor(new URL(url), settings)?.host;

    it('http and ws use the http proxy, https and wss the https one', () => {
      assert.equal(through('http://api.example.com/v1'), 'proxy:3128');
      assert.equal(through('ws://ws.example.com/app'), 'proxy:3128');
      assert.equal(through('https://api.example.com/v1'), 'secure-proxy:3128');
      assert.equal(through('wss://ws.example.com/app'), 'secure-proxy:3128');
    });

    it('loopback hosts (the sandbox) go direct unless NO_PROXY holds <-loopback>', () => {
      for (const url of ['http://127.0.0.1:8787', 'http://localhost:8787', 'http://[::1]:8787', 'ws://127.0.0.5:1']) assert.equal(through(url), undefined, url);
      assert.equal(through('http://127.0.0.1:8787', { ...s, noProxy: ['<-loopback>'] }), 'proxy:3128');
    });

    it('NO_PROXY entries: a domain and its subdomains, .domain, *.domain, host:port, *', () => {
      const noProxy = (entries: string[]) => ({ ...s, noProxy: entries });
      assert.equal(through('https://api.internal.corp/x', noProxy(['internal.corp'])), undefined);
      assert.equal(through('https://internal.corp/x', noProxy(['.internal.corp'])), undefined);
      assert.equal(through('https://a.internal.corp/x', noProxy(['*.internal.corp'])), undefined);
      assert.equal(through('https://notinternal.corp/x', noProxy(['internal.corp'])), 'secure-proxy:3128');
      assert.equal(through('https://api.example.com:8443/x', noProxy(['api.example.com:8443'])), undefined);
      assert.equal(through('https://api.example.com/x', noProxy(['api.example.com:8443'])), 'secure-proxy:3128');
      assert.equal(through('https://anything.example/x', noProxy(['*'])), undefined);
    });

    it('reads HTTPS_PROXY, HTTP_PROXY and NO_PROXY in either case; --proxy replaces both proxies', () => {
      const env = { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:2', HTTP_PROXY: 'http://plain:3', NO_PROXY: 'a.example, b.example' };
      const read = netSettingsFromEnv(env);
      assert.equal(read.httpsProxy?.host, 'lower:1');
      assert.equal(read.httpProxy?.host, 'plain:3');
      assert.deepEqual(read.noProxy, ['a.example', 'b.example']);
      const forced = netSettingsFromEnv(env, { proxy: 'http://flag:4' });
      assert.equal(forced.httpProxy?.host, 'flag:4');
      assert.equal(forced.httpsProxy?.host, 'flag:4');
      assert.equal(netSettingsFromEnv({ HTTP_PROXY: 'http://only:5' }).httpsProxy?.host, 'only:5');
    });

    it('the editor: http.proxy wins over the environment, http.noProxy adds to NO_PROXY, http.proxyAuthorization is the header', () => {
      const env = { HTTPS_PROXY: 'http://env:1', NO_PROXY: 'a.example' };
      const fromEnv = netSettingsFromEditor({}, env);
      assert.equal(fromEnv.httpsProxy?.host, 'env:1');
      const set = netSettingsFromEditor(
        { proxy: 'http://editor:2', noProxy: ['b.example'], proxyAuthorization: 'Negotiate abc123xyz', proxyStrictSSL: false },
        env,
      );
      assert.equal(set.httpsProxy?.host, 'editor:2');
      assert.equal(set.httpProxy?.host, 'editor:2');
      assert.deepEqual(set.noProxy, ['a.example', 'b.example']);
      assert.equal(set.proxyStrictSSL, false);
      assert.equal(proxyAuthorization(set.httpsProxy, set), 'Negotiate abc123xyz');
      assert.equal(netSettingsFromEditor({ proxy: '  ', proxyAuthorization: null }, {}).httpsProxy, undefined);
    });

    it('a proxy URL that cannot be used is refused with its source named and its password masked', () => {
      assert.throws(
        () => netSettingsFromEnv({ HTTPS_PROXY: 'socks5://u:hunter22@proxy:1080' }),
        (e: Error) => {
          assert.match(e.message, /^HTTPS_PROXY: the proxy socks5:\/\/\*\*\*@proxy:1080 uses socks5; only http:\/\/ and https:\/\/ proxies/);
          assert.doesNotMatch(e.message, /hunter22/);
          return true;
        },
      );
    });

    it('the proxy’s credentials are secrets for the redactor, also as the Basic value', () => {
      const redactor = new Redactor();
      for (const secret of proxySecrets(netSettingsFromEnv({ HTTPS_PROXY: `http://alice:${PASSWORD}@proxy:3128` }))) redactor.addSecret(secret);
      const text = redactor.text(`Proxy-Authorization: ${basic}, password ${PASSWORD}`);
      assert.doesNotMatch(text, new RegExp(PASSWORD));
      assert.doesNotMatch(text, new RegExp(basic.slice(6)));
    });
  });

  describe('HTTP through a forward proxy', () => {
    it('plain http goes to the proxy as an absolute URI, with the URL’s credentials as Proxy-Authorization', async () => {
      configureNetwork(via(proxy));
      const res = await client(`${plain.url}/v1`).json({ path: 'models' });
      assert.deepEqual(res.data, { ok: true });
      assert.deepEqual(proxy.seen, [{ kind: 'forward', target: `${plain.url}/v1/models`, proxyAuthorization: basic }]);
    });

    it('https goes through a CONNECT tunnel, and the private CA given is trusted inside it', async () => {
      configureNetwork(via(proxy, { ca: trusted }));
      const res = await client(`${secure.url}/v1`).json({ path: 'models' });
      assert.deepEqual(res.data, { ok: true });
      assert.deepEqual(proxy.seen, [{ kind: 'connect', target: secure.url.replace('https://', ''), proxyAuthorization: basic }]);
    });

    it('a realtime webhook test send goes through the proxy too, and a refusing proxy is its problem in words', async () => {
      configureNetwork(via(proxy));
      const app = { key: 'app-key', secret: 'app-secret-123' };
      const sent = await deliverWebhook(`${plain.url}/hooks`, app, '{"time_ms":1,"events":[]}');
      assert.equal(sent.status, 200);
      assert.deepEqual(proxy.seen, [{ kind: 'forward', target: `${plain.url}/hooks`, proxyAuthorization: basic }]);
      const refusing = await startTestProxy({ answer: 407 });
      try {
        configureNetwork(via(refusing, { ca: trusted }));
        const refused = await deliverWebhook(`${secure.url}/hooks`, app, '{}');
        assert.match(refused.problem ?? '', new RegExp(`^the proxy http://\\*\\*\\*@127\\.0\\.0\\.1:${refusing.port} answered 407`));
      } finally {
        await refusing.close();
      }
    });

    it('without <-loopback>, or with the host in NO_PROXY, the request goes direct', async () => {
      configureNetwork(via(proxy, { noProxy: [] }));
      await client(`${plain.url}/v1`).json({ path: 'models' });
      configureNetwork(via(proxy, { noProxy: ['<-loopback>', '127.0.0.1'] }));
      await client(`${plain.url}/v1`).json({ path: 'models' });
      assert.deepEqual(proxy.seen, []);
    });

    for (const answer of [407, 403] as const) {
      it(`a proxy answering ${answer} is named (credentials masked) with what it answered, for http and https`, async () => {
        const refusing = await startTestProxy({ answer });
        try {
          configureNetwork(via(refusing, { ca: trusted }));
          const reason = answer === 407 ? '407 Proxy Authentication Required' : '403 Forbidden';
          const tunnelled = await failure(client(`${secure.url}/v1`).json({ path: 'models' }));
          assert.match(tunnelled, new RegExp(`the proxy http://\\*\\*\\*@127\\.0\\.0\\.1:${refusing.port} answered ${reason}`));
          assert.doesNotMatch(tunnelled, new RegExp(PASSWORD));
          if (answer === 407) {
            const forwarded = await failure(client(`${plain.url}/v1`).json({ path: 'models' }));
            assert.match(forwarded, new RegExp(`the proxy http://\\*\\*\\*@127\\.0\\.0\\.1:${refusing.port} answered 407`));
          }
        } finally {
          await refusing.close();
        }
      });
    }

    it('a proxy that refuses the connection is named as the one that could not be reached', async () => {
      const port = await closedPort();
      configureNetwork({ ...DIRECT, httpsProxy: new URL(`http://127.0.0.1:${port}`), noProxy: ['<-loopback>'], ca: trusted });
      const text = await failure(client(`${secure.url}/v1`).json({ path: 'models' }));
      assert.match(text, new RegExp(`the proxy http://127\\.0\\.0\\.1:${port} could not be reached: connection refused \\(ECONNREFUSED\\)`));
    });
  });

  describe('certificates', () => {
    it('an untrusted private CA: the host, the reason in words, and how to trust it', async () => {
      const text = await failure(client(`${secure.url}/v1`).json({ path: 'models' }));
      const host = secure.url.replace('https://', '');
      assert.match(
        text,
        new RegExp(`the TLS connection to ${host.replace(/\./g, '\\.')} was refused: its certificate chain ends in a self-signed certificate`),
      );
      assert.match(text, /\(SELF_SIGNED_CERT_IN_CHAIN\)/);
      assert.match(text, /--ca <ca\.pem> or NODE_EXTRA_CA_CERTS/);
    });

    it('a server sending only its own certificate: issued by a CA not trusted here', async () => {
      const leafOnly = await startTarget({ cert: pki.cert, key: pki.key });
      try {
        const text = await failure(client(`${leafOnly.url}/v1`).json({ path: 'models' }));
        assert.match(text, /was refused: it was issued by a certificate authority that is not trusted here .*\(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)/);
      } finally {
        await leafOnly.close();
      }
    });

    it('trusted CA, certificate for another name: a name mismatch, the server’s to fix', async () => {
      const other = await startTarget({ cert: pki.otherCert, key: pki.otherKey });
      try {
        configureNetwork({ ...DIRECT, ca: trusted });
        const text = await failure(client(`${other.url}/v1`).json({ path: 'models' }));
        assert.match(text, /its certificate is for another name .*\(ERR_TLS_CERT_ALTNAME_INVALID\)\. This is the server’s certificate to fix/);
      } finally {
        await other.close();
      }
    });

    it('with the CA trusted, the request passes (Node’s own authorities stay trusted too)', async () => {
      configureNetwork({ ...DIRECT, ca: trusted });
      assert.deepEqual((await client(`${secure.url}/v1`).json({ path: 'models' })).data, { ok: true });
      assert.ok(trusted.length > 100, 'the default authorities are kept beside the private one');
    });
  });

  describe('WebSockets', () => {
    it('ws and wss go through a CONNECT tunnel with Proxy-Authorization; wss trusts the CA given', async () => {
      configureNetwork(via(proxy, { ca: trusted }));
      assert.equal(await firstMessage(plain.url.replace('http', 'ws')), 'message: hello');
      assert.equal(await firstMessage(secure.url.replace('https', 'wss')), 'message: hello');
      assert.deepEqual(
        proxy.seen.map((s) => [s.kind, s.target, s.proxyAuthorization]),
        [
          ['connect', plain.url.replace('http://', ''), basic],
          ['connect', secure.url.replace('https://', ''), basic],
        ],
      );
    });

    it('a proxy answering 407 to the tunnel is named with its answer', async () => {
      const refusing = await startTestProxy({ answer: 407 });
      try {
        configureNetwork(via(refusing));
        const text = await firstMessage(secure.url.replace('https', 'wss'));
        assert.match(text, new RegExp(`^error: the proxy http://\\*\\*\\*@127\\.0\\.0\\.1:${refusing.port} answered 407 Proxy Authentication Required`));
      } finally {
        await refusing.close();
      }
    });

    it('wss to an untrusted private CA: the certificate problem in words', async () => {
      const text = await firstMessage(secure.url.replace('https', 'wss'));
      assert.match(text, /^error: the TLS connection to 127\.0\.0\.1:\d+ was refused: its certificate chain ends in a self-signed certificate/);
    });

    it('the realtime client stops at the first certificate refusal (a retry meets the same certificate) instead of retrying for its give-up window', async () => {
      const { port } = new URL(secure.url);
      const c = new RealtimeClient({ key: 'app-key', host: '127.0.0.1', port: Number(port), useTLS: true, unavailableTimeoutMs: 60_000 });
      const reconnects: unknown[] = [];
      c.on('reconnect', (p) => reconnects.push(p));
      const failed = new Promise<string>((resolve) => c.on('error', (e) => resolve(e.message)));
      c.connect();
      try {
        assert.match(await failed, /^the TLS connection to 127\.0\.0\.1:\d+ was refused: its certificate chain ends in a self-signed certificate/);
        assert.equal(c.state, 'disconnected');
        assert.deepEqual(reconnects, [], 'no reconnect was planned');
      } finally {
        c.disconnect();
      }
    });
  });
});
