// The map webview's Content-Security-Policy, enforced by a real browser: the exact page the panel
// builds (mapHtml), served with its real assets from 127.0.0.1 in place of the webview URIs, loaded
// in headless Debian Chromium. An injected inline script (no nonce), an inline event handler and
// eval() must not run; a script with the page's nonce must; the page's own bundled map script must
// still work under the policy; and the browser must report the violations.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { mapHtml, type MapHtml } from '../../../src/features/maps/mapHtml';
import type { MapToHost, ShowMessage } from '../../../src/services/maps/mapMessages';
import { repoRoot } from '../helpers/sandboxProcess';

const CHROMIUM = '/usr/bin/chromium';
const PAGE_TIMEOUT_MS = 15_000;

/** The directives of a policy string: name → its source list. */
function directives(csp: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of csp.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out.set(name.toLowerCase(), sources);
  }
  return out;
}

interface Violation {
  /** effectiveDirective: script-src-elem for a <script>, script-src-attr for a handler, script-src for eval. */
  directive: string;
  blockedURI: string;
}

/** What the page reports back through the window globals the injected scripts set. */
interface Probe {
  inline: unknown;
  handler: unknown;
  nonced: unknown;
  evalResult: unknown;
  posted: MapToHost[];
  violations: Violation[];
}

/**
 * Test-only markup, placed right after <body> so it runs before the page's own script: the nonced
 * script records CSP violations and stands in for the webview's acquireVsCodeApi.
 */
function probes(nonce: string): string {
  return `<script nonce="${nonce}">
window.__nonced = 1;
window.__violations = [];
window.__posted = [];
document.addEventListener('securitypolicyviolation', (e) => window.__violations.push({ directive: e.effectiveDirective, blockedURI: e.blockedURI }));
window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m), setState: () => {}, getState: () => undefined });
try { window.__eval = eval('"eval ran"'); } catch (e) { window.__eval = 'blocked: ' + e.name; }
</script>
<script>window.__inline = 1</script>
<img alt="" src="/missing.png" onerror="window.__handler = 1">
`;
}

/** Serves the page at / and the files its URIs point to, as the webview would from its resource roots. */
async function servePage(root: string): Promise<{ origin: string; page: MapHtml; close(): Promise<void> }> {
  const files: Record<string, { file: string; type: string }> = {
    '/media/map/vendor/leaflet.css': { file: path.join(root, 'media/map/vendor/leaflet.css'), type: 'text/css' },
    '/media/map/map.css': { file: path.join(root, 'media/map/map.css'), type: 'text/css' },
    '/dist/webview/map.js': { file: path.join(root, 'dist/webview/map.js'), type: 'text/javascript' },
    '/dist/webview/countries-110m.json': { file: path.join(root, 'dist/webview/countries-110m.json'), type: 'application/json' },
  };
  let html = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
      return;
    }
    const f = files[url.pathname];
    if (f && existsSync(f.file)) {
      res.writeHead(200, { 'content-type': f.type });
      res.end(readFileSync(f.file));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const page = mapHtml({
    cspSource: origin,
    leafletCss: `${origin}/media/map/vendor/leaflet.css`,
    mapCss: `${origin}/media/map/map.css`,
    script: `${origin}/dist/webview/map.js`,
  });
  assert.equal((page.html.match(/<body>/g) ?? []).length, 1, 'the page has one <body> to inject after');
  html = page.html.replace('<body>', `<body>\n${probes(page.nonce)}`);
  return { origin, page, close: () => new Promise((r) => server.close(() => r())) };
}

