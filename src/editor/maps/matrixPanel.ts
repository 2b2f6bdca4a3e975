import vscode from 'vscode';
import type { LatLngInput, TravelMode } from '../../services/maps/client';
import type { MapMarker } from '../../services/maps/mapMessages';
import { newNonce } from '../../features/webviewPage';
import { DRAW_ROUTES_COMMAND, matrixHtml, type MatrixAction, type MatrixRow } from '../../features/maps/matrixTable';

/** What the last matrix was made of, for drawing its actual routes afterwards. */
export interface ShownMatrix {
  title: string;
  rows: readonly MatrixRow[];
  origins: readonly LatLngInput[];
  destinations: readonly LatLngInput[];
  travelMode: TravelMode;
  markers: readonly MapMarker[];
}

/** The route matrix table, in one webview panel reused by each matrix (no scripts in it). */
export class MatrixPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  /** The matrix on show (undefined once its panel is closed). */
  shown: ShownMatrix | undefined;

  show(matrix: ShownMatrix, subtitle: string, action?: MatrixAction): void {
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(
        'apiWorkbench.routeMatrix',
        'Route Matrix',
        { viewColumn: vscode.ViewColumn.One, preserveFocus: false },
        {
          enableScripts: false,
          enableCommandUris: [DRAW_ROUTES_COMMAND],
          localResourceRoots: [],
        },
      );
      this.panel.onDidDispose(() => {
        this.panel = undefined;
        this.shown = undefined;
      });
    }
    this.shown = matrix;
    const n = matrix.rows.length;
    this.panel.title = `Route Matrix: ${n} pair${n === 1 ? '' : 's'}`;
    this.panel.webview.html = matrixHtml(matrix.title, subtitle, matrix.rows, newNonce(), action);
    this.panel.reveal(vscode.ViewColumn.One, false);
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
