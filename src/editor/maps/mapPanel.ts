import vscode from 'vscode';
import { validate } from '../../core/validate';
import { mapToHostSchema, type MapToHost, type ShowMessage } from '../../services/maps/mapMessages';
import type { DiagnosticsLog } from '../log';
import { mapHtml } from '../../features/maps/mapHtml';

/** What the webview reported after drawing: the in-editor tests and the log read it. */
export interface MapRendered {
  markers: number;
  lines: number;
  bounds: [[number, number], [number, number]] | null;
  /** What the map shows after fitting (updated when a resize fits it again). */
  view?: [[number, number], [number, number]];
  /** How the tiles fared so far (undefined: none requested yet, or tiles off). */
  tiles?: 'loaded' | 'failed';
  /** Whether the offline basemap is under the geometry (drawn when tiles are unavailable). */
  basemap?: 'drawn' | 'failed';
}

const RENDER_TIMEOUT_MS = 15_000;

/**
 * The one map webview panel: Leaflet with markers and route lines. Opened beside the editor on
 * demand, kept alive while hidden, re-created if the user closed it.
 */
export class MapPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private pending: ShowMessage | undefined;
  private waiting: Array<{ seq: number; resolve: (r: MapRendered) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }> = [];
  /** The number of the latest draw asked for (ShowMessage.seq). */
  private seq = 0;
  private tiles: MapRendered['tiles'];
  private basemap: MapRendered['basemap'];
  private last: MapRendered | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: DiagnosticsLog,
  ) {}

  get lastRendered(): MapRendered | undefined {
    return this.last && { ...this.last, tiles: this.tiles, basemap: this.basemap };
  }

  /** Shows `view` on the map and resolves once the webview has drawn it. */
  show(view: ShowMessage): Promise<MapRendered> {
    const panel = this.ensurePanel();
    panel.reveal(vscode.ViewColumn.Beside, true);
    const seq = ++this.seq;
    this.pending = { ...view, seq };
    const rendered = new Promise<MapRendered>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = this.waiting.filter((w) => w.timer !== timer);
        reject(new Error('The map did not finish drawing within 15 s (see the API Workbench log).'));
      }, RENDER_TIMEOUT_MS);
      this.waiting.push({ seq, resolve, reject, timer });
    });
    this.flush();
    return rendered;
  }

  private flush(): void {
    if (this.ready && this.pending && this.panel) {
      void this.panel.webview.postMessage(this.pending);
      this.pending = undefined;
    }
  }

  private ensurePanel(): vscode.WebviewPanel {
    if (this.panel) return this.panel;
    const media = vscode.Uri.joinPath(this.extensionUri, 'media', 'map');
    const scripts = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    const panel = vscode.window.createWebviewPanel(
      'apiWorkbench.map',
      'Map',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      {
        enableScripts: true,
        retainContextWhenHidden: true,
        localResourceRoots: [media, scripts],
      },
    );
    panel.webview.html = this.html(panel.webview, media, scripts);
    panel.webview.onDidReceiveMessage((m: unknown) => this.onMessage(m));
    panel.onDidDispose(() => {
      this.panel = undefined;
      this.ready = false;
      this.tiles = undefined;
      this.basemap = undefined;
      for (const w of this.waiting.splice(0)) {
        clearTimeout(w.timer);
        w.reject(new Error('The map was closed.'));
      }
    });
    this.panel = panel;
    return panel;
  }

  private onMessage(raw: unknown): void {
    const v = validate(mapToHostSchema(), raw);
    if (!v.ok) {
      this.log.warn(`Map view sent an unexpected message (${v.problem}); ignored.`);
      return;
    }
    const m: MapToHost = v.value;
    switch (m.type) {
      case 'ready':
        this.ready = true;
        this.flush();
        return;
      case 'rendered': {
        this.last = { markers: m.markers, lines: m.lines, bounds: m.bounds, view: m.view };
        // Two draws asked for at once (the viewer's and a command's) are each answered with their
        // own: a drawing reports its number, and answers the draws up to it (a later one replaced
        // an earlier one that was still waiting to be sent).
        const drawnSeq = m.seq;
        const answered = this.waiting.filter((w) => drawnSeq === undefined || w.seq <= drawnSeq);
        this.waiting = this.waiting.filter((w) => !answered.includes(w));
        for (const w of answered) {
          clearTimeout(w.timer);
          w.resolve({ ...this.last, tiles: this.tiles, basemap: this.basemap });
        }
        return;
      }
      case 'tiles':
        this.tiles = m.state;
        if (m.state === 'failed') this.log.info('Map tiles could not load (offline?); the map shows the offline basemap under the geometry.');
        return;
      case 'basemap':
        this.basemap = m.state;
        if (m.state === 'failed') this.log.warn(`Map view: the offline basemap did not load (${m.message ?? 'no reason given'}).`);
        return;
      case 'error':
        this.log.warn(`Map view: ${m.message}`);
    }
  }

  private html(webview: vscode.Webview, media: vscode.Uri, scripts: vscode.Uri): string {
    const uri = (base: vscode.Uri, f: string) => webview.asWebviewUri(vscode.Uri.joinPath(base, f)).toString();
    return mapHtml({
      cspSource: webview.cspSource,
      leafletCss: uri(media, 'vendor/leaflet.css'),
      mapCss: uri(media, 'map.css'),
      script: uri(scripts, 'map.js'),
    }).html;
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
