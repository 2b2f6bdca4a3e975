// The frame every webview page shares: its Content-Security-Policy (the one line that decides what
// a page may load and run: nothing unless a page names it), charset, viewport and title. A page
// passes only its own directives, head extras (stylesheets, nonced styles) and body. No vscode
// import: pages are built from plain strings so they can be tested without an editor.
import { randomBytes } from 'node:crypto';

/** A fresh nonce per page load: only scripts and styles carrying it run. */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

/** Text made safe inside HTML elements and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface WebviewPage {
  /** Directives beside `default-src 'none'`, e.g. `script-src 'nonce-…'`. */
  csp: readonly string[];
  title: string;
  /** Stylesheet links and nonced styles. */
  head?: string;
  body: string;
}

export function webviewPage(page: WebviewPage): { html: string; csp: string } {
  const csp = ["default-src 'none'", ...page.csp].join('; ');
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${page.head ?? ''}
<title>${escapeHtml(page.title)}</title>
</head>
<body>
${page.body}
</body>
</html>`;
  return { html, csp };
}
