import vscode from 'vscode';
import type { RecordedRequest, RequestHistory } from '../curl';

export const ANSWER_SCHEME = 'api-workbench-answer';
/** The one Answers document: every Ask in this window lands in it, oldest first. */
export const ANSWERS_URI = vscode.Uri.from({ scheme: ANSWER_SCHEME, path: '/LLM Answers.md' });
/** Answers kept in the document; older ones drop off the top (History keeps every request). */
export const KEPT_ANSWERS = 50;
/** Streamed text reaches the editor at most this often: smooth to watch, cheap to render. */
const RENDER_INTERVAL_MS = 50;
// Bounded so a stuck editor never holds the progress notification, long enough for a busy machine.
const FINAL_RENDER_TIMEOUT_MS = 8_000;

/** One answer in the document: its header, the streamed text, then its closing note. */
interface AnswerSection {
  text: string;
  /** The request behind it, once sent: Copy as cURL and Save as Notebook Cell act on it. */
  request?: RecordedRequest;
  /** Still streaming: never dropped, however many answers come after it. */
  live: boolean;
}

/**
 * All answers live in one read-only Markdown document of their own scheme, oldest first, so the
 * user finds them in one tab (its Outline lists them by their `##` headers) instead of a tab per
 * question. Read-only: answers stream in without the user typing into them by accident and close
 * without a "save changes?" prompt; Save As still works. Closing the tab keeps the answers:
 * *Show Answers* brings them back.
 *
 * The title bar's Copy as cURL and Save as Notebook Cell act on "the answer at the cursor": the
 * document's URI is linked to that answer's request whenever the cursor moves into another answer.
 */
