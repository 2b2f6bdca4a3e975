// Helpers for in-editor tests (they run in the extension host; the driver is another process).
// Every test file is its own bundle, so nothing here keeps state in memory: it all goes through
// the files and URL the driver passed in the environment (protocol.ts).
import { appendFileSync } from 'node:fs';
import http from 'node:http';
import { parseJson, validate } from '../../../src/core/validate';
import { ENV, SCREENSHOT_NAME, screenshotReplySchema, type WebviewAction } from './protocol';

/**
 * Declare a secret value the test stored (an API key, an app secret). After the suite the driver
 * searches the user-data dir, the extensions dir and the workspace for it and fails the run if it
 * is found anywhere: keys belong in SecretStorage only.
 */
export function recordSecret(value: string): void {
  const file = process.env[ENV.secrets];
  if (!file) return;
  appendFileSync(file, JSON.stringify(value) + '\n');
}

/** True when the driver opened the workspace trusted (restricted-mode suites run untrusted). */
export function isTrustedRun(): boolean {
  return process.env[ENV.trusted] === '1';
}

const SCREENSHOT_TIMEOUT_MS = 30_000;

/** True when screenshots were asked for (SCREENSHOTS=1, `npm run screenshots`) and the host can take them. */
export function screenshotsWanted(): boolean {
  return process.env[ENV.screenshots] === '1' && canDriveWebviews();
}

/**
 * Only when screenshots were asked for (screenshotsWanted): waits `settleMs` for the workbench to
 * render what a command just changed (a picture, not a test: nothing is asserted on it), then asks
 * the driver to save a screenshot as <screenshots dir>/<name>.png and waits until it is written.
 * Returns the file path, or undefined when no screenshot was taken. Rejects if the driver reports a
 * failure.
 */
export async function takeScreenshot(name: string, settleMs = 0): Promise<string | undefined> {
  if (!SCREENSHOT_NAME.test(name)) throw new Error(`screenshot name ${JSON.stringify(name)} must match ${SCREENSHOT_NAME}`);
  if (!screenshotsWanted()) return undefined;
  if (settleMs > 0) await new Promise((r) => setTimeout(r, settleMs));
  return askDriver(`screenshot ${name}`, { name });
}

/**
 * Clicks (or fills) an element inside a webview as a user would, through the driver's browser.
 * Returns the URL of the frame it was found in, or undefined when the host has no browser to drive
 * (under @vscode/test-electron: such tests skip). Rejects when no element matches within 15 s.
 */
export function inWebview(action: WebviewAction): Promise<string | undefined> {
  return askDriver(`webview ${action.action} ${action.selector}`, action);
}

/** True when the driver can take screenshots and act inside webviews (code-server, not Electron). */
export function canDriveWebviews(): boolean {
  return Boolean(process.env[ENV.screenshot]);
}

function askDriver(what: string, body: object): Promise<string | undefined> {
  const url = process.env[ENV.screenshot];
  if (!url) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, timeout: SCREENSHOT_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const json = parseJson(Buffer.concat(chunks).toString('utf8'));
        const reply = json.ok ? validate(screenshotReplySchema, json.value) : undefined;
        if (!reply || !reply.ok) reject(new Error(`${what}: driver sent an unreadable reply (HTTP ${res.statusCode})`));
        else if (!reply.value.ok) reject(new Error(`${what}: ${reply.value.error}`));
        else resolve(reply.value.path);
      });
    });
    req.on('timeout', () => req.destroy(new Error(`${what}: no reply from the driver within ${SCREENSHOT_TIMEOUT_MS / 1000} s`)));
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}