describe('maps webview CSP (headless Chromium)', function () {
  this.timeout(60_000);
  let browser: Browser | undefined;

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      console.warn(`      skipped: ${CHROMIUM} is missing (install Debian's chromium: bash scripts/setup.sh)`);
      this.skip();
    }
    assert.ok(existsSync(path.join(repoRoot(), 'dist/webview/map.js')), 'dist/webview/map.js is missing: run `node esbuild.mjs` first');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  });

  after(async () => {
    await browser?.close();
  });

  it('the policy: default-src none, scripts only by nonce (no unsafe-inline/unsafe-eval), nothing remote but https images', () => {
    const { csp, nonce, html } = mapHtml({ cspSource: 'https://webview.example', leafletCss: 'a.css', mapCss: 'b.css', script: 'c.js' });
    const d = directives(csp);
    assert.deepEqual(d.get('default-src'), ["'none'"]);
    assert.deepEqual(d.get('script-src'), [`'nonce-${nonce}'`], 'scripts: the nonce and nothing else');
    for (const [name, sources] of d) {
      if (name.startsWith('script-src') || name === 'default-src') {
        for (const bad of ["'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "'strict-dynamic'", '*', 'data:', 'http:', 'https:', 'blob:']) {
          assert.ok(!sources.includes(bad), `${name} must not allow ${bad}`);
        }
      }
      assert.ok(!sources.includes("'unsafe-inline'") && !sources.includes("'unsafe-eval'"), `${name} allows unsafe-*`);
    }
    assert.ok(!d.has('script-src-elem') && !d.has('script-src-attr') && !d.has('worker-src'), 'no directive widens scripts again');
    // The policy in the page is this one, and every script tag carries the nonce.
    assert.ok(html.includes(`<meta http-equiv="Content-Security-Policy" content="${csp}">`));
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    assert.ok(scripts.length > 0);
    for (const s of scripts) assert.ok(s.includes(`nonce="${nonce}"`), `${s} has no nonce`);
    // A nonce is 128 random bits, new for each page.
    assert.ok(Buffer.from(nonce, 'base64').length >= 16);
    assert.notEqual(mapHtml({ cspSource: 'x', leafletCss: 'a', mapCss: 'b', script: 'c' }).nonce, nonce);
  });

  it('Chromium runs the nonced script and the map bundle, and blocks inline script, inline handlers and eval, reporting each', async () => {
    assert.ok(browser);
    const served = await servePage(repoRoot());
    let page: Page | undefined;
    try {
      page = await browser.newPage();
      const logged: string[] = [];
      const errors: string[] = [];
      page.on('console', (m) => logged.push(m.text()));
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${served.origin}/`, { waitUntil: 'load', timeout: PAGE_TIMEOUT_MS });
      // The violation events are queued tasks: wait (bounded) until the three have arrived.
      await page.waitForFunction(() => (window as unknown as { __violations: unknown[] }).__violations.length >= 3, undefined, { timeout: PAGE_TIMEOUT_MS });
      // Drive the real map script as the extension does: a show message, answered by "rendered".
      const show: ShowMessage = {
        type: 'show',
        title: 'CSP test',
        markers: [{ latitude: 45.76, longitude: 4.84, label: 'Lyon' }],
        lines: [],
        tileUrl: null,
        attribution: '',
      };
      await page.evaluate((m) => window.postMessage(m, '*'), show);
      await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'rendered'), undefined, {
        timeout: PAGE_TIMEOUT_MS,
      });
      // No tiles in this page: the offline basemap is fetched (connect-src) and drawn under the marker.
      await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'basemap'), undefined, {
        timeout: PAGE_TIMEOUT_MS,
      });
      if (process.env.AWB_CSP_SCREENSHOT) await page.screenshot({ path: process.env.AWB_CSP_SCREENSHOT });

      const probe = await page.evaluate(() => {
        const w = window as unknown as Record<string, unknown>;
        return { inline: w.__inline, handler: w.__handler, nonced: w.__nonced, evalResult: w.__eval, posted: w.__posted, violations: w.__violations } as Probe;
      });
      assert.equal(probe.nonced, 1, 'the script with the nonce ran');
      assert.equal(probe.inline, undefined, 'the inline script without the nonce must not run');
      assert.equal(probe.handler, undefined, 'an inline event handler must not run');
      assert.match(String(probe.evalResult), /^blocked: EvalError$/, 'eval() must be refused');

      const scriptViolations = probe.violations.filter((v) => v.directive.startsWith('script-src'));
      const seen = JSON.stringify(probe.violations);
      assert.ok(
        scriptViolations.some((v) => v.blockedURI === 'inline' && v.directive === 'script-src-elem'),
        `the inline <script> is reported: ${seen}`,
      );
      assert.ok(
        scriptViolations.some((v) => v.blockedURI === 'inline' && v.directive === 'script-src-attr'),
        `the inline handler is reported: ${seen}`,
      );
      assert.ok(
        scriptViolations.some((v) => v.blockedURI === 'eval'),
        `eval is reported: ${seen}`,
      );
      assert.ok(
        logged.some((l) => /inline script violates the following Content Security Policy directive 'script-src 'nonce-/.test(l)),
        `Chromium logged the refusal: ${JSON.stringify(logged)}`,
      );
      // Nothing the page itself needs is blocked: the only violations are the three injected ones.
      assert.equal(probe.violations.length, 3, `unexpected violations: ${JSON.stringify(probe.violations)}`);

      // The page's own script (nonced, external) works under the policy.
      assert.deepEqual(probe.posted[0], { type: 'ready' });
      const { view, ...rendered } = (probe.posted.find((m) => m.type === 'rendered') ?? {}) as { view?: [[number, number], [number, number]] };
      assert.deepEqual(rendered, {
        type: 'rendered',
        markers: 1,
        lines: 0,
        bounds: [
          [45.76, 4.84],
          [45.76, 4.84],
        ],
      });
      // The view it reports holds the marker (fitted, no closer than the offline basemap goes).
      assert.ok(view && view[0][0] < 45.76 && view[1][0] > 45.76 && view[0][1] < 4.84 && view[1][1] > 4.84, JSON.stringify(view));
      assert.deepEqual(
        probe.posted.find((m) => m.type === 'basemap'),
        { type: 'basemap', state: 'drawn' },
        'the offline basemap loads under the policy',
      );
      assert.equal(await page.locator('#status').textContent(), 'Offline basemap (Natural Earth)');
      assert.deepEqual(errors, [], 'no script errors on the page');
    } finally {
      await page?.close();
      await served.close();
    }
  });
});
