// What the agent tools run on, handed in by a front end (`api-workbench mcp`, the editor's
// language-model tools): the connections and their clients, the rules that hold for every call,
// and where notebooks may be run from. Nothing here imports vscode.
import type { Connection, ServiceId } from '../core/connections';
import type { WorkbenchClients } from '../features/httpClients';
import type { PriceTable } from '../features/llm/costLedger';
import type { NotebookHost } from '../notebook/api';
import type { TokenUsage } from '../services/llm';
import type { SpendBudget } from './budget';
import type { RecentMessages } from './recentMessages';

export interface AgentNotebooks {
  /** Absolute folder notebooks must be inside (symbolic links resolved); others are refused. */
  root: string;
  /** The engine's host for one run: keys, host approval and limits exactly as the front end's `run`. */
  host(): AgentNotebookHost;
}

export interface AgentNotebookHost extends NotebookHost {
  /** The run is over: what its cells reserved from the budget and did not settle is settled now. */
  runEnded?(): void;
}

export interface AgentContext {
  /** The HTTP factory (one rate limiter per connection, shared by every call), the keys and the redactor. */
  readonly clients: WorkbenchClients;
  /** The connections of a service; the first is the default when a call names none. */
  connections(service: ServiceId): readonly Connection[];
  /** The model `llm_chat` uses when the call names none; undefined: the call must name one. */
  defaultModel?(connection: Connection): string | undefined;
  readonly prices: PriceTable;
  /** An LLM call finished with this usage (the editor adds it to today's spend, as Ask's calls are). */
  spent?(model: string, usage: TokenUsage): void;
  /** An upper limit on what LLM calls may cost, over the life of this context. */
  readonly budget?: SpendBudget;
  /**
   * Set when publishing and every other side effect (a notebook's PUBLISH, a request that changes
   * data: src/agents/sideEffects.ts) are refused, to the sentence saying how to allow them (the
   * CLI: start the server with --allow-publish). Unset: allowed (the editor asks before a publish).
   */
  readonly publishRefusal?: string;
  /** The subscriptions behind realtime_recent_messages, kept across calls. */
  readonly recent: RecentMessages;
  /** Absent: run_notebook is refused (no folder to run notebooks from). */
  readonly notebooks?: AgentNotebooks;
  /** Characters of a result's text an agent is given; longer text is cut and says so. */
  readonly maxResultChars: number;
}

/** A call the rules refuse, or input that cannot work; the message says what to do instead. */
export class ToolRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolRefusal';
  }
}

/** The connection of `service` the call names, or the default one; a ToolRefusal listing the others. */
export function pickConnection(ctx: AgentContext, service: ServiceId, name: string | undefined): Connection {
  const all = ctx.connections(service);
  const found = name === undefined ? all[0] : all.find((c) => c.name === name);
  if (found) return found;
  if (all.length === 0) throw new ToolRefusal(`there is no ${service} connection: add one (or use the local sandbox), then call again`);
  throw new ToolRefusal(`there is no ${service} connection named "${name}": use one of ${all.map((c) => `"${c.name}"`).join(', ')}`);
}
