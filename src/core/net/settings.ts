// What the network layer is told by its front end (the CLI's environment and flags, the editor's
// http.* settings): which proxy to use for which host, and which certificate authorities to trust.
// Pure decisions, no sockets: network.ts and webSocket.ts act on them.
import { FileRefusal, readRegularFileSync } from '../fileGate';
import { once } from '../once';
import type * as Tls from 'node:tls';
import * as z from 'zod/mini';

export interface NetSettings {
  /** The proxy for http: (and ws:) targets, or none. */
  httpProxy?: URL;
  /** The proxy for https: (and wss:) targets, or none. */
  httpsProxy?: URL;
  /**
   * Hosts reached directly, as in NO_PROXY: `example.com` (and its subdomains), `.example.com`,
   * `*.example.com`, `host:port`, an IP address, or `*` for every host. Loopback hosts are always
   * reached directly unless the list holds `<-loopback>` (Chromium's spelling of the same rule).
   */
  noProxy: string[];
  /** A whole Proxy-Authorization header value (the editor's http.proxyAuthorization); wins over credentials in the URL. */
  proxyAuthorization?: string;
  /** Check an https: proxy's own certificate (http.proxyStrictSSL); the target's is always checked. */
  proxyStrictSSL: boolean;
  /** Every certificate authority trusted, as PEM; undefined = Node's own list (with NODE_EXTRA_CA_CERTS). */
  ca?: string[];
}

export const DIRECT: NetSettings = { noProxy: [], proxyStrictSSL: true };