export class AnswerDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private sections: AnswerSection[] = [];
  /** The document's text as last handed to the editor, and the first line of each section in it. */
  private rendered = '';
  private startLines: number[] = [];
  private renderTimer: ReturnType<typeof setTimeout> | undefined;
  /** The answer the title-bar commands act on: the newest, or the one the cursor was put in. */
  private current: AnswerSection | undefined;
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly subs: vscode.Disposable[];

  constructor(private readonly history?: RequestHistory) {
    this.subs = [
      vscode.workspace.registerTextDocumentContentProvider(ANSWER_SCHEME, this),
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (e.textEditor.document.uri.toString() !== ANSWERS_URI.toString()) return;
        const at = this.sectionAt(e.selections[0].active.line);
        if (at && at !== this.current) this.select(at);
      }),
    ];
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return uri.toString() === ANSWERS_URI.toString() ? this.rendered : '';
  }

  /** Adds an answer at the end of the document, starting with `header`, and shows it at the top of the view. */
  async open(header: string): Promise<AnswerWriter> {
    const section: AnswerSection = { text: header, live: true };
    this.sections.push(section);
    this.dropOldest();
    this.select(section);
    this.render();
    const doc = await vscode.workspace.openTextDocument(ANSWERS_URI);
    await this.shown(doc);
    const editor = await vscode.window.showTextDocument(doc, { viewColumn: this.answerColumn(), preview: false, preserveFocus: true });
    this.reveal(editor, section);
    return new AnswerWriter(this, section, doc);
  }

  /** Opens the Answers tab (focused) at the newest answer; false when there is none yet. */
  async show(): Promise<boolean> {
    const newest = this.sections[this.sections.length - 1];
    if (!newest) return false;
    const doc = await vscode.workspace.openTextDocument(ANSWERS_URI);
    const editor = await vscode.window.showTextDocument(doc, { viewColumn: this.answerColumn(), preview: false });
    this.reveal(editor, newest);
    return true;
  }

  /**
   * Answers gather in one editor group: the one showing them already, else beside the editor the
   * user works in. With no editor open, they open where the user is: a split then would leave an
   * empty group behind.
   */
  private answerColumn(): vscode.ViewColumn {
    const shown = vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === ANSWER_SCHEME)?.viewColumn;
    if (shown !== undefined) return shown;
    return vscode.window.activeTextEditor ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
  }

  /** Cursor on the answer's header, the header at the top of the view: the answer grows below it. */
  private reveal(editor: vscode.TextEditor, section: AnswerSection): void {
    const line = this.startLines[this.sections.indexOf(section)] ?? 0;
    editor.selection = new vscode.Selection(line, 0, line, 0);
    editor.revealRange(new vscode.Range(line, 0, line, 0), vscode.TextEditorRevealType.AtTop);
  }

  /** The oldest finished answers go once there are more than KEPT_ANSWERS. */
  private dropOldest(): void {
    let excess = this.sections.length - KEPT_ANSWERS;
    if (excess <= 0) return;
    this.sections = this.sections.filter((s) => s.live || excess-- <= 0);
  }

  private sectionAt(line: number): AnswerSection | undefined {
    let i = this.startLines.length - 1;
    while (i > 0 && this.startLines[i] > line) i--;
    return this.sections[i];
  }

  private select(section: AnswerSection): void {
    this.current = section;
    this.linkCurrent();
  }

  /** Links the document to the current answer's request, or to none (Copy as cURL then says so). */
  private linkCurrent(): void {
    if (!this.history) return;
    if (this.current?.request) this.history.link(ANSWERS_URI, this.current.request);
    else this.history.unlink(ANSWERS_URI);
  }

  /** Waits (bounded) until the open document shows the text last rendered. */
  shown(doc: vscode.TextDocument): Promise<void> {
    const target = this.rendered;
    if (doc.isClosed || doc.getText() === target) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sub.dispose();
        resolve();
      };
      const sub = vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === doc && e.document.getText() === this.rendered) done();
      });
      const timer = setTimeout(done, FINAL_RENDER_TIMEOUT_MS);
    });
  }

  /** @internal for AnswerWriter */
  scheduleRender(): void {
    this.renderTimer ??= setTimeout(() => this.render(), RENDER_INTERVAL_MS);
  }

  /** @internal for AnswerWriter */
  render(): void {
    clearTimeout(this.renderTimer);
    this.renderTimer = undefined;
    const parts: string[] = [];
    this.startLines = [];
    let line = 0;
    for (const s of this.sections) {
      this.startLines.push(line);
      // Each answer ends its last line, even mid-sentence; a blank line separates two answers.
      const text = s.text.endsWith('\n') ? s.text : `${s.text}\n`;
      parts.push(text);
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) line++;
      line++;
    }
    this.rendered = parts.join('\n');
    this.changed.fire(ANSWERS_URI);
  }

  /** @internal for AnswerWriter */
  linkRequest(section: AnswerSection, request: RecordedRequest): void {
    section.request = request;
    if (this.current === section) this.linkCurrent();
  }

  dispose(): void {
    clearTimeout(this.renderTimer);
    for (const s of this.subs) s.dispose();
    this.changed.dispose();
    this.sections = [];
  }
}

/** Appends to one answer; renders are coalesced so thousands of deltas stay cheap. */
export class AnswerWriter {
  constructor(
    private readonly docs: AnswerDocuments,
    private readonly section: AnswerSection,
    /** The Answers document (shared by every answer). */
    readonly document: vscode.TextDocument,
  ) {}

  /** This answer's text in the document: header, answer, closing note. */
  get content(): string {
    return this.section.text;
  }

  /** The request this answer comes from (for Copy as cURL and Save as Notebook Cell in the title bar). */
  linkRequest(request: RecordedRequest): void {
    this.docs.linkRequest(this.section, request);
  }

  append(text: string): void {
    if (!text) return;
    this.section.text += text;
    this.docs.scheduleRender();
  }

  /** Renders the final text and waits (bounded) until the open document shows it. */
  async finish(): Promise<void> {
    this.section.live = false;
    this.docs.render();
    await this.docs.shown(this.document);
  }
}
