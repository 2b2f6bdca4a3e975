// A maps command's answer in the response viewer: the payload (status, time, request, body, map
// geometry, secrets masked) and the viewer page itself — the notebook's real renderer module loaded
// by the page's nonced module script in headless Chromium under the page's policy, drawing the
// route's Map tab over the offline basemap.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { encode } from '@googlemaps/polyline-codec';
import { chromium, type Browser } from 'playwright-core';
import { responsePayload } from '../../../src/features/maps/responsePayload';
import { viewerHtml } from '../../../src/features/maps/responseViewerHtml';
import { repoRoot } from '../helpers/sandboxProcess';

const CHROMIUM = '/usr/bin/chromium';
const KEY = 'AIzaSyTEST-key-0123456789abcdefghijklm';
const redact = (t: string) => t.split(KEY).join('***');

const route = {
  routes: [
    {
      distanceMeters: 465_000,
      duration: '16200s',
      description: 'via A6',
      polyline: {
        encodedPolyline: encode(
          [
            [45.76, 4.84],
            [47.32, 5.04],
            [48.85, 2.35],
          ],
          5,
        ),
      },
    },
  ],
  echoed: `https://example.test/?key=${KEY}`,
};

describe('maps response viewer', function () {
  this.timeout(60_000);

  it('the payload: status, time, request id and line, headers, body as a JSON tree, the route as map geometry, no key', () => {
    const p = responsePayload(
      'api-workbench-maps:/1-computeRoutes.json',
      'computeRoutes',
      JSON.parse(redact(JSON.stringify(route))),
      {
        status: 200,
        durationMs: 42,
        requestId: `req-${KEY}`,
        fieldMask: 'routes.distanceMeters,routes.polyline.encodedPolyline',
        request: { method: 'POST', url: `http://127.0.0.1:1/directions/v2:computeRoutes?key=${KEY}` },
        headers: { 'content-type': 'application/json', 'x-echo': `key ${KEY}` },
      },
      redact,
    );
    assert.equal(p.status, 200);
    assert.equal(p.ok, true);
    assert.equal(p.durationMs, 42);
    assert.equal(p.title, 'computeRoutes · field mask routes.distanceMeters, routes.polyline.encodedPolyline');
    assert.deepEqual(p.request, { method: 'POST', url: 'http://127.0.0.1:1/directions/v2:computeRoutes?key=***' });
    assert.equal(p.requestId, 'req-***');
    assert.deepEqual(p.headers, { 'content-type': 'application/json', 'x-echo': 'key ***' });
    assert.equal(p.body?.partial, false);
    assert.ok(p.body?.json, 'the body is shown as a tree');
    assert.equal(p.geometry?.lines.length, 1);
    assert.deepEqual(p.geometry?.lines[0].points[0], [45.76, 4.84]);
    assert.equal(JSON.stringify(p).includes(KEY), false, 'the key is in the payload');
  });

  it('a body over the preview size is cut, with the whole size, and no tree', () => {
    const big = {
      places: Array.from({ length: 4000 }, (_, i) => ({
        id: `place-${i}`,
        displayName: { text: `Place number ${i} with a long name` },
        location: { latitude: 45, longitude: 4 },
      })),
    };
    const p = responsePayload('x', 'searchText', big, { status: 200, durationMs: 1 }, redact);
    assert.equal(p.body?.partial, true);
    assert.equal(p.body?.json, undefined);
    assert.ok((p.body?.size ?? 0) > (p.body?.text.length ?? 0));
  });

  describe('the page in headless Chromium', () => {
    let browser: Browser | undefined;
    before(async function () {
      if (!existsSync(CHROMIUM)) {
        console.warn(`      skipped: ${CHROMIUM} is missing`);
        this.skip();
      }
      assert.ok(existsSync(path.join(repoRoot(), 'dist/webview/resultRenderer.js')), 'run `node esbuild.mjs` first');
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    });
    after(async () => {
      await browser?.close();
    });

    it('renders status and body with the real renderer, and the Map tab over the offline basemap, within its policy', async () => {
      assert.ok(browser);
      const root = repoRoot();
      const files: Record<string, [string, string]> = {
        '/dist/webview/resultRenderer.js': [path.join(root, 'dist/webview/resultRenderer.js'), 'text/javascript'],
        '/dist/webview/countries-110m.json': [path.join(root, 'dist/webview/countries-110m.json'), 'application/json'],
      };
      let html = '';
      const server = http.createServer((req, res) => {
        const f = files[new URL(req.url ?? '/', 'http://x').pathname];
        if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html' }).end(html);
        else if (f) res.writeHead(200, { 'content-type': f[1] }).end(readFileSync(f[0]));
        else res.writeHead(404).end();
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const page = await browser.newPage({ viewport: { width: 900, height: 800 } });
      try {
        const payload = responsePayload(
          'api-workbench-maps:/1-computeRoutes.json',
          'computeRoutes',
          route,
          { status: 200, durationMs: 42, requestId: 'req-1', headers: { 'content-type': 'application/json' } },
          redact,
        );
        // No tiles: the Map tab must fall back to the offline basemap at once.
        payload.geometry = { ...payload.geometry!, tiles: { url: null, attribution: '' } };
        const nonce = 'bm9uY2Utbm9uY2Utbm9uY2U=';
        html = viewerHtml(origin, `${origin}/dist/webview/resultRenderer.js`, payload, nonce).replace(
          '<body>',
          `<body><script nonce="${nonce}">window.__posted = []; window.__violations = []; document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.effectiveDirective + ' ' + e.blockedURI)); window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m) });</script>`,
        );
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        await page.goto(`${origin}/`);
        await page.waitForFunction(() => (window as unknown as { __posted: Array<{ tab?: string }> }).__posted.some((m) => m.tab === 'body'), undefined, {
          timeout: 15_000,
        });
        assert.equal(await page.locator('.awb-badge').textContent(), '200');
        assert.match((await page.locator('.awb-head').textContent()) ?? '', /time 42 ms/);
        assert.deepEqual(await page.locator('.awb-tab').allTextContents(), ['Body', 'Headers (1)', 'Map']);
        // The raw JSON document (Copy as cURL, Save as Notebook Cell) is a click away.
        await page.getByRole('button', { name: 'Open Raw JSON Document' }).click();
        const opened = await page.evaluate(() =>
          (window as unknown as { __posted: Array<{ type: string; resultId?: string }> }).__posted.filter((m) => m.type === 'openBody'),
        );
        assert.deepEqual(opened, [{ type: 'openBody', resultId: 'api-workbench-maps:/1-computeRoutes.json' }]);
        await page.evaluate(() => window.postMessage({ type: 'selectTab', tab: 'map' }, '*'));
        await page.waitForFunction(
          () => (window as unknown as { __posted: Array<{ tab?: string }> }).__posted.some((m) => m.tab?.startsWith('map-basemap-')),
          undefined,
          { timeout: 15_000 },
        );
        const posted = await page.evaluate(() => (window as unknown as { __posted: Array<{ tab?: string }> }).__posted.map((m) => m.tab));
        assert.ok(posted.includes('map-basemap-drawn'), `tabs reported: ${posted.join(', ')}`);
        if (process.env.AWB_VIEWER_SCREENSHOT) await page.screenshot({ path: process.env.AWB_VIEWER_SCREENSHOT });
        assert.deepEqual(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations), []);
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
        await new Promise((r) => server.close(r));
      }
    });
  });
});
