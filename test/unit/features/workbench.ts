// What the editor hands a feature (WorkbenchClients), built from plain parts for tests: the real
// HttpClientFactory and Redactor, with a KeySource over fixed keys, a request log and a history
// sink that keep what they are given. Real objects, not mocks of the code under test.
import { connectionId, connectionOrigins, type Connection } from '../../../src/core/connections';
import { ApiError } from '../../../src/core/errors';
import type { OutgoingRequest, RequestLogEntry } from '../../../src/core/http';
import { Redactor } from '../../../src/core/redact';
import { HttpClientFactory, type KeySource, type RequestLog, type WorkbenchClients } from '../../../src/features/httpClients';
import { DEFAULT_HISTORY_LIMITS, type HistoryEntry, type HistoryLimits } from '../../../src/history/model';
import type { HistorySink } from '../../../src/history/recorder';

/**
 * Keys from a fixed table, released (like the editor's CredentialGuard) only to the connection's
 * own origins. It does not tell the redactor about them: whatever masks a key, the client did it.
 */
export class FixedKeys implements KeySource {
  /** `<connection id> → <origin>` per key handed out (or refused). */
  readonly asked: string[] = [];

  constructor(private readonly keys: (conn: Connection) => string | undefined) {}

  forConnection(conn: Connection): (url: URL) => Promise<string> {
    return (url) => this.keyFor(conn, url);
  }

  keyFor(conn: Connection, url: URL | string): Promise<string> {
    const origin = new URL(String(url)).origin;
    this.asked.push(`${connectionId(conn)} → ${origin}`);
    const key = this.keys(conn);
    if (key === undefined)
      return Promise.reject(new ApiError({ kind: 'auth', service: conn.name, code: 'no_key', message: `No key is stored for "${conn.name}".` }));
    if (!connectionOrigins(conn).includes(origin)) {
      return Promise.reject(
        new ApiError({
          kind: 'auth',
          service: conn.name,
          code: 'origin_not_approved',
          message: `Not sent: the key of "${conn.name}" is not approved for ${origin}.`,
        }),
      );
    }
    return Promise.resolve(key);
  }
}

export class KeptLog implements RequestLog {
  readonly entries: RequestLogEntry[] = [];
  request(e: RequestLogEntry): void {
    this.entries.push(e);
  }
}

export class KeptHistory implements HistorySink {
  readonly entries: HistoryEntry[] = [];
  /** What each entry's client showed before sending (the Copy as cURL view of it). */
  readonly sent: (OutgoingRequest | undefined)[] = [];
  constructor(private readonly limitsNow: HistoryLimits = DEFAULT_HISTORY_LIMITS) {}
  limits(): HistoryLimits {
    return this.limitsNow;
  }
  record(entry: HistoryEntry, sent?: OutgoingRequest): void {
    this.entries.push(entry);
    this.sent.push(sent);
  }
}

export interface TestWorkbench extends WorkbenchClients {
  readonly guard: FixedKeys;
  readonly log: KeptLog;
  readonly history: KeptHistory;
}

/** A fresh factory (so a fresh shared limiter) whose requests land in `history`. */
export function workbench(keys: (conn: Connection) => string | undefined): TestWorkbench {
  const guard = new FixedKeys(keys);
  const log = new KeptLog();
  const redactor = new Redactor();
  const http = new HttpClientFactory(guard, log, redactor);
  const history = new KeptHistory();
  http.history = history;
  return { http, log, redactor, guard, history };
}

/** Everything a user or a log file could see of what the workbench recorded, as one string. */
export function recorded(w: TestWorkbench): string {
  return JSON.stringify({ log: w.log.entries, history: w.history.entries, sent: w.history.sent });
}
