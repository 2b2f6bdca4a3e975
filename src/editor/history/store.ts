import vscode from 'vscode';
import { DEFAULT_HISTORY_LIMITS, HistoryList, type HistoryEntry, type HistoryLimits } from '../../history/model';
import type { OutgoingRequest } from '../../core/http';
import type { HistorySink } from '../../history/recorder';
import type { Config } from '../config';
import type { DiagnosticsLog } from '../log';
import { errorText } from '../../core/errors';

const FILE_NAME = 'request-history.json';
/** Bursts of requests (a notebook run) are written once. */
const WRITE_DELAY_MS = 750;
/** Documents (answers, responses) whose request is remembered for "Save as Notebook Cell", newest kept. */
const LINKED_DOCUMENTS = 50;

/**
 * The request history of this workspace, kept in a JSON file under the extension's workspace
 * storage (not workspaceState: hundreds of bodies do not belong in the state database). Read on
 * first use, written shortly after each change. Entries arrive redacted.
 */
export class HistoryStore implements HistorySink, vscode.Disposable {
  private list: HistoryList | undefined;
  private loading: Promise<HistoryList> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private latest: HistoryEntry | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly sub: vscode.Disposable;
  /** Entry id of each request a client sent (the object its onRequest hook saw). */
  private readonly entryOfRequest = new WeakMap<OutgoingRequest, string>();
  /** Document URI → the request it shows the result of (resolved to an entry once recorded). */
  private readonly documents = new Map<string, OutgoingRequest>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly config: Config,
    private readonly log: DiagnosticsLog,
  ) {
    this.sub = config.onDidChange((e) => {
      if (!e.affectsConfiguration('apiWorkbench.history')) return;
      if (!this.list) return;
      this.list.applyLimits(this.limits());
      this.changedNow();
    });
  }

  limits(): HistoryLimits {
    return {
      maxEntries: this.config.get('history.maxEntries'),
      keepResponses: this.config.get('history.keepResponses'),
      maxBodyBytes: DEFAULT_HISTORY_LIMITS.maxBodyBytes,
    };
  }

  /** Adds an entry (already redacted). Synchronous for the caller; the file is written shortly after. */
  record(entry: HistoryEntry, sent?: OutgoingRequest): void {
    this.latest = entry;
    if (sent) this.entryOfRequest.set(sent, entry.id);
    if (this.list) this.add(this.list, entry);
    else void this.load().then((l) => this.add(l, entry));
  }

  /**
   * Remembers that a document (an answer, a maps response) shows the result of `request`, as its
   * client's onRequest hook handed it over; the entry may be recorded later (a stream ends later).
   */
  linkDocument(uri: vscode.Uri, request: OutgoingRequest): void {
    this.documents.delete(uri.toString());
    this.documents.set(uri.toString(), request);
    for (const key of this.documents.keys()) {
      if (this.documents.size <= LINKED_DOCUMENTS) break;
      this.documents.delete(key);
    }
  }

  unlinkDocument(uri: vscode.Uri): void {
    this.documents.delete(uri.toString());
  }

  /** The entry of the request a document shows, once it is recorded (and while it is kept). */
  async entryForDocument(uri: vscode.Uri): Promise<HistoryEntry | undefined> {
    const request = this.documents.get(uri.toString());
    const id = request && this.entryOfRequest.get(request);
    if (id === undefined) return undefined;
    return this.latest?.id === id ? this.latest : this.get(id);
  }

  /** The last entry recorded in this window (before it is even stored). */
  last(): HistoryEntry | undefined {
    return this.latest ?? this.list?.entries[0];
  }

  async entries(): Promise<readonly HistoryEntry[]> {
    return (await this.load()).entries;
  }

  async get(id: string): Promise<HistoryEntry | undefined> {
    return (await this.load()).get(id);
  }

  async clear(): Promise<void> {
    (await this.load()).clear();
    this.latest = undefined;
    this.changedNow();
  }

  /** Resolves once what is recorded so far is on disk (tests; deactivation). */
  async flush(): Promise<void> {
    await this.load();
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.write();
    }
    await this.writing;
  }

  /** The file entries are kept in: per workspace, or per user in a window without a folder. */
  get file(): vscode.Uri {
    return vscode.Uri.joinPath(this.context.storageUri ?? this.context.globalStorageUri, FILE_NAME);
  }

  private add(list: HistoryList, entry: HistoryEntry): void {
    list.add(entry, this.limits());
    this.changedNow();
  }

  private load(): Promise<HistoryList> {
    if (this.list) return Promise.resolve(this.list);
    this.loading ??= (async () => {
      let list: HistoryList;
      try {
        const bytes = await vscode.workspace.fs.readFile(this.file);
        list = HistoryList.fromFile(JSON.parse(Buffer.from(bytes).toString('utf8')));
        list.applyLimits(this.limits());
      } catch (e) {
        if (!(e instanceof vscode.FileSystemError && e.code === 'FileNotFound'))
          this.log.warn(`Could not read the request history (${this.file.fsPath}); starting a new one.`);
        list = new HistoryList();
      }
      this.list = list;
      return list;
    })();
    return this.loading;
  }

  private changedNow(): void {
    this.changed.fire();
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.write();
    }, WRITE_DELAY_MS);
  }

  private write(): void {
    const list = this.list;
    if (!list) return;
    const text = JSON.stringify(list.toFile());
    const file = this.file;
    this.writing = this.writing.then(async () => {
      try {
        await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(file, '..'));
        await vscode.workspace.fs.writeFile(file, Buffer.from(text, 'utf8'));
      } catch (e) {
        this.log.warn(`Could not save the request history: ${errorText(e)}`);
      }
    });
  }

  dispose(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.write();
    }
    this.sub.dispose();
    this.changed.dispose();
  }
}
