// The realtime REST client for a connection, made one way for every caller (the sessions behind the
// tree and commands, the playground's realtime tools): through the services' HTTP factory, so every
// call is rate-limited, logged, redacted and lands in the request history.
import type { RealtimeConnection } from '../../core/connections';
import { RealtimeRest } from '../../services/realtime/rest';
import type { WorkbenchClients } from '../httpClients';

const REST_TIMEOUT_MS = 30_000;

/** `secret`: how the app secret is read (default: the guard, which may ask to approve its origin). */
export function realtimeRestFor(
  s: WorkbenchClients,
  conn: RealtimeConnection,
  encryptionMasterKey?: () => Promise<string | undefined>,
  secret: () => Promise<string | undefined> = () => s.guard.keyFor(conn, conn.restBaseUrl),
): RealtimeRest {
  const http = s.http.custom(conn, {
    service: `Realtime (${conn.name})`,
    baseUrl: conn.restBaseUrl,
    // The secret only signs; it never travels (see RealtimeRest).
    auth: { placement: 'none' },
    rateLimit: { key: s.http.rateLimitKey(conn), perMinute: conn.rateLimitPerMinute },
    limiter: s.http.limiter,
    log: (e) => s.log.request(e),
    redactor: s.redactor,
    timeoutMs: REST_TIMEOUT_MS,
  });
  return new RealtimeRest({ http, appId: conn.appId, key: conn.key, secret, ...(encryptionMasterKey ? { encryptionMasterKey } : {}) });
}