/** Where a setting came from, for the message when it cannot be used. */
export function parseProxyUrl(text: string, source: string): URL {
  let url: URL;
  try {
    // A bare "proxy:3128" (as some tools accept) means http.
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`);
  } catch {
    throw new Error(`${source}: "${maskProxyText(text)}" is not a proxy URL (write it as http://host:port)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`${source}: the proxy ${maskProxy(url)} uses ${url.protocol.slice(0, -1)}; only http:// and https:// proxies are supported`);
  return url;
}

/** The proxy as it may be shown: its user name and password masked. */
export function maskProxy(url: URL): string {
  if (!url.username && !url.password) return url.origin;
  return `${url.protocol}//***@${url.host}`;
}

function maskProxyText(text: string): string {
  return text.replace(/\/\/[^@/]*@/, '//***@');
}

/** NO_PROXY-style text (commas or spaces) as entries. */
export function splitNoProxy(text: string | undefined): string[] {
  return (text ?? '')
    .split(/[,\s]+/)
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
}

function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  // Lower case first, as curl and undici read them.
  const v = env[name.toLowerCase()] ?? env[name.toUpperCase()];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

/** HTTPS_PROXY, HTTP_PROXY and NO_PROXY (either case); `proxy` (e.g. --proxy) replaces both proxies. */
export function netSettingsFromEnv(env: NodeJS.ProcessEnv, overrides: { proxy?: string; ca?: string[] } = {}): NetSettings {
  const given = (name: string) => {
    const v = envValue(env, name);
    return v === undefined ? undefined : parseProxyUrl(v, name);
  };
  const forced = overrides.proxy === undefined ? undefined : parseProxyUrl(overrides.proxy, '--proxy');
  const httpProxy = forced ?? given('HTTP_PROXY');
  return {
    httpProxy,
    // Only HTTP_PROXY set: most tools use it for https too (curl does not; undici and npm do).
    httpsProxy: forced ?? given('HTTPS_PROXY') ?? httpProxy,
    noProxy: splitNoProxy(envValue(env, 'NO_PROXY')),
    proxyStrictSSL: true,
    ca: overrides.ca?.length ? trustedCertificates(overrides.ca, env) : undefined,
  };
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443, 'ws:': 80, 'wss:': 443 };

function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** The proxy a request to `target` goes through, or undefined to go direct. */
export function proxyFor(target: URL, s: NetSettings): URL | undefined {
  const secure = target.protocol === 'https:' || target.protocol === 'wss:';
  const proxy = secure ? s.httpsProxy : s.httpProxy;
  if (!proxy) return undefined;
  const host = target.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const port = Number(target.port) || DEFAULT_PORTS[target.protocol] || 0;
  if (isLoopback(host) && !s.noProxy.includes('<-loopback>')) return undefined;
  return s.noProxy.some((entry) => bypasses(entry, host, port)) ? undefined : proxy;
}

function bypasses(entry: string, host: string, port: number): boolean {
  if (entry === '*') return true;
  if (entry === '<-loopback>') return false;
  const m = /^(.*?)(?::(\d+))?$/.exec(entry.replace(/^\[(.*)\](:\d+)?$/, '$1$2'));
  if (!m) return false;
  if (m[2] !== undefined && Number(m[2]) !== port) return false;
  const name = m[1].replace(/^\*?\./, '');
  return host === name || host.endsWith(`.${name}`);
}

/** What must never be shown: the proxy's user name and password (as written and decoded) and a whole Proxy-Authorization value. */
export function proxySecrets(s: NetSettings): string[] {
  const out: string[] = [];
  for (const p of [s.httpProxy, s.httpsProxy]) {
    if (!p) continue;
    for (const part of [p.username, p.password]) if (part) out.push(part, decodeURIComponent(part));
    if (p.username || p.password) out.push(basicCredentials(p));
  }
  if (s.proxyAuthorization) out.push(s.proxyAuthorization, s.proxyAuthorization.replace(/^\S+\s+/, ''));
  return [...new Set(out)];
}

function basicCredentials(p: URL): string {
  return Buffer.from(`${decodeURIComponent(p.username)}:${decodeURIComponent(p.password)}`).toString('base64');
}

/**
 * node:tls, loaded when certificates are first asked for: it costs a CLI run ~12 ms at start, and a
 * run against http: hosts (the sandbox) never needs it (issue 39).
 */
function tlsModule(): typeof Tls {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
  return require('node:tls') as typeof Tls;
}

/** tls.getCACertificates, which reads the system store too (Node 22.15+); undefined on older Nodes. */
function caCertificatesReader(): ((kind: string) => string[]) | undefined {
  return (tlsModule() as { getCACertificates?: (kind: string) => string[] }).getCACertificates;
}

/** The Proxy-Authorization header for `proxy`, if it needs one. */
export function proxyAuthorization(proxy: URL, s: NetSettings): string | undefined {
  if (s.proxyAuthorization) return s.proxyAuthorization;
  return proxy.username || proxy.password ? `Basic ${basicCredentials(proxy)}` : undefined;
}

/**
 * Node's default authorities plus `extra` PEM texts. An explicit `ca` list replaces Node's defaults
 * (in undici's Agent as in tls.connect), and the bundled list (tls.rootCertificates) leaves out
 * NODE_EXTRA_CA_CERTS, so that file is read here as Node would.
 */
export function trustedCertificates(extra: readonly string[], env: NodeJS.ProcessEnv = process.env): string[] {
  const getCa = caCertificatesReader();
  if (getCa) return [...getCa('default'), ...extra];
  const fromEnv = env.NODE_EXTRA_CA_CERTS ? readPemFile(env.NODE_EXTRA_CA_CERTS, 'NODE_EXTRA_CA_CERTS') : [];
  return [...tlsModule().rootCertificates, ...fromEnv, ...extra];
}

/** A CA bundle with every public root is about 250 KB. */
const MAX_PEM_FILE_BYTES = 16 * 1024 * 1024;

/** The certificates in a PEM file; the file's name is `source`'s in the message when it cannot be used. */
export function readPemFile(file: string, source: string): string[] {
  let text: string;
  try {
    // A regular file of a bundle's size at most: a FIFO or a device named here must not hang or fill memory.
    text = readRegularFileSync(file, MAX_PEM_FILE_BYTES).toString('utf8');
  } catch (e) {
    const why = e instanceof FileRefusal ? (e.reason === 'missing' ? 'ENOENT' : e.message) : ((e as NodeJS.ErrnoException).code ?? String(e));
    throw new Error(`${source}: cannot read ${file} (${why})`, { cause: e });
  }
  const certs = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g);
  if (!certs) throw new Error(`${source}: ${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  return certs;
}

/** The editor's http.* settings as read (VS Code's own proxy settings). */
export const editorHttpSettingsSchema = once(() =>
  z.object({
    proxy: z.optional(z.string()),
    noProxy: z.optional(z.array(z.string())),
    proxyStrictSSL: z.optional(z.boolean()),
    proxyAuthorization: z.optional(z.nullable(z.string())),
    systemCertificates: z.optional(z.boolean()),
  }),
);
export type EditorHttpSettings = z.infer<ReturnType<typeof editorHttpSettingsSchema>>;

/**
 * What the editor's settings say, as VS Code reads them: http.proxy for every target (else the
 * environment's proxies), http.noProxy added to NO_PROXY, the system certificate store with
 * http.systemCertificates where this Node can read it (tls.getCACertificates, Node 22.15+; older
 * ones keep Node's list, NODE_EXTRA_CA_CERTS included).
 */
export function netSettingsFromEditor(http: EditorHttpSettings, env: NodeJS.ProcessEnv): NetSettings {
  const proxy = http.proxy?.trim() ? http.proxy.trim() : undefined;
  const base = netSettingsFromEnv(env);
  const forced = proxy === undefined ? undefined : parseProxyUrl(proxy, 'the setting http.proxy');
  const getCa = caCertificatesReader();
  return {
    httpProxy: forced ?? base.httpProxy,
    httpsProxy: forced ?? base.httpsProxy,
    noProxy: [...base.noProxy, ...(http.noProxy ?? []).flatMap((e) => splitNoProxy(e))],
    proxyAuthorization: http.proxyAuthorization ?? undefined,
    proxyStrictSSL: http.proxyStrictSSL ?? true,
    ca: http.systemCertificates !== false && getCa ? [...getCa('default'), ...getCa('system')] : undefined,
  };
}
