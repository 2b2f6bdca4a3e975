// The Compare webview's page and its Content-Security-Policy. Free of `vscode` imports (the panel
// passes the script URI in). The stylesheet is inline under the page's nonce: the page loads
// nothing but its own script, and colours come from the editor theme's CSS variables.
import { newNonce, webviewPage } from '../webviewPage';

export interface CompareHtml {
  html: string;
  csp: string;
  nonce: string;
}

const STYLE = `
html, body { margin: 0; padding: 0; height: 100%; }
body { display: flex; flex-direction: column; gap: 8px; padding: 10px 14px; box-sizing: border-box;
  color: var(--vscode-foreground); background: var(--vscode-editor-background);
  font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
.bar { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; }
.bar .title { font-weight: 600; }
.muted { color: var(--vscode-descriptionForeground); }
#models { display: flex; flex-wrap: wrap; gap: 4px 14px; max-height: 7.5em; overflow: auto; padding: 6px 8px;
  border: 1px solid var(--vscode-panel-border, var(--vscode-widget-border, transparent)); border-radius: 2px; }
.model { display: inline-flex; align-items: center; gap: 4px; white-space: nowrap; cursor: pointer; }
.model input { accent-color: var(--vscode-checkbox-background); margin: 0; }
textarea { width: 100%; box-sizing: border-box; min-height: 4.5em; resize: vertical; padding: 6px;
  font-family: var(--vscode-font-family); font-size: var(--vscode-font-size);
  color: var(--vscode-input-foreground); background: var(--vscode-input-background);
  border: 1px solid var(--vscode-input-border, transparent); border-radius: 2px; }
textarea:focus { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
button { padding: 4px 12px; border: 1px solid var(--vscode-button-border, transparent); border-radius: 2px; cursor: pointer;
  color: var(--vscode-button-foreground); background: var(--vscode-button-background); font-family: inherit; font-size: inherit; }
button:hover:not(:disabled) { background: var(--vscode-button-hoverBackground); }
button.secondary { color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); }
button.secondary:hover:not(:disabled) { background: var(--vscode-button-secondaryHoverBackground); }
button:disabled { opacity: 0.5; cursor: default; }
#notice:empty { display: none; }
#notice { padding: 6px 8px; border-left: 3px solid var(--vscode-editorWarning-foreground);
  background: var(--vscode-textBlockQuote-background); }
#columns { flex: 1; min-height: 0; display: grid; grid-template-columns: repeat(var(--columns, 2), minmax(0, 1fr)); gap: 10px; }
.column { display: flex; flex-direction: column; min-height: 0; border: 1px solid var(--vscode-panel-border, var(--vscode-widget-border, transparent));
  border-radius: 3px; background: var(--vscode-sideBar-background, transparent); }
.column header { display: flex; justify-content: space-between; align-items: baseline; gap: 8px; padding: 6px 10px;
  border-bottom: 1px solid var(--vscode-panel-border, transparent); }
.column h2 { margin: 0; font-size: 1em; font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.status { font-size: 0.9em; padding: 0 6px; border-radius: 8px; white-space: nowrap;
  color: var(--vscode-badge-foreground); background: var(--vscode-badge-background); }
.column[data-state=failed] .status { color: var(--vscode-errorForeground); background: transparent; border: 1px solid var(--vscode-errorForeground); }
.answer { flex: 1; overflow: auto; padding: 8px 10px; white-space: pre-wrap; overflow-wrap: anywhere; line-height: 1.45;
  font-family: var(--vscode-editor-font-family, var(--vscode-font-family)); }
.footer { padding: 6px 10px; font-size: 0.92em; color: var(--vscode-descriptionForeground);
  border-top: 1px solid var(--vscode-panel-border, transparent); }
.footer:empty { display: none; }
.footer.error, .error { color: var(--vscode-errorForeground); }
`;

/** The page; `script` is dist/webview/compare.js as a webview URI. */
export function compareHtml(script: string, nonce: string = newNonce()): CompareHtml {
  const { html, csp } = webviewPage({
    csp: [`style-src 'nonce-${nonce}'`, `script-src 'nonce-${nonce}'`],
    title: 'Compare Models',
    head: `<style nonce="${nonce}">${STYLE}</style>`,
    body: `<div class="bar"><span class="title">Compare models</span><span class="muted" id="connection"></span><span class="muted" id="pick-hint"></span>
<button id="refresh" class="secondary" title="List the connection's models again (GET /models)">Refresh models</button></div>
<div id="models" role="group" aria-label="Models to compare"></div>
<textarea id="prompt" placeholder="One prompt for every model (Ctrl+Enter to run)" aria-label="Prompt"></textarea>
<div class="bar"><button id="run">Run</button><button id="stop" class="secondary">Stop</button>
<span class="muted">Each model answers in its own column; one failing does not stop the others.</span></div>
<div id="notice" role="status"></div>
<div id="columns"></div>
<script nonce="${nonce}" src="${script}"></script>`,
  });
  return { html, csp, nonce };
}
