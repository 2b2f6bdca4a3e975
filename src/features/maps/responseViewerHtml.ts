// The maps response viewer's page (see responseViewer.ts). Free of `vscode` imports, like mapHtml.ts,
// so a plain unit test loads this exact page, with the real renderer, in a real browser.
import { RESULT_MIME, type ResultPayload } from '../../webview/result/protocol';
import { newNonce, webviewPage } from '../webviewPage';

/**
 * The page: scripts only by nonce (the module script, and what it imports from the extension's
 * webview folder); the renderer injects its own stylesheet, hence inline styles.
 */
export function viewerHtml(cspSource: string, rendererUrl: string, payload: ResultPayload, nonce = newNonce()): string {
  // JSON inside <script type="application/json">: "<" escaped so no text can close the element.
  const data = JSON.stringify(payload).replace(/</g, '\\u003c');
  return webviewPage({
    csp: [
      `script-src 'nonce-${nonce}' ${cspSource}`,
      `style-src ${cspSource} 'unsafe-inline'`,
      `img-src ${cspSource} https: data:`,
      `connect-src ${cspSource}`,
      `font-src ${cspSource}`,
    ],
    title: 'Response',
    head: `<style nonce="${nonce}">body { padding: 8px 16px; } body .awb-panel { max-height: none; } body .awb-map { height: 60vh; }
.raw { display: flex; justify-content: flex-end; margin-bottom: 4px; }
.raw button { background: none; border: none; padding: 2px 0; color: var(--vscode-textLink-foreground); cursor: pointer; font: inherit; }
.raw button:hover { text-decoration: underline; }</style>`,
    body: `<div class="raw"><button id="raw" title="The response as a JSON document, with Copy as cURL and Save as Notebook Cell in its title bar">Open Raw JSON Document</button></div>
<div id="root"></div>
<script type="application/json" id="payload">${data}</script>
<script type="module" nonce="${nonce}">
import { activate } from ${JSON.stringify(rendererUrl)};
const vscode = acquireVsCodeApi();
const renderer = activate({
  postMessage: (m) => vscode.postMessage(m),
  onDidReceiveMessage: (listener) => {
    const onMessage = (e) => listener(e.data);
    window.addEventListener('message', onMessage);
    return { dispose: () => window.removeEventListener('message', onMessage) };
  },
});
const payload = JSON.parse(document.getElementById('payload').textContent);
document.getElementById('raw').addEventListener('click', () => vscode.postMessage({ type: 'openBody', resultId: payload.resultId }));
renderer.renderOutputItem({ id: payload.resultId, mime: ${JSON.stringify(RESULT_MIME)}, json: () => payload }, document.getElementById('root'));
</script>`,
  }).html;
}
