import { connectionId, needsKey, type Connection, type HttpConnection } from '../core/connections';
import { connectionRequestOptions } from '../core/connectionsAzure';
import { HttpClient, type HttpClientOptions } from '../core/http';
import { RecordingHttpClient, type HistorySink } from '../history/recorder';
import { ResourcesClient, resourcesHttpOptions } from '../services/resources';
import type { Redactor } from '../core/redact';
import { SlidingWindowLimiter } from '../core/rateLimiter';
import type { RequestLogEntry } from '../core/http';

/** Where a connection's key comes from (the editor's CredentialGuard: approved hosts only). */
export interface KeySource {
  forConnection(conn: Connection): (url: URL) => Promise<string>;
  keyFor(conn: Connection, url: URL | string): Promise<string>;
  /** HttpClientOptions.credentialRefused for `conn`: a token may be renewed after a 401; a stored key may not. */
  credentialRefused?(conn: Connection, key: string): boolean;
}

/** Where each request is logged (the editor's diagnostics log). */
export interface RequestLog {
  request(e: RequestLogEntry): void;
}

/** Realtime connections have no timeout setting; their REST calls use this one too. */
const REALTIME_LISTING_TIMEOUT_MS = 30_000;

export type ServiceHttpOptions = Pick<HttpClientOptions, 'parseError' | 'requestIdHeaders' | 'defaultHeaders' | 'retry' | 'onRequest' | 'credentials'> & {
  /** Which of the connection's base URLs to use (e.g. "routes"); the default base URL otherwise. */
  baseUrlKey?: string;
  /** An explicit base URL (one of the connection's origins; the notebook engine picks it per cell). */
  baseUrl?: string;
  /** Name shown in errors; defaults to the connection name. */
  label?: string;
  /**
   * false: the request history does not record this client's requests, because its caller records
   * them itself (the notebook, with each cell's assertions).
   */
  history?: boolean;
};

/**
 * Builds HttpClients for connections with everything wired in: the shared per-connection rate
 * limiter (so all features of one account share its quota), origin-checked credentials, the
 * diagnostics log and redaction.
 */
export class HttpClientFactory {
  readonly limiter = new SlidingWindowLimiter();
  /** Where every request lands (the History view); set once the history exists. */
  history: HistorySink | undefined;

  constructor(
    private readonly guard: KeySource,
    private readonly log: RequestLog,
    private readonly redactor: Redactor,
  ) {}

  create(conn: HttpConnection, opts: ServiceHttpOptions = {}): HttpClient {
    const { baseUrlKey, baseUrl, label, history, credentials, ...rest } = opts;
    return this.client(conn, history !== false, {
      service: label ?? conn.name,
      baseUrl: baseUrl ?? ((baseUrlKey && conn.baseUrls[baseUrlKey]) || conn.baseUrl),
      auth: conn.auth,
      credentials: credentials ?? (needsKey(conn) ? this.guard.forConnection(conn) : undefined),
      credentialRefused: this.refusal(conn),
      timeoutMs: conn.timeoutMs,
      rateLimit: { key: this.rateLimitKey(conn), perMinute: conn.rateLimitPerMinute },
      limiter: this.limiter,
      log: (e) => this.log.request(e),
      redactor: this.redactor,
      ...connectionRequestOptions(conn),
      ...rest,
    });
  }

  private refusal(conn: Connection): HttpClientOptions['credentialRefused'] {
    const guard = this.guard;
    return needsKey(conn) && guard.credentialRefused ? (key) => guard.credentialRefused?.(conn, key) ?? false : undefined;
  }

  /**
   * The uniform `GET {origin}/v1/resources` listing of any connection, on the connection's quota.
   * Realtime sends the app secret as the bearer token, so only connections set to this listing use it.
   */
  resources(conn: Connection): ResourcesClient {
    return new ResourcesClient(
      new HttpClient({
        service: conn.name,
        ...resourcesHttpOptions(conn.service === 'realtime' ? conn.restBaseUrl : conn.baseUrl),
        credentials: needsKey(conn) ? this.guard.forConnection(conn) : undefined,
        credentialRefused: this.refusal(conn),
        timeoutMs: conn.service === 'realtime' ? REALTIME_LISTING_TIMEOUT_MS : conn.timeoutMs,
        rateLimit: { key: this.rateLimitKey(conn), perMinute: conn.rateLimitPerMinute },
        limiter: this.limiter,
        log: (e) => this.log.request(e),
        redactor: this.redactor,
      }),
    );
  }

  /**
   * A client built from explicit options (realtime's signed REST client) whose requests still land
   * in the history; logging and redaction are the caller's to set, as with `new HttpClient`.
   */
  custom(conn: Connection, options: HttpClientOptions): HttpClient {
    return this.client(conn, true, { redactor: this.redactor, ...options });
  }

  private client(conn: Connection, recorded: boolean, options: HttpClientOptions): HttpClient {
    const sink = this.history;
    if (!recorded || !sink) return new HttpClient(options);
    return new RecordingHttpClient(
      { ...options, redactor: options.redactor ?? this.redactor },
      { service: conn.service, connection: conn.name, commandsOnly: true },
      sink,
    );
  }

  /** The limiter key of a connection's overall quota; per-model keys extend it (`<key>#<model>`). */
  rateLimitKey(conn: { service: HttpConnection['service'] | 'realtime'; name: string }): string {
    return connectionId(conn);
  }
}

/** What a feature needs to make clients for a connection: the factory, the log, the redactor and the keys. */
export interface WorkbenchClients {
  readonly http: HttpClientFactory;
  readonly log: RequestLog;
  readonly redactor: Redactor;
  readonly guard: KeySource;
}
