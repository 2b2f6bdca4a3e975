// The LLM webview pages (features/llm/compareHtml.ts, playgroundHtml.ts) and the frame they share
// (features/webviewPage.ts): a policy that lets only the page's nonced script run and loads nothing
// remote, and text from connections and models (the playground's title) that stays text. Checked
// on the strings, then in headless Chromium with the real page bundles.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { compareHtml } from '../../../src/features/llm/compareHtml';
import { playgroundHtml } from '../../../src/features/llm/playgroundHtml';
import { escapeHtml, newNonce, webviewPage } from '../../../src/features/webviewPage';
import { repoRoot } from '../helpers/sandboxProcess';

const CHROMIUM = '/usr/bin/chromium';
const PAGE_TIMEOUT_MS = 15_000;
const WEBVIEW = 'https://file+.vscode-resource.vscode-cdn.net';
/** What a connection or model name could hold: markup, quotes, an ampersand. */
const HOSTILE = `</title><script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> "dq" 'sq' & <b>`;

function directives(csp: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of csp.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out.set(name, sources);
  }
  return out;
}

function policyOf(html: string): string {
  const m = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  assert.ok(m, 'the page carries its policy');
  return m[1];
}

/** The policy allows nothing by default, scripts only by `nonce`, nothing unsafe, no origin but `allowed`. */
function assertLockedDown(html: string, nonce: string, allowed: readonly string[]): void {
  const d = directives(policyOf(html));
  assert.deepEqual(d.get('default-src'), ["'none'"]);
  assert.deepEqual(d.get('script-src'), [`'nonce-${nonce}'`], 'scripts: the nonce and nothing else');
  for (const widen of ['script-src-elem', 'script-src-attr', 'worker-src', 'connect-src', 'frame-src', 'child-src', 'object-src'])
    assert.ok(!d.has(widen), `no ${widen}`);
  for (const [name, sources] of d) {
    for (const s of sources) {
      const ok = s === "'none'" || s === `'nonce-${nonce}'` || s === 'data:' || allowed.includes(s);
      assert.ok(ok, `${name} allows ${s}`);
    }
  }
  const scripts = html.match(/<script\b[^>]*>/g) ?? [];
  assert.equal(scripts.length, 1, 'one script: the page bundle');
  assert.ok(scripts[0].includes(` nonce="${nonce}"`));
  for (const s of html.match(/<style\b[^>]*>/g) ?? []) assert.ok(s.includes(` nonce="${nonce}"`), `${s} has no nonce`);
  assert.ok(!/\son[a-z]+\s*=/i.test(html), 'no inline event handlers');
}

