// "Diagnose Connection…": how a connection's requests really go, step by step, as a report a user
// can paste into a bug report: name resolution, the proxy used (or why none), the TLS chain and who
// issued it, what the server said to the credentials, latency and rate-limit headers. Every line
// passes the redactor (keys, tokens, proxy credentials) before it is returned.
import { promises as dns } from 'node:dns';
import type { Socket } from 'node:net';
import * as tls from 'node:tls';
import { ApiError, errorText } from '../errors';
import type { Headers } from '../httpExchange';
import type { Redactor } from '../redact';
import { maskProxy, proxyFor, type NetSettings } from './settings';
import { certificateProblem, TRUST_HINT } from './tlsReasons';
import { openTunnel } from './webSocket';

/** What the front end's authenticated request (the listing a connection check makes) answered. */
export interface ProbeResult {
  status: number;
  headers: Headers;
  durationMs: number;
  requestId?: string;
}

export interface DiagnoseInput {
  /** "Language Models (Work)" */
  title: string;
  /** Where the connection's requests go (its base URL). */
  url: string;
  /** How it authenticates, in words, without the secret: "API key in the api-key header (SecretStorage)". */
  auth: string;
  settings: NetSettings;
  redactor: Redactor;
  /** The authenticated request; undefined when none can be made without cost ("not checked" and why in `probeSkipped`). */
  probe?: () => Promise<ProbeResult>;
  probeSkipped?: string;
  /** Given by tests; the system clock otherwise. */
  now?: () => number;
  timeoutMs?: number;
}

const RATE_LIMIT_HEADER = /^(x-ratelimit-|ratelimit|retry-after$|x-ms-ratelimit-)/i;
const DEFAULT_TIMEOUT_MS = 10_000;

/** The report as Markdown text, already redacted. Never throws: a step that fails says how. */
export async function diagnoseConnection(input: DiagnoseInput): Promise<string> {
  const now = input.now ?? (() => performance.now());
  const url = new URL(input.url);
  const secure = url.protocol === 'https:' || url.protocol === 'wss:';
  const port = Number(url.port) || (secure ? 443 : 80);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const lines: string[] = [`# Connection diagnosis: ${input.title}`, '', `- URL: ${url.origin}${url.pathname}`, `- Authentication: ${input.auth}`, ''];

  lines.push('## Name resolution');
  const t0 = now();
  try {
    const addresses = await dns.lookup(host, { all: true });
    lines.push(`- ${host} → ${addresses.map((a) => a.address).join(', ')} (${ms(now() - t0)})`);
  } catch (e) {
    lines.push(`- ${host} could not be resolved: ${errorText(e)}${proxyFor(url, input.settings) ? ' (the proxy resolves it, so this may be expected)' : ''}`);
  }
  lines.push('');

  lines.push('## Proxy');
  const proxy = proxyFor(url, input.settings);
  lines.push(`- ${proxy ? `through ${maskProxy(proxy)}` : `none: ${whyDirect(url, input.settings)}`}`);
  lines.push('');

  if (secure) {
    lines.push('## TLS');
    lines.push(...(await tlsReport(host, port, proxy, input.settings, input.timeoutMs ?? DEFAULT_TIMEOUT_MS)));
    lines.push('');
  }

  lines.push('## Request and authentication');
  if (!input.probe) lines.push(`- not checked: ${input.probeSkipped ?? 'no request is made for this connection'}`);
  else {
    const started = now();
    try {
      const r = await input.probe();
      lines.push(`- HTTP ${r.status} in ${ms(r.durationMs || now() - started)}: ${authVerdict(r.status)}`);
      if (r.requestId) lines.push(`- request id: ${r.requestId}`);
      const limits = Object.entries(r.headers).filter(([k, v]) => RATE_LIMIT_HEADER.test(k) && v !== undefined);
      lines.push(limits.length ? '- rate limits:' : '- rate limits: no rate-limit headers in the answer');
      for (const [k, v] of limits) lines.push(`  - ${k}: ${Array.isArray(v) ? v.join(', ') : v}`);
    } catch (e) {
      // An answer that is an error is still an answer: its status says what became of the credentials.
      if (e instanceof ApiError && e.status !== undefined) {
        lines.push(`- HTTP ${e.status} in ${ms(now() - started)}: ${authVerdict(e.status)}`);
        if (e.serviceMessage) lines.push(`- the server said: ${e.serviceMessage}`);
        if (e.requestId) lines.push(`- request id: ${e.requestId}`);
      } else lines.push(`- failed after ${ms(now() - started)}: ${errorText(e)}`);
    }
  }
  lines.push('', '_Keys, tokens and proxy credentials are masked (***). Made by API Workbench: Diagnose Connection._', '');
  return input.redactor.text(lines.join('\n'));
}

