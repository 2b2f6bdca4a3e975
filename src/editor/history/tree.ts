import vscode from 'vscode';
import { entryPath, HISTORY_SERVICE_LABELS as SERVICE_LABELS, type HistoryEntry } from '../../history/model';
import { HISTORY_COMMANDS } from '../../features/ids';
import type { HistoryStore } from './store';
import { Disposable } from '../disposable';
import { formatMs } from '../../core/numbers';

export const HISTORY_ENTRY_CONTEXT = 'history.entry';
const MAX_LABEL_PATH = 70;

/** "200 · 132 ms", "failed · 3 ms", "cancelled". */
export function outcomeText(entry: HistoryEntry): string {
  const status = entry.error === 'Cancelled' ? 'cancelled' : entry.status !== undefined ? String(entry.status) : entry.error !== undefined ? 'failed' : '—';
  return entry.durationMs === undefined ? status : `${status} · ${formatMs(entry.durationMs)}`;
}

function succeeded(entry: HistoryEntry): boolean {
  const failedAssertions = (entry.cell?.failed ?? 0) > 0;
  return entry.error === undefined && !failedAssertions && entry.status !== undefined && entry.status >= 200 && entry.status < 400;
}

function clock(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleTimeString(undefined, { hour12: false });
}

/** The History view: newest request first, one flat list. */
export class HistoryTreeProvider extends Disposable implements vscode.TreeDataProvider<HistoryEntry> {
  private readonly changed = this.register(new vscode.EventEmitter<undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly store: HistoryStore) {
    super();
    // A notebook run adds many entries at once: one refresh for the burst.
    this.register(
      store.onDidChange(() => {
        if (this.timer) return;
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.changed.fire(undefined);
        }, 100);
      }),
    );
  }

  async getChildren(element?: HistoryEntry): Promise<HistoryEntry[]> {
    if (element) return [];
    return [...(await this.store.entries())];
  }

  getTreeItem(entry: HistoryEntry): vscode.TreeItem {
    // Realtime's signing parameters say nothing to a reader (the signature is masked anyway).
    let path = entryPath(entry)
      .replace(/([?&])(auth_key|auth_timestamp|auth_version|auth_signature|body_md5)=[^&]*/g, '$1')
      .replace(/[?&]+$/, '')
      .replace(/\?&+/, '?')
      .replace(/&&+/g, '&');
    if (path.length > MAX_LABEL_PATH) path = `${path.slice(0, MAX_LABEL_PATH - 1)}…`;
    const item = new vscode.TreeItem(`${entry.method} ${path}`, vscode.TreeItemCollapsibleState.None);
    item.id = entry.id;
    const where = entry.cell ? `${entry.cell.name ?? 'cell'} · ${basename(entry.cell.file)}` : (entry.connection ?? SERVICE_LABELS[entry.service]);
    item.description = `${outcomeText(entry)} · ${clock(entry.at)} · ${where}`;
    const ok = succeeded(entry);
    item.iconPath = new vscode.ThemeIcon(ok ? 'pass' : 'error', new vscode.ThemeColor(ok ? 'testing.iconPassed' : 'testing.iconFailed'));
    item.contextValue = HISTORY_ENTRY_CONTEXT;
    item.tooltip = historyTooltip(entry);
    item.command = { command: HISTORY_COMMANDS.show, title: 'Show', arguments: [entry] };
    item.accessibilityInformation = { label: `${entry.method} ${path}, ${outcomeText(entry)}, ${SERVICE_LABELS[entry.service]}` };
    return item;
  }

  override dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    super.dispose();
  }
}

function basename(file: string): string {
  return file.split(/[\\/]/).pop() ?? file;
}

/**
 * Plain text, not Markdown: the hover links a URL and shows what appendText escaped inside it as
 * written (`auth\_key`), so a URL read in a Markdown tooltip was not the URL that was sent.
 */
export function historyTooltip(entry: HistoryEntry): string {
  return [
    `${entry.method} ${entry.url}`,
    `${SERVICE_LABELS[entry.service]}${entry.connection ? ` (${entry.connection})` : ''} · ${new Date(entry.at).toLocaleString()}`,
    `${outcomeText(entry)}${entry.requestId ? ` · request id ${entry.requestId}` : ''}${entry.command ? ` · sent by ${entry.command}` : ''}`,
    entry.cell && `Notebook ${entry.cell.file}:${entry.cell.line} · ${entry.cell.passed} passed, ${entry.cell.failed} failed`,
    entry.error,
  ]
    .filter(Boolean)
    .join('\n\n');
}
