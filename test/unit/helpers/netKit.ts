// Real TLS and a real forward proxy for the network tests: a private certificate authority and
// server certificates made with openssl in a temp folder, and a node:http proxy that forwards
// absolute-URI requests and CONNECT tunnels, recording what it was asked and with which
// Proxy-Authorization, and that can refuse (407, 403).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TestPki {
  dir: string;
  /** The CA's certificate file (what --ca and NODE_EXTRA_CA_CERTS take). */
  caFile: string;
  ca: string;
  /** A server certificate for localhost and 127.0.0.1, issued by the CA. */
  certFile: string;
  keyFile: string;
  cert: string;
  key: string;
  /** A certificate for other.example only, issued by the same CA (a name mismatch at localhost). */
  otherCert: string;
  otherKey: string;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

/** Made once per process: openssl takes a few hundred milliseconds. */
let made: TestPki | undefined;

export function testPki(): TestPki {
  if (made) return made;
  const dir = mkdtempSync(path.join(tmpdir(), 'awb-pki-'));
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(dir, [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=API Workbench Test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  const issue = (name: string, san: string) => {
    openssl(dir, ['req', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`]);
    writeFileSync(path.join(dir, `${name}.ext`), `subjectAltName=${san}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`);
    openssl(dir, [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${name}.pem`,
      '-days',
      '2',
      '-extfile',
      `${name}.ext`,
    ]);
  };
  issue('server', 'DNS:localhost,IP:127.0.0.1');
  issue('other', 'DNS:other.example');
  const read = (f: string) => readFileSync(path.join(dir, f), 'utf8');
  made = {
    dir,
    caFile: path.join(dir, 'ca.pem'),
    ca: read('ca.pem'),
    certFile: path.join(dir, 'server.pem'),
    keyFile: path.join(dir, 'server.key'),
    cert: read('server.pem'),
    key: read('server.key'),
    otherCert: read('other.pem'),
    otherKey: read('other.key'),
  };
  return made;
}

export interface ProxySeen {
  /** 'forward': an absolute-URI request (plain http); 'connect': a tunnel (https, ws, wss). */
  kind: 'forward' | 'connect';
  /** The absolute URL, or host:port of a tunnel. */
  target: string;
  proxyAuthorization?: string;
}

export interface TestProxy {
  url: string;
  port: number;
  seen: ProxySeen[];
  close(): Promise<void>;
}

const REASONS: Record<number, string> = { 403: 'Forbidden', 407: 'Proxy Authentication Required' };

/** A forward proxy on 127.0.0.1; with `answer`, it refuses everything with that status. */
export async function startTestProxy(opts: { answer?: 403 | 407 } = {}): Promise<TestProxy> {
  const seen: ProxySeen[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    seen.push({ kind: 'forward', target: req.url ?? '', proxyAuthorization: req.headers['proxy-authorization'] });
    if (opts.answer) {
      res.writeHead(opts.answer, REASONS[opts.answer], opts.answer === 407 ? { 'proxy-authenticate': 'Basic realm="test"' } : {});
      res.end();
      return;
    }
    const target = new URL(req.url ?? '');
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = http.request(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    seen.push({ kind: 'connect', target: req.url ?? '', proxyAuthorization: req.headers['proxy-authorization'] });
    if (opts.answer) {
      client.end(`HTTP/1.1 ${opts.answer} ${REASONS[opts.answer]}\r\n\r\n`);
      return;
    }
    const m = /^\[?(.*?)\]?:(\d+)$/.exec(req.url ?? '');
    if (!m) return client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    const upstream = net.connect(Number(m[2]), m[1], () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
