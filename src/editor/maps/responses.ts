import * as vscode from 'vscode';
import type { Redactor } from '../../core/redact';
import { responseDocumentText } from './responseText';

export const RESPONSE_SCHEME = 'api-workbench-maps';
/** Responses kept for reopening; older documents show a short note instead. */
const MAX_KEPT = 30;

/**
 * Maps responses as read-only JSON documents (`api-workbench-maps:/<n>-<operation>.json`): they
 * open like files, format and fold as JSON, and close without a "save changes?" prompt.
 */
export class ResponseDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly docs = new Map<string, string>();
  private counter = 0;
  private readonly registration: vscode.Disposable;

  constructor(private readonly redactor: Redactor) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(RESPONSE_SCHEME, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.path) ?? '// This response is no longer kept: run the command again.\n';
  }

  async open(operation: string, data: unknown): Promise<vscode.TextEditor> {
    const path = `/${++this.counter}-${operation}.json`;
    this.docs.set(path, responseDocumentText(data, (t) => this.redactor.text(t)));
    if (this.docs.size > MAX_KEPT) this.docs.delete(this.docs.keys().next().value as string);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: RESPONSE_SCHEME, path }));
    if (doc.languageId !== 'json') await vscode.languages.setTextDocumentLanguage(doc, 'json');
    return vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preview: true });
  }

  dispose(): void {
    this.registration.dispose();
    this.docs.clear();
  }
}
