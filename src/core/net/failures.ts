// Network failures in words: which proxy refused and what it answered, which host's certificate
// was not trusted and why. Built where a request or socket fails, with the target it was for.
import { certificateProblem, isCertificateCode } from './tlsReasons';
import { maskProxy } from './settings';
import { sharedAcrossBundles } from '../sharedClass';

/** A proxy refused the request or could not be reached; `proxy` is masked. */
export class ProxyError extends Error {
  static {
    sharedAcrossBundles(this, 'api-workbench.ProxyError');
  }

  constructor(
    message: string,
    readonly proxy: string,
    readonly code: string,
    readonly status?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'ProxyError';
  }
}

/** A network failure with its cause in words; `code` is the cause's own. */
export class NetworkFailure extends Error {
  static {
    sharedAcrossBundles(this, 'api-workbench.NetworkFailure');
  }

  constructor(
    message: string,
    readonly code: string | undefined,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'NetworkFailure';
  }
}

const CONNECT_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'name lookup failed',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'connect timed out',
  UND_ERR_SOCKET: 'connection closed',
};

/** Codes that mean no connection was made (a reset may come from the target, through the tunnel). */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT']);

const STATUS_TEXT: Record<number, string> = { 403: 'Forbidden', 407: 'Proxy Authentication Required', 502: 'Bad Gateway', 503: 'Service Unavailable' };

export function proxyAnswered(proxy: URL, status: number, statusText?: string): ProxyError {
  const said = statusText || STATUS_TEXT[status] || '';
  const todo = status === 407 ? ': check the user name and password in the proxy URL (http://user:password@host:port)' : '';
  return new ProxyError(`the proxy ${maskProxy(proxy)} answered ${status}${said ? ` ${said}` : ''}${todo}`, maskProxy(proxy), 'PROXY_REFUSED', status);
}

export function proxyUnreachable(proxy: URL, e: unknown): ProxyError {
  const code = (e as { code?: string } | undefined)?.code ?? 'ECONNREFUSED';
  const words = CONNECT_CODES[code] ?? (e instanceof Error ? e.message : String(e));
  return new ProxyError(`the proxy ${maskProxy(proxy)} could not be reached: ${words} (${code})`, maskProxy(proxy), code, undefined, { cause: e });
}

/**
 * True for a connection failure that trying again cannot fix: a certificate not trusted (or expired,
 * or for another name), or a proxy that refused us (407, 403). A reconnect loop stops on these at
 * once instead of retrying until its give-up window ends.
 */
export function retryCannotFix(e: unknown): boolean {
  for (let err = e, depth = 0; err !== undefined && err !== null && depth < 4; err = (err as { cause?: unknown }).cause, depth++) {
    if (err instanceof ProxyError) return err.status === 407 || err.status === 403;
    if (isCertificateCode((err as { code?: string }).code)) return true;
  }
  return false;
}

/**
 * The error `e` (from undici or a socket) in words when it is a proxy's or a certificate's doing,
 * else undefined (the caller's own text stands). `proxy` is the one the request went through.
 */
export function describeFailure(e: unknown, target: URL, proxy: URL | undefined): Error | undefined {
  if (e instanceof ProxyError || e instanceof NetworkFailure) return e;
  const err = e as { code?: string; message?: string } | undefined;
  const code = err?.code;
  const message = err?.message ?? '';
  const cert = certificateProblem(code, target.host, message);
  if (cert) return new NetworkFailure(cert, code, { cause: e });
  if (!proxy) return undefined;
  // undici's words for a proxy's refusal, through a tunnel (https) or for a forwarded request (http).
  const refused = /Proxy response \((\d{3})\)|Proxy Authentication Required \((\d{3})\)/.exec(message);
  if (refused) return Object.assign(proxyAnswered(proxy, Number(refused[1] ?? refused[2])), { cause: e });
  // Through a proxy every connection is to the proxy: failing to connect is failing to reach it.
  if (code !== undefined && NOT_CONNECTED.has(code)) return proxyUnreachable(proxy, e);
  return undefined;
}
