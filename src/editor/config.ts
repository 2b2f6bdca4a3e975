import vscode from 'vscode';
import { parseConnectionsSetting, type Connection, type ParsedConnections, type ServiceId } from '../core/connections';
import { validate, type Schema } from '../core/validate';
import { CONFIG_SECTION, CONNECTIONS_SETTING, type SettingKey } from '../features/ids';
import { SETTINGS, type SettingName, type SettingsReader, type SettingValue } from '../features/settings';
import { Disposable } from './disposable';

/**
 * The one reader of the extension's settings. Values are validated; a malformed value is reported
 * (once per distinct problem) and the valid part or the default is used, so nothing is lost or
 * half-applied silently.
 */
export class Config extends Disposable implements SettingsReader {
  private readonly reported = new Set<string>();
  /** Parsed once per settings change: trees, status bars and commands ask for connections often. */
  private readonly parsed = new Map<ServiceId, ParsedConnections<Connection>>();
  private readonly changed = this.register(new vscode.EventEmitter<vscode.ConfigurationChangeEvent>());
  readonly onDidChange = this.changed.event;

  constructor(private readonly report: (problem: string) => void) {
    super();
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration(CONFIG_SECTION)) return;
        // Cleared before listeners run, so they read the new settings.
        this.parsed.clear();
        this.changed.fire(e);
      }),
    );
  }

  /**
   * Connections from the user's settings. The setting is application-scoped, and we read only the
   * global (user) value, so a workspace's .vscode/settings.json can never redirect a key.
   */
  connections(service: ServiceId): ParsedConnections<Connection> {
    let parsed = this.parsed.get(service);
    if (!parsed) {
      parsed = parseConnectionsSetting(service, this.inspectGlobal(CONNECTIONS_SETTING[service]));
      for (const p of parsed.problems) this.problem(`Setting ${CONFIG_SECTION}.${CONNECTIONS_SETTING[service]}, ${p}. That entry is ignored.`);
      this.parsed.set(service, parsed);
    }
    return parsed;
  }

  /** A setting as features/settings.ts declares it: validated, its default when unset or invalid (reported). */
  get<K extends SettingName>(key: K): SettingValue<K> {
    const spec = SETTINGS[key] as { schema: () => Schema<SettingValue<K>>; default: SettingValue<K>; userOnly: boolean };
    return this.read(key, spec.schema, spec.default, { userOnly: spec.userOnly });
  }

  /** `schema` is built only for a setting the user has set: an unset one needs no validating. */
  private read<T>(key: SettingKey, schema: () => Schema<T>, fallback: T, opts: { userOnly?: boolean } = {}): T {
    const raw = opts.userOnly ? this.inspectGlobal(key) : vscode.workspace.getConfiguration(CONFIG_SECTION).get<unknown>(key);
    if (raw === undefined) return fallback;
    const v = validate(schema(), raw);
    if (v.ok) return v.value;
    this.problem(`Setting ${CONFIG_SECTION}.${key} is invalid (${v.problem}); using the default.`);
    return fallback;
  }

  async updateConnections(service: ServiceId, update: (current: unknown[]) => unknown[]): Promise<void> {
    const raw = this.inspectGlobal(CONNECTIONS_SETTING[service]);
    const current = Array.isArray(raw) ? raw : [];
    await vscode.workspace.getConfiguration(CONFIG_SECTION).update(CONNECTIONS_SETTING[service], update(current), vscode.ConfigurationTarget.Global);
  }

  private inspectGlobal(key: SettingKey): unknown {
    const i = vscode.workspace.getConfiguration(CONFIG_SECTION).inspect<unknown>(key);
    return i?.globalValue;
  }

  private problem(text: string): void {
    if (this.reported.has(text)) return;
    this.reported.add(text);
    this.report(text);
  }
}
