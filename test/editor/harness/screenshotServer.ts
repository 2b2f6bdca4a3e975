// The driver side of suiteApi.takeScreenshot: a tiny HTTP endpoint on 127.0.0.1 that saves a
// screenshot of the workbench page (which only the driver can reach) and answers with the path.
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { parseJson, validate } from '../../../src/core/validate';
import { actInFrames, screenshotWorkbench } from './browser';
import { SCREENSHOT_NAME, screenshotRequestSchema, webviewActionSchema, type ScreenshotReply, type WebviewAction } from './protocol';

export interface ScreenshotServer {
  url: string;
  /** Files written so far, in order. */
  taken: string[];
  /** Until a page is attached, requests are answered with an error. */
  attach(page: Page): void;
  close(): Promise<void>;
}

const MAX_BODY = 4096;

export async function startScreenshotServer(dir: string, log: (line: string) => void): Promise<ScreenshotServer> {
  let page: Page | undefined;
  const taken: string[] = [];
  // One at a time: concurrent screenshots of one page would race on what they show.
  let queue: Promise<unknown> = Promise.resolve();

  const take = async (name: string): Promise<ScreenshotReply> => {
    if (!page) return { ok: false, error: 'the workbench page is not open yet' };
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${name}.png`);
    try {
      await screenshotWorkbench(page, file);
    } catch (e) {
      return { ok: false, error: e instanceof Error ? e.message : String(e) };
    }
    taken.push(file);
    log(`    [screenshot] ${path.relative(process.cwd(), file) || file}`);
    return { ok: true, path: file };
  };

  const act = async (a: WebviewAction): Promise<ScreenshotReply> => {
    if (!page) return { ok: false, error: 'the workbench page is not open yet' };
    try {
      if (a.action === 'press' || a.action === 'type') {
        if (a.selector) await actInFrames(page, a.selector, () => Promise.resolve());
        await (a.action === 'press' ? page.keyboard.press(a.text ?? 'Enter') : page.keyboard.type(a.text ?? ''));
        log(`    [keyboard] ${a.action} ${a.text ?? 'Enter'}`);
        return { ok: true, path: page.url() };
      }
      const where = await actInFrames(page, a.selector, (el) =>
        a.action === 'find' ? Promise.resolve() : a.action === 'fill' ? el.fill(a.text ?? '', { timeout: 10_000 }) : el.click({ timeout: 10_000 }),
      );
      log(`    [webview] ${a.action} ${a.selector}`);
      return { ok: true, path: where };
    } catch (e) {
      return { ok: false, error: e instanceof Error ? e.message : String(e) };
    }
  };

  const server = http.createServer((req, res) => {
    const reply = (status: number, body: ScreenshotReply) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST') return reply(405, { ok: false, error: 'POST {"name": "..."}' });
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => {
      const json = parseJson(Buffer.concat(chunks).toString('utf8'));
      const action = json.ok ? validate(webviewActionSchema, json.value) : undefined;
      if (size <= MAX_BODY && action?.ok) {
        const acted = queue.then(() => act(action.value));
        queue = acted;
        void acted.then((r) => reply(r.ok ? 200 : 500, r));
        return;
      }
      const body = json.ok ? validate(screenshotRequestSchema, json.value) : undefined;
      if (size > MAX_BODY || !body?.ok)
        return reply(400, { ok: false, error: 'expected {"name": string} or {"selector": string, "action": "click" | "fill"}' });
      const name = body.value.name;
      if (!SCREENSHOT_NAME.test(name)) return reply(400, { ok: false, error: `name must match ${SCREENSHOT_NAME}` });
      const done = queue.then(() => take(name));
      queue = done;
      void done.then((r) => reply(r.ok ? 200 : 500, r));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/screenshot`,
    taken,
    attach: (p) => {
      page = p;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
