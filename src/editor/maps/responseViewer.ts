import vscode from 'vscode';
import { validate } from '../../core/validate';
import { rendererMessageSchema, type HostMessage, type RendererMessage, type ResultPayload } from '../../webview/result/protocol';
import type { DiagnosticsLog } from '../log';
import { viewerHtml } from '../../features/maps/responseViewerHtml';

/**
 * The response viewer of API notebooks, in a webview panel of its own for maps commands: the very
 * renderer the notebook loads (dist/webview/resultRenderer.js, an ES module) is imported by a small
 * nonced module script and given the payload, so status, time, body tree and map look the same.
 */
export class ResponseViewer implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  /** What the viewer reported (newest last; for tests and diagnostics). */
  readonly rendered: Array<Extract<RendererMessage, { type: 'rendered' }>> = [];
  /** The response on show (for tests and diagnostics). */
  shown: ResultPayload | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: DiagnosticsLog,
    /** "Open Raw JSON Document" (and "Open Whole Body"): the response document of this result. */
    private readonly openBody: (resultId: string) => Thenable<unknown>,
  ) {}

  show(payload: ResultPayload): void {
    const scripts = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    if (!this.panel) {
      // Column One, where response documents open: the map panel is beside it.
      this.panel = vscode.window.createWebviewPanel(
        'apiWorkbench.mapsResponse',
        'Response',
        { viewColumn: vscode.ViewColumn.One, preserveFocus: false },
        {
          enableScripts: true,
          retainContextWhenHidden: true,
          localResourceRoots: [scripts],
        },
      );
      this.panel.onDidDispose(() => (this.panel = undefined));
      this.panel.webview.onDidReceiveMessage((m: unknown) => this.onMessage(m));
    }
    this.shown = payload;
    this.panel.title = `Response · ${payload.name ?? 'maps'}`;
    const webview = this.panel.webview;
    webview.html = viewerHtml(webview.cspSource, webview.asWebviewUri(vscode.Uri.joinPath(scripts, 'resultRenderer.js')).toString(), payload);
    this.panel.reveal(vscode.ViewColumn.One, false);
  }

  /** Switches the shown response to a tab ('body', 'map', …), as the notebook's viewer does. */
  selectTab(tab: string): Thenable<boolean> {
    return this.panel?.webview.postMessage({ type: 'selectTab', tab } satisfies HostMessage) ?? Promise.resolve(false);
  }

  private onMessage(raw: unknown): void {
    const v = validate(rendererMessageSchema, raw);
    if (!v.ok) {
      this.log.warn(`Response viewer: ignored a malformed message (${v.problem})`);
      return;
    }
    const m = v.value;
    if (m.type === 'openBody') void this.openBody(m.resultId);
    else if (m.type === 'showOnMap')
      void vscode.commands.executeCommand('apiWorkbench.maps.showGeometry', { title: m.title, markers: m.markers, lines: m.lines });
    else {
      this.rendered.push(m);
      if (this.rendered.length > 200) this.rendered.splice(0, 100);
    }
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
