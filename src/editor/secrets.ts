import vscode from 'vscode';
import { connectionId, type ServiceId } from '../core/connections';
import type { Redactor } from '../core/redact';
import { NOTEBOOK_SECRET_PREFIX as NOTEBOOK_PREFIX, SECRET_AUX_PREFIX as AUX_PREFIX, SECRET_KEY_PREFIX as PREFIX } from '../features/ids';
import { Disposable } from './disposable';

/**
 * A key as stored: the value and the origins it was entered for (or approved for since). Binding the
 * key to origins is what stops a changed base URL from silently receiving it.
 */
export interface StoredSecret {
  value: string;
  origins: string[];
}

type ConnectionRef = { service: ServiceId; name: string };

function storageKey(c: ConnectionRef): string {
  return PREFIX + connectionId(c);
}

export type AuxSecretSlot = 'encryptionMasterKey';

/** Outside PREFIX on purpose: the key's change listener parses every PREFIX entry as a key. */
function auxStorageKey(c: ConnectionRef, slot: AuxSecretSlot): string {
  return `${AUX_PREFIX}${slot}.${connectionId(c)}`;
}

/**
 * The only code that touches SecretStorage. Every value read or written is registered with the
 * Redactor, so no log line can echo it. Other windows' changes arrive through onDidChange.
 */
export class SecretStore extends Disposable {
  private readonly cache = new Map<string, Promise<StoredSecret | undefined>>();
  private readonly changed = this.register(new vscode.EventEmitter<ConnectionRef>());
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly storage: vscode.SecretStorage,
    private readonly redactor: Redactor,
  ) {
    super();
    this.register(
      storage.onDidChange((e) => {
        if (!e.key.startsWith(PREFIX)) return;
        this.cache.delete(e.key);
        const [service, ...rest] = e.key.slice(PREFIX.length).split(':');
        // Re-read so the redactor learns a value another window stored.
        void this.get({ service: service as ServiceId, name: rest.join(':') }).finally(() =>
          this.changed.fire({ service: service as ServiceId, name: rest.join(':') }),
        );
      }),
    );
  }

  get(c: ConnectionRef): Promise<StoredSecret | undefined> {
    const key = storageKey(c);
    let p = this.cache.get(key);
    if (!p) {
      p = Promise.resolve(this.storage.get(key)).then(
        (raw) => this.decode(raw),
        () => undefined,
      );
      this.cache.set(key, p);
    }
    return p;
  }

  async has(c: ConnectionRef): Promise<boolean> {
    return (await this.get(c)) !== undefined;
  }

  async set(c: ConnectionRef, value: string, origins: readonly string[]): Promise<void> {
    this.redactor.addSecret(value);
    const record: StoredSecret = { value, origins: [...new Set(origins)] };
    this.cache.set(storageKey(c), Promise.resolve(record));
    await this.storage.store(storageKey(c), JSON.stringify(record));
    this.changed.fire(c);
  }

  async approveOrigin(c: ConnectionRef, origin: string): Promise<void> {
    const current = await this.get(c);
    if (!current || current.origins.includes(origin)) return;
    await this.set(c, current.value, [...current.origins, origin]);
  }

  async clear(c: ConnectionRef): Promise<void> {
    this.cache.delete(storageKey(c));
    await this.storage.delete(storageKey(c));
    this.changed.fire(c);
  }

  /**
   * A second secret that belongs to a connection besides its key (the realtime encryption master
   * key). Stored apart from the key, so clearing or replacing the key leaves it alone; redacted the
   * same way. Removing the connection removes it (clearAux).
   */
  async getAux(c: ConnectionRef, slot: AuxSecretSlot): Promise<string | undefined> {
    const raw = await Promise.resolve(this.storage.get(auxStorageKey(c, slot))).catch(() => undefined);
    if (raw) this.redactor.addSecret(raw);
    return raw || undefined;
  }

  async setAux(c: ConnectionRef, slot: AuxSecretSlot, value: string): Promise<void> {
    this.redactor.addSecret(value);
    await this.storage.store(auxStorageKey(c, slot), value);
    this.changed.fire(c);
  }

  async clearAux(c: ConnectionRef, slot: AuxSecretSlot): Promise<void> {
    await this.storage.delete(auxStorageKey(c, slot));
    this.changed.fire(c);
  }

  /** A notebook's `{{$secret name}}`, registered with the redactor as it is read. */
  async getNotebookSecret(name: string): Promise<string | undefined> {
    const raw = await Promise.resolve(this.storage.get(NOTEBOOK_PREFIX + name)).catch(() => undefined);
    if (raw) this.redactor.addSecret(raw);
    return raw || undefined;
  }

  async setNotebookSecret(name: string, value: string): Promise<void> {
    this.redactor.addSecret(value);
    await this.storage.store(NOTEBOOK_PREFIX + name, value);
  }

  private decode(raw: string | undefined): StoredSecret | undefined {
    if (!raw) return undefined;
    try {
      const parsed = JSON.parse(raw) as Partial<StoredSecret>;
      if (typeof parsed.value !== 'string' || !Array.isArray(parsed.origins)) return undefined;
      this.redactor.addSecret(parsed.value);
      return { value: parsed.value, origins: parsed.origins.filter((o): o is string => typeof o === 'string') };
    } catch {
      return undefined;
    }
  }
}
