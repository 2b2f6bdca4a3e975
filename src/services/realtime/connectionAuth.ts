// The authoriser of a stored realtime connection, one rule for every client that subscribes on
// the user's behalf (a notebook's LISTEN, the agents' recent messages): the app's own auth endpoint
// when the connection names one (the app secret is then neither needed nor sent to it), else the
// stored app secret signs locally.
import type { RealtimeConnection } from '../../core/connections';
import { HttpClient } from '../../core/http';
import type { Redactor } from '../../core/redact';
import { endpointAuthorizer, localAuthorizer, type ChannelAuthorizer, type LocalAuthorizerOptions } from './auth';

/** How long the app's auth endpoint may take to answer. */
const AUTH_ENDPOINT_TIMEOUT_MS = 15_000;

export interface ConnectionAuthorizerOptions extends Omit<LocalAuthorizerOptions, 'key'> {
  redactor: Redactor;
}

export function connectionAuthorizer(conn: RealtimeConnection, opts: ConnectionAuthorizerOptions): ChannelAuthorizer {
  const { redactor, ...local } = opts;
  if (conn.authEndpoint) {
    return endpointAuthorizer(
      new HttpClient({
        service: `${opts.service} auth endpoint`,
        baseUrl: conn.authEndpoint,
        auth: { placement: 'none' },
        redactor,
        timeoutMs: AUTH_ENDPOINT_TIMEOUT_MS,
      }),
    );
  }
  return localAuthorizer({ ...local, key: conn.key });
}
