import { connectionId, type HttpConnection } from '../core/connections';
import { HttpClient, type HttpClientOptions } from '../core/http';
import type { Redactor } from '../core/redact';
import { SlidingWindowLimiter } from '../core/rateLimiter';
import type { CredentialGuard } from './credentials';
import type { DiagnosticsLog } from './log';

export type ServiceHttpOptions = Pick<HttpClientOptions, 'parseError' | 'requestIdHeaders' | 'defaultHeaders' | 'retry' | 'onRequest'> & {
  /** An explicit base URL (one of the connection's own, e.g. the notebook engine's choice); wins over baseUrlKey. */
  baseUrl?: string;
  /** Replaces the guard's credentials callback; the notebook engine's wraps the guard's (host.credentials). */
  credentials?: HttpClientOptions['credentials'];
  /** Which of the connection's base URLs to use (e.g. "routes"); the default base URL otherwise. */
  baseUrlKey?: string;
  /** Name shown in errors; defaults to the connection name. */
  label?: string;
};

/**
 * Builds HttpClients for connections with everything wired in: the shared per-connection rate
 * limiter (so all features of one account share its quota), origin-checked credentials, the
 * diagnostics log and redaction.
 */
export class HttpClientFactory {
  readonly limiter = new SlidingWindowLimiter();

  constructor(
    private readonly guard: CredentialGuard,
    private readonly log: DiagnosticsLog,
    private readonly redactor: Redactor,
  ) {}

  create(conn: HttpConnection, opts: ServiceHttpOptions = {}): HttpClient {
    const { baseUrlKey, label, baseUrl, credentials, ...rest } = opts;
    return new HttpClient({
      service: label ?? conn.name,
      baseUrl: baseUrl ?? ((baseUrlKey && conn.baseUrls[baseUrlKey]) || conn.baseUrl),
      auth: conn.auth,
      credentials: credentials ?? this.guard.forConnection(conn),
      timeoutMs: conn.timeoutMs,
      rateLimit: { key: this.rateLimitKey(conn), perMinute: conn.rateLimitPerMinute },
      limiter: this.limiter,
      log: (e) => this.log.request(e),
      redactor: this.redactor,
      ...rest,
    });
  }

  /** The limiter key of a connection's overall quota; per-model keys extend it (`<key>#<model>`). */
  rateLimitKey(conn: { service: HttpConnection['service'] | 'realtime'; name: string }): string {
    return connectionId(conn);
  }
}