describe('features: webview pages (Compare, Playground) and their policy', function () {
  this.timeout(60_000);

  it('Compare: scripts and styles only by the nonce, nothing else loaded; a new 128-bit nonce for every page', () => {
    const page = compareHtml(`${WEBVIEW}/dist/webview/compare.js`);
    assertLockedDown(page.html, page.nonce, []);
    assert.deepEqual(directives(page.csp).get('style-src'), [`'nonce-${page.nonce}'`]);
    assert.equal(policyOf(page.html), page.csp);
    assert.ok(Buffer.from(page.nonce, 'base64').length >= 16);
    assert.notEqual(compareHtml('x.js').nonce, page.nonce);
    assert.ok(page.html.includes(`<script nonce="${page.nonce}" src="${WEBVIEW}/dist/webview/compare.js"></script>`));
  });

  it("Playground: the nonced script, the webview's own origin for styles, fonts and images, nothing remote", () => {
    const nonce = newNonce();
    const html = playgroundHtml(
      { cspSource: WEBVIEW, css: `${WEBVIEW}/media/playground/playground.css`, script: `${WEBVIEW}/dist/webview/playground.js` },
      'Playground: sandbox-chat (Local Sandbox)',
      nonce,
    );
    assertLockedDown(html, nonce, [WEBVIEW]);
    const origins = new Set((html.match(/\bhttps?:\/\/[^\s"'<>;]+/g) ?? []).map((u) => new URL(u).origin));
    assert.deepEqual([...origins], [WEBVIEW], 'every URL in the page is the webview resource origin');
  });

  it('the title (connection and model names) is text: markup and quotes are escaped', () => {
    const title = `Playground: ${HOSTILE} (Local Sandbox)`;
    const html = playgroundHtml({ cspSource: WEBVIEW, css: 'p.css', script: 'p.js' }, title, 'n0nce');
    assert.ok(html.includes(`<title>${escapeHtml(title)}</title>`));
    assert.ok(!html.includes('<script>window.__pwned'), 'no second script');
    assert.ok(!html.includes('</title><script>'));
    assert.equal(escapeHtml(`<a href="x" title='y'>&amp;</a>`), '&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;amp;&#60;/a&#62;');
    assert.equal(webviewPage({ csp: [], title: HOSTILE, body: '' }).html.match(/<script/g), null);
  });

  describe('in headless Chromium, with the real page bundles', () => {
    let browser: Browser | undefined;
    let server: http.Server | undefined;
    let origin = '';
    let html = '';

    before(async function () {
      if (!existsSync(CHROMIUM)) {
        console.warn(`      skipped: ${CHROMIUM} is missing (install Debian's chromium: bash scripts/setup.sh)`);
        this.skip();
      }
      const root = repoRoot();
      for (const f of ['dist/webview/compare.js', 'dist/webview/playground.js'])
        assert.ok(existsSync(path.join(root, f)), `${f} is missing: run \`node esbuild.mjs\` first`);
      const types: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css' };
      server = http.createServer((req, res) => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        if (url.pathname === '/') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
        const file = path.join(root, url.pathname);
        if (/^\/(dist\/webview|media\/playground)\/[\w.-]+$/.test(url.pathname) && existsSync(file)) {
          return void res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
        }
        res.writeHead(404).end();
      });
      await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    });

    after(async () => {
      await browser?.close();
      await new Promise((r) => (server ? server.close(r) : r(undefined)));
    });

    interface Probe {
      posted: { type: string }[];
      violations: { directive: string; blockedURI: string }[];
      pwned: unknown;
      inline: unknown;
      title: string;
      scripts: number;
      bodyDisplay: string;
    }

    /**
     * Loads `page` with a nonced probe right after <body> (it stands in for the webview's
     * acquireVsCodeApi and records CSP violations) and an inline script without the nonce; returns
     * once the page's own bundle said it is ready.
     */
    async function load(page: string, nonce: string): Promise<Probe> {
      const probe = `<script nonce="${nonce}">
window.__violations = []; window.__posted = [];
document.addEventListener('securitypolicyviolation', (e) => window.__violations.push({ directive: e.effectiveDirective, blockedURI: e.blockedURI }));
window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m), setState: () => {}, getState: () => undefined });
</script>
<script>window.__inline = 1</script>`;
      assert.equal(page.split('<body>').length, 2);
      html = page.replace('<body>', `<body>\n${probe}`);
      const tab = await browser!.newPage();
      const errors: string[] = [];
      tab.on('pageerror', (e) => errors.push(e.message));
      try {
        await tab.goto(`${origin}/`, { waitUntil: 'load', timeout: PAGE_TIMEOUT_MS });
        await tab.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'ready'), undefined, {
          timeout: PAGE_TIMEOUT_MS,
        });
        await tab.waitForFunction(() => (window as unknown as { __violations: unknown[] }).__violations.length >= 1, undefined, { timeout: PAGE_TIMEOUT_MS });
        assert.deepEqual(errors, [], 'no script errors on the page');
        return await tab.evaluate(() => {
          const w = window as unknown as Record<string, unknown>;
          return {
            posted: w.__posted,
            violations: w.__violations,
            pwned: w.__pwned,
            inline: w.__inline,
            title: document.title,
            scripts: document.scripts.length,
            bodyDisplay: getComputedStyle(document.body).display,
          } as Probe;
        });
      } finally {
        await tab.close();
      }
    }

    it("Compare: its bundle runs and its nonced stylesheet applies; a script without the nonce is blocked, and nothing of the page's own is", async () => {
      const page = compareHtml(`${origin}/dist/webview/compare.js`);
      const p = await load(page.html, page.nonce);
      assert.deepEqual(p.posted[0], { type: 'ready' }, 'the page bundle ran under the policy');
      assert.equal(p.bodyDisplay, 'flex', 'the inline stylesheet with the nonce applied');
      assert.equal(p.inline, undefined, 'the script without the nonce did not run');
      assert.deepEqual(p.violations, [{ directive: 'script-src-elem', blockedURI: 'inline' }], 'the only thing blocked is the injected script');
    });

    it('Playground: a connection or model name full of markup is the title, as text; nothing in it runs', async () => {
      const nonce = newNonce();
      const title = `Playground: ${HOSTILE} (Local Sandbox)`;
      const page = playgroundHtml(
        { cspSource: origin, css: `${origin}/media/playground/playground.css`, script: `${origin}/dist/webview/playground.js` },
        title,
        nonce,
      );
      const p = await load(page, nonce);
      assert.deepEqual(p.posted[0], { type: 'ready' });
      assert.equal(p.title, title);
      assert.equal(p.pwned, undefined);
      assert.equal(p.scripts, 3, 'the probe, the blocked inline script and the bundle: none from the title');
      assert.deepEqual(p.violations, [{ directive: 'script-src-elem', blockedURI: 'inline' }], 'the stylesheet and bundle load under the policy');
    });
  });
});
