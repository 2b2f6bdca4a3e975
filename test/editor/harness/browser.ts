// The workbench window: Debian Chromium driven by playwright-core (no browser download needed).
import { chromium, type BrowserContext, type ElementHandle, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './paths';

export interface Workbench {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** 1280×800 at scale 1: readable README screenshots of a typical laptop window. */
export const VIEWPORT = { width: 1280, height: 800 };

/**
 * Launch Chromium with a profile of our own (so what the workbench stores in the browser lands
 * somewhere we can inspect and delete). The page is not navigated yet: callers expose their
 * automation functions first.
 */
export async function launchWorkbenchBrowser(profileDir: string): Promise<Workbench> {
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: VIEWPORT,
    timeout: 60_000,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      // A wedged browser must not hang the driver: give close() a bound, then move on.
      await Promise.race([context.close().catch(() => undefined), new Promise((r) => setTimeout(r, 10_000).unref())]);
    },
  };
}

/** Screenshot after the workbench has painted what the last command changed. */
export async function screenshotWorkbench(page: Page, file: string): Promise<void> {
  // A string, because this runs in the page (the project's types have no DOM); bounded in case the page is frozen.
  const painted = page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  await Promise.race([painted, new Promise((r) => setTimeout(r, 2000).unref())]);
  await page.screenshot({ path: file, timeout: 20_000 });
}

/**
 * Clicks or fills the first element matching `selector` in any frame of the page (webviews are
 * nested iframes), waiting up to `timeoutMs` for one to appear. Returns the frame's URL.
 */
export async function actInFrames(page: Page, selector: string, act: (el: ElementHandle) => Promise<void>, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      const el = await frame.$(selector).catch(() => null);
      if (!el) continue;
      await act(el);
      return frame.url();
    }
    if (Date.now() > deadline) throw new Error(`no element matches ${selector} in the workbench or its webviews`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
