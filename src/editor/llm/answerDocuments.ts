import * as vscode from 'vscode';

export const ANSWER_SCHEME = 'api-workbench-answer';
/** Streamed text reaches the editor at most this often: smooth to watch, cheap to render. */
const RENDER_INTERVAL_MS = 50;
// Bounded so a stuck editor never holds the progress notification, long enough for a busy machine.
const FINAL_RENDER_TIMEOUT_MS = 8_000;

/**
 * Answers are read-only Markdown documents of their own scheme: they stream in without the user
 * typing into them by accident, close without a "save changes?" prompt, and can still be copied
 * or saved with Save As.
 */
export class AnswerDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly subs: vscode.Disposable[];
  /** Answers still streaming: their text is kept even if the editor is closed meanwhile. */
  private readonly live = new Set<string>();
  private counter = 0;

  constructor() {
    this.subs = [
      vscode.workspace.registerTextDocumentContentProvider(ANSWER_SCHEME, this),
      // A closed answer is gone for good (the user can Save As first): free its text.
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (d.uri.scheme === ANSWER_SCHEME && !this.live.has(d.uri.toString())) this.texts.delete(d.uri.toString());
      }),
    ];
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  /** Opens a new answer beside the current editor, starting with `text`. */
  async open(title: string, text: string): Promise<AnswerWriter> {
    const name = `${++this.counter} ${title}`.replace(/[^\w.\- ]+/g, '-');
    const uri = vscode.Uri.from({ scheme: ANSWER_SCHEME, path: `/Answer ${name}.md` });
    this.texts.set(uri.toString(), text);
    this.live.add(uri.toString());
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { viewColumn: this.answerColumn(), preview: false, preserveFocus: true });
    return new AnswerWriter(this, uri, doc);
  }

  /**
   * Answers gather in one editor group: the one showing an answer already, else beside the editor
   * the user works in. With no editor open, the answer opens where the user is: a split then would
   * leave an empty group behind.
   */
  private answerColumn(): vscode.ViewColumn {
    const shown = vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === ANSWER_SCHEME)?.viewColumn;
    if (shown !== undefined) return shown;
    return vscode.window.activeTextEditor ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
  }

  /** @internal for AnswerWriter */
  setText(uri: vscode.Uri, text: string): void {
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  /** @internal for AnswerWriter */
  release(uri: vscode.Uri, doc: vscode.TextDocument): void {
    this.live.delete(uri.toString());
    if (doc.isClosed) this.texts.delete(uri.toString());
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.changed.dispose();
    this.texts.clear();
  }
}

/** Appends to one answer document; renders are coalesced so thousands of deltas stay cheap. */
export class AnswerWriter {
  private text: string;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly docs: AnswerDocuments,
    readonly uri: vscode.Uri,
    readonly document: vscode.TextDocument,
  ) {
    this.text = docs.provideTextDocumentContent(uri);
  }

  get content(): string {
    return this.text;
  }

  append(text: string): void {
    if (!text) return;
    this.text += text;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.docs.setText(this.uri, this.text);
    }, RENDER_INTERVAL_MS);
  }

  /** Renders the final text and waits (bounded) until the open document shows it. */
  async finish(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const shown = this.document.isClosed || this.document.getText() === this.text ? Promise.resolve() : this.waitForText(this.text);
    this.docs.setText(this.uri, this.text);
    await shown;
    this.docs.release(this.uri, this.document);
  }

  private waitForText(text: string): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sub.dispose();
        resolve();
      };
      const sub = vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.toString() === this.uri.toString() && e.document.getText() === text) done();
      });
      const timer = setTimeout(done, FINAL_RENDER_TIMEOUT_MS);
    });
  }
}
