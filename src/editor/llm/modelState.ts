import vscode from 'vscode';
import * as z from 'zod/mini';
import { connectionId, type Connection } from '../../core/connections';
import { validate } from '../../core/validate';
import { STATE_KEYS } from '../../features/ids';
import { Disposable } from '../disposable';

const DEFAULT_KEY = STATE_KEYS.defaultModel;
const LAST_KEY = STATE_KEYS.lastModel;
const byConnection = z.record(z.string(), z.string());

/**
 * Which model each connection uses: the default the user set in the tree, and the last one picked
 * in Ask… (offered first next time). Kept in globalState: model ids are not secrets.
 */
export class ModelState extends Disposable {
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: vscode.Memento) {
    super();
  }

  defaultModel(conn: Connection): string | undefined {
    return this.read(DEFAULT_KEY)[connectionId(conn)];
  }

  lastModel(conn: Connection): string | undefined {
    return this.read(LAST_KEY)[connectionId(conn)];
  }

  /** The model the next Ask… offers first (and the status bar shows). */
  activeModel(conn: Connection): string | undefined {
    return this.lastModel(conn) ?? this.defaultModel(conn);
  }

  async setDefault(conn: Connection, model: string): Promise<void> {
    await this.write(DEFAULT_KEY, conn, model);
    // Choosing a default is an explicit choice of the model to use now, too.
    await this.write(LAST_KEY, conn, model);
    this.changed.fire();
  }

  async setLast(conn: Connection, model: string): Promise<void> {
    if (this.lastModel(conn) === model) return;
    await this.write(LAST_KEY, conn, model);
    this.changed.fire();
  }

  private read(key: string): Record<string, string> {
    const v = validate(byConnection, this.state.get<unknown>(key, {}));
    return v.ok ? v.value : {};
  }

  private async write(key: string, conn: Connection, model: string): Promise<void> {
    await this.state.update(key, { ...this.read(key), [connectionId(conn)]: model });
  }
}
