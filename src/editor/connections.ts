import vscode from 'vscode';
import { SERVICE_IDS, type Connection, type ServiceId } from '../core/connections';
import type { Config } from './config';
import { CONFIG_SECTION, CONNECTIONS_SETTING, CONTEXT_KEYS, STATE_KEYS } from '../features/ids';
import { Disposable } from './disposable';

const ACTIVE_KEY = STATE_KEYS.activeConnection;

/**
 * All connections per service: the user's (from settings) plus those the extension manages (the
 * local sandbox, held in memory because its ports and keys are new each run). One is active per
 * service; the choice is remembered in globalState.
 */
export class ConnectionStore extends Disposable {
  private managed: Connection[] = [];
  private readonly changed = this.register(new vscode.EventEmitter<ServiceId>());
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly config: Config,
    private readonly state: vscode.Memento,
  ) {
    super();
    this.register(
      config.onDidChange((e) => {
        for (const s of SERVICE_IDS) if (e.affectsConfiguration(`${CONFIG_SECTION}.${CONNECTIONS_SETTING[s]}`)) this.fire(s);
      }),
    );
    for (const s of SERVICE_IDS) this.updateContext(s);
  }

  list(service: ServiceId): Connection[] {
    return [...this.managed.filter((c) => c.service === service), ...this.config.connections(service).connections];
  }

  get(service: ServiceId, name: string): Connection | undefined {
    return this.list(service).find((c) => c.name === name);
  }

  active(service: ServiceId): Connection | undefined {
    const all = this.list(service);
    const chosen = this.state.get<Record<string, string>>(ACTIVE_KEY, {})[service];
    return all.find((c) => c.name === chosen) ?? all[0];
  }

  async setActive(service: ServiceId, name: string): Promise<void> {
    await this.state.update(ACTIVE_KEY, { ...this.state.get<Record<string, string>>(ACTIVE_KEY, {}), [service]: name });
    this.fire(service);
  }

  /** Replaces every managed connection from `source` (e.g. a sandbox restart). */
  setManaged(source: Connection['source'], connections: Connection[]): void {
    const touched = new Set<ServiceId>([...this.managed.filter((c) => c.source === source), ...connections].map((c) => c.service));
    this.managed = [...this.managed.filter((c) => c.source !== source), ...connections];
    for (const s of touched) this.fire(s);
  }

  private fire(service: ServiceId): void {
    this.updateContext(service);
    this.changed.fire(service);
  }

  private updateContext(service: ServiceId): void {
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.hasConnection[service], this.list(service).length > 0);
  }
}

/**
 * Commands take a connection as a tree node (context menus), a connection, or a connection name
 * (other commands, tests, keybindings). Checked by shape, not instanceof: callers may come from
 * another bundle.
 */
export function connectionFromArg(services: { connections: ConnectionStore }, service: ServiceId, arg: unknown): Connection | undefined {
  const name = typeof arg === 'string' ? arg : arg && typeof arg === 'object' ? (pickName((arg as { conn?: unknown }).conn) ?? pickName(arg)) : undefined;
  return name === undefined ? undefined : services.connections.get(service, name);

  function pickName(v: unknown): string | undefined {
    if (!v || typeof v !== 'object') return undefined;
    const c = v as { service?: unknown; name?: unknown };
    return c.service === service && typeof c.name === 'string' ? c.name : undefined;
  }
}
