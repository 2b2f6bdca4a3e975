// The playground webview's page and its Content-Security-Policy: only the nonced bundle runs, styles
// come from the extension's media folder. No vscode import (the panel passes the webview URIs).
import { newNonce, webviewPage } from '../webviewPage';

export interface PlaygroundAssets {
  cspSource: string;
  css: string;
  script: string;
}

export function playgroundHtml(assets: PlaygroundAssets, title: string, nonce = newNonce()): string {
  return webviewPage({
    csp: [`style-src ${assets.cspSource}`, `script-src 'nonce-${nonce}'`, `font-src ${assets.cspSource}`, `img-src ${assets.cspSource} data:`],
    title,
    head: `<link rel="stylesheet" href="${assets.css}">`,
    body: `<main id="chat" aria-label="Conversation">
  <div id="turns" role="log" aria-live="polite"></div>
  <div id="notice" role="status"></div>
  <form id="composer">
    <textarea id="prompt" rows="3" placeholder="Message the model (Ctrl+Enter sends)" aria-label="Your message"></textarea>
    <div class="row">
      <button type="submit" id="send">Send</button>
      <button type="button" id="stop" class="secondary" disabled>Stop</button>
      <span class="spacer"></span>
      <button type="button" id="copyCode" class="secondary" title="Copy the conversation as code in a language you pick (the key is read from an environment variable)">Copy as Code…</button>
      <button type="button" id="saveCell" class="secondary" title="Save the conversation as an llm notebook cell">Save as Notebook Cell</button>
      <button type="button" id="clear" class="secondary">Clear</button>
    </div>
  </form>
</main>
<aside id="settings" aria-label="Parameters"></aside>
<script nonce="${nonce}" src="${assets.script}"></script>`,
  }).html;
}
