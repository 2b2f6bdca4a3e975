// The maps client of a connection, built one way for every feature that calls the Maps APIs (the
// palette's commands, the playground's tool calls, the agents' tools): Google's error bodies read,
// and a client per API whose base URL the connection sets (the sandbox serves them all on one).
import type { HttpConnection } from '../core/connections';
import type { HttpClient, OutgoingRequest } from '../core/http';
import { MapsClient, type AnsweredCall, type MapsApi } from '../services/maps/client';
import { googleErrorParser } from '../services/maps/errors';
import type { HttpClientFactory } from './httpClients';

export interface MapsClientOptions {
  /** Hears of every request sent (the palette keeps them for Copy as cURL). */
  onRequest?: (r: OutgoingRequest) => void;
  /** Hears of every answered call (a cost tally prices it). */
  onAnswered?: (call: AnsweredCall) => void;
}

export function mapsClientFor(http: Pick<HttpClientFactory, 'create'>, conn: HttpConnection, opts: MapsClientOptions = {}): MapsClient {
  const onRequest = opts.onRequest ? { onRequest: opts.onRequest } : {};
  const perApi: Partial<Record<MapsApi, HttpClient>> = {};
  for (const api of ['places', 'routes', 'addressValidation', 'geocoding'] as const) {
    if (conn.baseUrls[api]) perApi[api] = http.create(conn, { parseError: googleErrorParser, baseUrlKey: api, ...onRequest });
  }
  return new MapsClient(http.create(conn, { parseError: googleErrorParser, ...onRequest }), perApi, opts.onAnswered);
}
