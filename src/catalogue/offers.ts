// What each connection offers (model ids, channels), as last listed. Reading never waits: an editor
// provider gets what is cached (or nothing) at once, and a refresh runs in the background, one at a
// time per connection and list, so a keystroke never sends a request of its own.
export interface ModelOffer {
  id: string;
  /** Tokens of context, when the server says. */
  contextWindow?: number;
  ownedBy?: string;
}

export type OfferKind = 'models' | 'channels';

interface Entry<T> {
  at: number;
  items: readonly T[];
}

/** The key of a connection in the cache: `llm:Local Sandbox`. */
export const offerKey = (service: string, connectionName: string): string => `${service}:${connectionName}`;

export class OfferCache {
  private readonly models = new Map<string, Entry<ModelOffer>>();
  private readonly channels = new Map<string, Entry<string>>();
  private readonly pending = new Set<string>();

  /**
   * `maxAgeMs`: how long a model list is fresh; `channelsMaxAgeMs`, a channel list (channels come and go
   * with their subscribers, models rarely change). An older list is still returned while it is refreshed.
   */
  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxAgeMs = 5 * 60_000,
    private readonly channelsMaxAgeMs = 30_000,
  ) {}

  modelsOf(key: string): readonly ModelOffer[] | undefined {
    return this.models.get(key)?.items;
  }

  channelsOf(key: string): readonly string[] | undefined {
    return this.channels.get(key)?.items;
  }

  setModels(key: string, items: readonly ModelOffer[]): void {
    this.models.set(key, { at: this.now(), items });
  }

  setChannels(key: string, items: readonly string[]): void {
    this.channels.set(key, { at: this.now(), items });
  }

  /** Forget a connection's lists (it changed: another base URL may offer other models). */
  forget(key: string): void {
    this.models.delete(key);
    this.channels.delete(key);
  }

  /** True when the list is missing or old and no refresh of it is under way. */
  needsRefresh(key: string, kind: OfferKind): boolean {
    if (this.pending.has(`${kind}\0${key}`)) return false;
    const entry = kind === 'models' ? this.models.get(key) : this.channels.get(key);
    return !entry || this.now() - entry.at > (kind === 'models' ? this.maxAgeMs : this.channelsMaxAgeMs);
  }

  /**
   * Starts `load` unless the list is fresh or already loading; returns the promise of the refresh
   * (for tests and the caller's log), never to be awaited by a provider. A failed load keeps the
   * old list.
   */
  refresh(key: string, kind: 'models', load: () => Promise<readonly ModelOffer[]>): Promise<void> | undefined;
  refresh(key: string, kind: 'channels', load: () => Promise<readonly string[]>): Promise<void> | undefined;
  refresh(key: string, kind: OfferKind, load: () => Promise<readonly ModelOffer[] | readonly string[]>): Promise<void> | undefined {
    if (!this.needsRefresh(key, kind)) return undefined;
    const id = `${kind}\0${key}`;
    this.pending.add(id);
    return load()
      .then((items) => {
        if (kind === 'models') this.setModels(key, items as readonly ModelOffer[]);
        else this.setChannels(key, items as readonly string[]);
      })
      .finally(() => this.pending.delete(id));
  }
}
