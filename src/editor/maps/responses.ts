import vscode from 'vscode';
import type { Redactor } from '../../core/redact';
import type { ResultPayload } from '../../webview/result/protocol';
import { responsePayload, type ResponseMeta } from '../../features/maps/responsePayload';
import { responseDocumentText } from '../../features/maps/responseText';

export const RESPONSE_SCHEME = 'api-workbench-maps';
/** Responses kept for reopening; older documents show a short note instead. */
const MAX_KEPT = 30;

/**
 * Maps responses as read-only JSON documents (`api-workbench-maps:/<n>-<operation>.json`): they
 * open like files, format and fold as JSON, and close without a "save changes?" prompt.
 */
export class ResponseDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly docs = new Map<string, string>();
  /** The answer and its status, time and request of each kept document, for the response viewer. */
  private readonly answers = new Map<string, { operation: string; data: unknown; meta: ResponseMeta }>();
  private counter = 0;
  /** The newest kept response (for "Open in Response Viewer" with no response document active). */
  latest: vscode.Uri | undefined;
  private readonly registration: vscode.Disposable;

  constructor(private readonly redactor: Redactor) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(RESPONSE_SCHEME, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.path) ?? '// This response is no longer kept: run the command again.\n';
  }

  /** Keeps a response as a document (not opened: see showDocument) and returns its URI. */
  keep(operation: string, data: unknown, meta?: ResponseMeta): vscode.Uri {
    const path = `/${++this.counter}-${operation}.json`;
    this.docs.set(
      path,
      responseDocumentText(data, (t) => this.redactor.text(t)),
    );
    if (meta) this.answers.set(path, { operation, data, meta });
    if (this.docs.size > MAX_KEPT) {
      const oldest = this.docs.keys().next().value as string;
      this.docs.delete(oldest);
      this.answers.delete(oldest);
    }
    this.latest = vscode.Uri.from({ scheme: RESPONSE_SCHEME, path });
    return this.latest;
  }

  /** The raw JSON document of a kept response, in the editor (where Copy as cURL and Save as Notebook Cell are). */
  async showDocument(uri: vscode.Uri): Promise<vscode.TextEditor> {
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'json') await vscode.languages.setTextDocumentLanguage(doc, 'json');
    return vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preview: true });
  }

  /** The response viewer's payload of a kept response document (undefined: not kept, or not a maps response). */
  payload(uri: vscode.Uri): ResultPayload | undefined {
    const a = uri.scheme === RESPONSE_SCHEME ? this.answers.get(uri.path) : undefined;
    return a && responsePayload(uri.toString(), a.operation, a.data, a.meta, (t) => this.redactor.text(t));
  }

  dispose(): void {
    this.registration.dispose();
    this.docs.clear();
    this.answers.clear();
  }
}
