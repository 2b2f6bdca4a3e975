// The agent context of a front end without the editor (the MCP server, tests): a fixed list of
// connections with their keys, one HTTP factory (so one rate limiter per connection across every
// call), notebooks run with the same host as `api-workbench run` plus that factory and the budget.
import { type Connection, type ServiceId } from '../core/connections';
import type { Redactor } from '../core/redact';
import { HttpClientFactory, type WorkbenchClients } from '../features/httpClients';
import type { PriceTable } from '../features/llm/costLedger';
import { connectionLabel, connectionsHost, type ConnectionsHostOptions } from '../notebook/api';
import { PRICES } from '../services/llm';
import type { SpendBudget } from './budget';
import type { AgentContext, AgentNotebookHost } from './context';
import { NotebookSpending } from './notebookSpending';
import { OriginBoundKeys } from './keys';
import { RecentMessages } from './recentMessages';

/** llm_chat's model on a sandbox connection when the call names none (the sandbox catalogue's first chat model). */
export function sandboxDefaultModel(connection: Connection): string | undefined {
  return connection.source === 'sandbox' ? 'sandbox-chat' : undefined;
}

/** Characters of a result's text by default (about 5,000 tokens). */
export const DEFAULT_MAX_RESULT_CHARS = 20_000;

export interface StandaloneOptions {
  connections: readonly Connection[];
  /**
   * The key of a connection (realtime: the app secret), each registered with the redactor; or a token
   * on its way (token commands, Entra ID), which the credential resolver registers itself.
   */
  key(connection: Connection): string | Promise<string> | undefined;
  /** After a 401 to `key`: true if asking `key` again may give another (a token); absent: never. */
  keyRefused?(connection: Connection, key: string): boolean;
  redactor: Redactor;
  /** Folder notebooks may be run from (absolute); absent: run_notebook is refused. */
  root?: string;
  /** Hosts http cells may send to (--allow-host, the connections file's "hosts"). */
  allowedHosts?: readonly string[];
  /** What `{{$env NAME}}` and `{{$secret name}}` of http cells read. Default: nothing. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Which `{{$env NAME}}` may be read, and the credentials known at start (ConnectionsHostOptions). */
  envPolicy?: ConnectionsHostOptions['envPolicy'];
  knownCredentials?: ConnectionsHostOptions['knownCredentials'];
  publishRefusal?: string;
  budget?: SpendBudget;
  prices?: PriceTable;
  defaultModel?(connection: Connection): string | undefined;
  maxResultChars?: number;
}

export interface StandaloneContext extends AgentContext {
  /** Closes the realtime sockets opened for recent messages. */
  dispose(): void;
}

export function standaloneContext(opts: StandaloneOptions): StandaloneContext {
  const { redactor } = opts;
  // Each key known now is also kept out of every request but its connection's (the engine's taint check).
  const known = [...(opts.knownCredentials ?? [])];
  for (const c of opts.connections) {
    const key = opts.key(c);
    if (typeof key === 'string') {
      redactor.addSecret(key);
      known.push({ value: key, owner: connectionLabel(c) });
    }
  }
  const guard = new OriginBoundKeys((c) => opts.key(c), opts.keyRefused && ((c, key) => opts.keyRefused?.(c, key) ?? false));
  // Requests are not logged one by one: stdout carries the protocol, and stderr is for problems.
  const log = { request: () => undefined };
  const clients: WorkbenchClients = { http: new HttpClientFactory(guard, log, redactor), log, redactor, guard };
  const prices = opts.prices ?? PRICES;
  const recent = new RecentMessages(clients);
  const budget = opts.budget;
  const notebookHost = (): AgentNotebookHost => {
    const spending = budget && new NotebookSpending(budget, prices);
    return {
      ...connectionsHost({
        connections: opts.connections,
        key: (c) => opts.key(c),
        keyRefused: (c, key) => opts.keyRefused?.(c, key) ?? false,
        redactor,
        allowedHosts: opts.allowedHosts ?? [],
        env: opts.env ?? {},
        envPolicy: opts.envPolicy,
        knownCredentials: known,
        onResult: (r) => spending?.cellEnded(r),
      }),
      // On the shared factory: a notebook's requests count against the same per-connection limits as the tools'.
      httpClient: (connection, options) => clients.http.create(connection, { ...options, history: false }),
      beforeModelRequest: (_connection, body) => Promise.resolve(spending?.beforeModelRequest(body)),
      runEnded: () => spending?.runEnded(),
    };
  };
  return {
    clients,
    connections: (service: ServiceId) => opts.connections.filter((c) => c.service === service),
    defaultModel: opts.defaultModel ? (c) => opts.defaultModel?.(c) : undefined,
    prices,
    budget,
    publishRefusal: opts.publishRefusal,
    recent,
    notebooks: opts.root === undefined ? undefined : { root: opts.root, host: notebookHost },
    maxResultChars: opts.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS,
    dispose: () => recent.dispose(),
  };
}