function ms(n: number): string {
  return `${Math.max(0, Math.round(n))} ms`;
}

function whyDirect(url: URL, s: NetSettings): string {
  const secure = url.protocol === 'https:' || url.protocol === 'wss:';
  if (!(secure ? s.httpsProxy : s.httpProxy))
    return `no ${secure ? 'HTTPS' : 'HTTP'} proxy is set (HTTPS_PROXY / HTTP_PROXY, --proxy, or VS Code's http.proxy)`;
  const h = url.hostname.replace(/^\[|\]$/g, '');
  if (/^(localhost|127\.\d+\.\d+\.\d+|::1)$/.test(h) || h.endsWith('.localhost')) return 'loopback hosts are never proxied (unless NO_PROXY holds <-loopback>)';
  return `${url.hostname} is in NO_PROXY / http.noProxy (${s.noProxy.join(', ')})`;
}

function authVerdict(status: number): string {
  if (status >= 200 && status < 300) return 'the credentials were accepted';
  if (status === 401) return 'the credentials were refused (401): a wrong, expired or missing key or token';
  if (status === 403) return 'the credentials are valid but not allowed this (403): check the key’s permissions or the account’s role';
  if (status === 404) return 'not found (404): check the base URL (and for Azure, the deployment and api-version)';
  if (status === 429) return 'rate limited (429): see the headers below';
  return `the server answered ${status}`;
}

/** The certificate chain as the server sends it, checked against the trusted authorities (through the proxy's tunnel when there is one). */
async function tlsReport(host: string, port: number, proxy: URL | undefined, s: NetSettings, timeoutMs: number): Promise<string[]> {
  let tunnel: Socket | undefined;
  try {
    if (proxy) tunnel = await openTunnel(proxy, host, port, s);
  } catch (e) {
    return [`- not inspected: the proxy's tunnel could not be opened (${errorText(e)})`];
  }
  const socket = await new Promise<tls.TLSSocket | Error>((resolve) => {
    const isIp = /^[\d.]+$|:/.test(host);
    const sock = tls.connect({
      host,
      port,
      ...(tunnel ? { socket: tunnel } : {}),
      ...(isIp ? {} : { servername: host }),
      ...(s.ca ? { ca: s.ca } : {}),
      // Inspected, never trusted: the verdict is read from authorizationError below, and nothing is sent on this socket.
      rejectUnauthorized: false,
    });
    const timer = setTimeout(() => sock.destroy(new Error(`no TLS handshake within ${timeoutMs / 1000} s`)), timeoutMs);
    sock.once('secureConnect', () => {
      clearTimeout(timer);
      resolve(sock);
    });
    sock.once('error', (e: Error) => {
      clearTimeout(timer);
      resolve(e);
    });
  });
  if (socket instanceof Error) return [`- the TLS handshake failed: ${errorText(socket)}`];
  try {
    const out = [`- ${socket.getProtocol() ?? 'TLS'}, ${socket.getCipher().name}${proxy ? ' (through the proxy’s tunnel)' : ''}`];
    const problem = socket.authorized ? undefined : String(socket.authorizationError);
    out.push(
      problem
        ? `- NOT trusted: ${certificateProblem(problem, host) ?? `${problem}. ${TRUST_HINT}`}`
        : '- trusted: the chain ends in a certificate authority trusted here, and the name matches',
    );
    out.push('- chain (server first):');
    let cert: tls.DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
    for (let depth = 0; cert && Object.keys(cert).length && depth < 6; depth++) {
      out.push(`  ${depth + 1}. ${name(cert.subject)} — issued by ${name(cert.issuer)}, valid until ${cert.valid_to}`);
      if (!cert.issuerCertificate || cert.issuerCertificate === cert) break;
      cert = cert.issuerCertificate;
    }
    return out;
  } finally {
    socket.destroy();
  }
}

function name(subject: tls.Certificate | undefined): string {
  if (!subject) return '(unnamed)';
  const cn = subject.CN;
  const org = subject.O;
  return [Array.isArray(cn) ? cn.join(', ') : cn, Array.isArray(org) ? org.join(', ') : org].filter(Boolean).join(', ') || '(unnamed)';
}
