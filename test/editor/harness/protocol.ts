// The contract between a driver (runInCodeServer / runInElectron, outside the editor) and the
// suite (inside the extension host). They share nothing but environment variables and files, so
// the names and shapes live here, used by both sides.
import * as z from 'zod/mini';
import { parseJson, validate } from '../../../src/core/validate';

export const ENV = {
  /** File the suite writes its ResultsFile to when mocha ends (also written with started=true at start). */
  results: 'API_WORKBENCH_TEST_RESULTS_FILE',
  /** File mocha's reporter output is appended to; the driver prints it as it grows. */
  log: 'API_WORKBENCH_TEST_LOG_FILE',
  /** File the suite appends every secret value it used to, one JSON string per line, for the secret scan. */
  secrets: 'API_WORKBENCH_TEST_SECRETS_FILE',
  /**
   * URL the suite POSTs {name} to; the driver answers after saving a screenshot of the workbench (or
   * after acting inside a webview). Unset: no browser to drive (under @vscode/test-electron).
   */
  screenshot: 'API_WORKBENCH_TEST_SCREENSHOT_URL',
  /**
   * "1" when screenshots were asked for (SCREENSHOTS=1, or the driver's --screenshots as in
   * `npm run screenshots`): only then does takeScreenshot take one, after letting the workbench settle.
   */
  screenshots: 'API_WORKBENCH_TEST_SCREENSHOTS',
  /** "1" when the workspace was opened trusted (the driver passed --disable-workspace-trust). */
  trusted: 'API_WORKBENCH_TEST_TRUSTED',
  /** Optional mocha --grep for the in-editor suite. */
  grep: 'API_WORKBENCH_TEST_GREP',
  /** Optional "i/n": run only the i-th of n slices of the suite's files (mochaRunner's suiteShard), so n editors run it side by side. */
  shard: 'API_WORKBENCH_TEST_SHARD',
  /** "1" to colour mocha's output (the driver's stdout is a terminal). */
  color: 'API_WORKBENCH_TEST_COLOR',
  /** Set when testing an installed .vsix: the folder the editor installed it into. */
  installedDir: 'API_WORKBENCH_TEST_INSTALLED_DIR',
  /** Which host runs the suite: "code-server" or "electron". */
  host: 'API_WORKBENCH_TEST_HOST',
} as const;

export const failureSchema = z.object({
  title: z.string(),
  message: z.string(),
});
export type SuiteFailure = z.infer<typeof failureSchema>;

export const resultsSchema = z.object({
  started: z.boolean(),
  done: z.boolean(),
  passed: z.number(),
  failed: z.number(),
  pending: z.number(),
  /** How many tests mocha selected to run (all, or those matching the --grep), known once it starts. */
  selected: z.optional(z.number()),
  failures: z.array(failureSchema),
  /** Title of the test running or last finished: tells a timeout where it stopped. */
  current: z.optional(z.string()),
  /** vscode.version as the extension host reports it: which editor the suite really ran in. */
  editorVersion: z.optional(z.string()),
});
export type ResultsFile = z.infer<typeof resultsSchema>;

export const screenshotRequestSchema = z.object({ name: z.string() });
/**
 * A user's action inside a webview (they are iframes of the workbench page, which only the driver
 * reaches), POSTed to the same URL: the first element matching `selector` in any frame is clicked,
 * or filled with `text`. The reply's `path` is the URL of the frame it was found in. The keyboard
 * as a person uses it, wherever its focus is (the extension host cannot type): `press` presses the
 * key named in `text` (Playwright's names: `Enter`, `F1`), `type` types the characters of `text`;
 * for both, a non-empty `selector` is waited for first (in the workbench too: a quick-open row).
 * `find` only waits for `selector` to match (what the user sees, e.g. a ticked walkthrough step).
 */
export const webviewActionSchema = z.object({ selector: z.string(), action: z.enum(['click', 'fill', 'press', 'type', 'find']), text: z.optional(z.string()) });
export type WebviewAction = z.infer<typeof webviewActionSchema>;
export const screenshotReplySchema = z.union([z.object({ ok: z.literal(true), path: z.string() }), z.object({ ok: z.literal(false), error: z.string() })]);
export type ScreenshotReply = z.infer<typeof screenshotReplySchema>;

/** Screenshot names become file names: keep them to a safe alphabet. */
export const SCREENSHOT_NAME = /^[a-z0-9][a-z0-9._-]{0,80}$/i;

export function parseResults(text: string): ResultsFile | undefined {
  const json = parseJson(text);
  if (!json.ok) return undefined;
  const r = validate(resultsSchema, json.value);
  return r.ok ? r.value : undefined;
}
