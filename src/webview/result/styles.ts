// The response viewer's stylesheet (theme colours from the notebook webview's --vscode-* variables).
export const VIEWER_CSS = `
.awb-result { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); }
.awb-head { display: flex; flex-wrap: wrap; gap: .4em 1.2em; align-items: baseline; padding: 4px 0; }
.awb-badge { font-weight: 600; padding: 0 .5em; border-radius: 3px; color: #fff; background: var(--vscode-testing-iconPassed, #388a34); }
.awb-badge.fail { background: var(--vscode-testing-iconFailed, #c72e0f); }
.awb-badge.neutral { background: var(--vscode-badge-background, #616161); color: var(--vscode-badge-foreground, #fff); }
.awb-meta { color: var(--vscode-descriptionForeground); }
.awb-meta b { color: var(--vscode-foreground); font-weight: 600; }
.awb-request { color: var(--vscode-descriptionForeground); font-family: var(--vscode-editor-font-family); font-size: .95em; overflow-wrap: anywhere; }
.awb-error { border-left: 3px solid var(--vscode-testing-iconFailed, #c72e0f); padding: 4px 8px; margin: 6px 0; white-space: pre-wrap; font-family: var(--vscode-editor-font-family); }
.awb-asserts { margin: 6px 0; }
.awb-log { font-family: var(--vscode-editor-font-family); white-space: pre-wrap; margin: 2px 0 6px; max-height: 16em; overflow: auto; }
.awb-assert { font-family: var(--vscode-editor-font-family); padding: 1px 0; }
.awb-assert .mark { display: inline-block; width: 1.4em; font-weight: 700; }
.awb-assert.pass .mark { color: var(--vscode-testing-iconPassed, #388a34); }
.awb-assert.fail .mark { color: var(--vscode-testing-iconFailed, #c72e0f); }
.awb-assert .detail { margin-left: 1.4em; color: var(--vscode-descriptionForeground); }
.awb-tabs { display: flex; gap: 2px; border-bottom: 1px solid var(--vscode-panel-border, #8884); margin-top: 6px; }
.awb-tab { background: none; border: none; border-bottom: 2px solid transparent; color: var(--vscode-foreground); padding: 4px 10px; cursor: pointer; font: inherit; opacity: .75; }
.awb-tab[aria-selected="true"] { border-bottom-color: var(--vscode-focusBorder, #007fd4); opacity: 1; }
.awb-panel { padding: 6px 0; max-height: 480px; overflow: auto; }
.awb-banner { background: var(--vscode-inputValidation-infoBackground, #063b4966); padding: 4px 8px; margin: 4px 0; }
.awb-banner button, .awb-link { background: var(--vscode-button-background); color: var(--vscode-button-foreground); border: none; padding: 2px 8px; margin-left: .6em; cursor: pointer; font: inherit; }
.awb-answer { white-space: pre-wrap; font-family: var(--vscode-font-family); line-height: 1.45; margin: 4px 0; }
.awb-answer.running::after { content: '▍'; opacity: .6; }
.awb-table { border-collapse: collapse; font-family: var(--vscode-editor-font-family); }
.awb-table td { padding: 1px 12px 1px 0; vertical-align: top; text-align: left; overflow-wrap: anywhere; }
.awb-table td:first-child { color: var(--vscode-symbolIcon-propertyForeground, #75beff); white-space: nowrap; }
.awb-map { height: 360px; background: #dfe6e9; }
.awb-map-bar { display: flex; justify-content: flex-end; margin-bottom: 4px; }
.awb-map.no-tiles { background-color: #d6e4ec; }
.search-bar { display: flex; gap: 8px; align-items: center; margin-bottom: 4px; }
.search { background: var(--vscode-input-background); color: var(--vscode-input-foreground); border: 1px solid var(--vscode-input-border, #8886); padding: 2px 6px; width: 18em; font: inherit; }
.search-info { color: var(--vscode-descriptionForeground); }
.body-content { padding-left: 1em; }
.body-content, .body-text { font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size, 12px); }
.body-text { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.json-children { padding-left: 1.2em; border-left: 1px solid #8883; margin-left: .3em; }
.json-node > summary { cursor: pointer; list-style-position: outside; }
.json-key { color: var(--vscode-debugTokenExpression-name, #9cdcfe); }
.json-string { color: var(--vscode-debugTokenExpression-string, #ce9178); overflow-wrap: anywhere; }
.json-number { color: var(--vscode-debugTokenExpression-number, #b5cea8); }
.json-boolean, .json-null { color: var(--vscode-debugTokenExpression-boolean, #4e94ce); }
.json-count, .json-more { color: var(--vscode-descriptionForeground); }
.match-row { font-family: var(--vscode-editor-font-family); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.match-line { display: inline-block; min-width: 4em; color: var(--vscode-descriptionForeground); }
mark { background: var(--vscode-editor-findMatchHighlightBackground, #ea5c0055); color: inherit; }
`;
