import * as vscode from 'vscode';
import { newNonce } from './mapHtml';
import { matrixHtml, type MatrixRow } from './matrixTable';

/** The route matrix table, in one webview panel reused by each matrix (no scripts in it). */
export class MatrixPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;

  show(title: string, subtitle: string, rows: readonly MatrixRow[]): void {
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel('apiWorkbench.routeMatrix', 'Route Matrix', { viewColumn: vscode.ViewColumn.One, preserveFocus: false }, { enableScripts: false, localResourceRoots: [] });
      this.panel.onDidDispose(() => (this.panel = undefined));
    }
    this.panel.title = `Route Matrix: ${rows.length} pair${rows.length === 1 ? '' : 's'}`;
    this.panel.webview.html = matrixHtml(title, subtitle, rows, newNonce());
    this.panel.reveal(vscode.ViewColumn.One, false);
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
