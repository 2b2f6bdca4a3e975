import vscode from 'vscode';
import { validate } from '../../core/validate';
import { resultsByConnectionSchema, type CapabilityId, type MapsResult } from '../../features/maps/results';
import { Disposable } from '../disposable';

const STATE_KEY = 'apiWorkbench.maps.results.v1';
/** Per connection and capability; older results drop off. */
const MAX_PER_CAPABILITY = 15;

/**
 * Recent results per connection, kept in globalState (no secrets in them: names, addresses,
 * coordinates) so they survive a reload of the window.
 */
export class ResultStore extends Disposable {
  private readonly changed = this.register(new vscode.EventEmitter<string>());
  /** Fires with the connection id whose results changed. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: vscode.Memento) {
    super();
  }

  private all(): Record<string, MapsResult[]> {
    const v = validate(resultsByConnectionSchema, this.state.get(STATE_KEY) ?? {});
    return v.ok ? v.value : {};
  }

  list(connectionId: string, capability?: CapabilityId): MapsResult[] {
    const list = this.all()[connectionId] ?? [];
    return capability ? list.filter((r) => r.capability === capability) : list;
  }

  get(connectionId: string, id: string): MapsResult | undefined {
    return this.list(connectionId).find((r) => r.id === id);
  }

  /** Adds results (newest first), replacing older entries with the same id. */
  async add(connectionId: string, results: readonly MapsResult[]): Promise<void> {
    if (!results.length) return;
    const all = this.all();
    const ids = new Set(results.map((r) => r.id));
    const merged = [...results, ...(all[connectionId] ?? []).filter((r) => !ids.has(r.id))];
    const counts = new Map<string, number>();
    all[connectionId] = merged.filter((r) => {
      const n = (counts.get(r.capability) ?? 0) + 1;
      counts.set(r.capability, n);
      return n <= MAX_PER_CAPABILITY;
    });
    await this.state.update(STATE_KEY, all);
    this.changed.fire(connectionId);
  }

  async clear(connectionId: string): Promise<void> {
    const all = this.all();
    delete all[connectionId];
    await this.state.update(STATE_KEY, all);
    this.changed.fire(connectionId);
  }
}
