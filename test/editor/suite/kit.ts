// Helpers shared by the in-editor suites. Not a *.test.ts, so the suite index never runs it as a
// suite; esbuild bundles a copy into every suite that imports it, so nothing here may keep state
// that one suite expects another to see.
import * as assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { ServiceId } from '../../../src/core/connections';
import type { ConnectionNode, TreeNode } from '../../../src/editor/tree';
import type { ExtensionApi } from '../../../src/extension';
import type { SandboxInfo } from '../../../src/sandbox/types';
import { isTrustedRun, recordSecret, takeScreenshot } from '../harness/suiteApi';

export const EXTENSION_ID = 'api-workbench.api-workbench';
/** The name of the connection "Start Sandbox" adds to every view. */
export const SANDBOX = 'Local Sandbox';

const WAIT_MS = 15_000;
/**
 * For what the workbench draws (a picker, a webview) rather than what the extension computes: on a
 * loaded 2-core machine (load 4-18) a webview's first paint took over 30 s. A bound on a hang, not
 * an assertion on speed.
 */
export const SLOW_UI_WAIT_MS = 90_000;
// Short enough to catch a slow stream mid-way (the llm cancel test), long enough not to busy the host.
const POLL_MS = 50;

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export const userConfig = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('apiWorkbench');

// --- the extension and the sandbox ------------------------------------------------------------------

/** Activates the extension (a no-op once it is active) and returns its API; fails if activation failed. */
export async function activateExtension(): Promise<ExtensionApi> {
  const ext = vscode.extensions.getExtension<ExtensionApi | undefined>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not loaded`);
  const api = await ext.activate();
  assert.ok(api, 'activate() returned nothing: activation failed (see the API Workbench log)');
  return api;
}

/** The sandbox's LLM key, maps key and realtime app secret (new ones each time it starts). */
export function sandboxKeys(info: SandboxInfo): string[] {
  return [info.llm.apiKey, info.maps.apiKey, info.realtime.secret];
}

/**
 * Runs "Start Sandbox" and declares the sandbox's keys to the harness, whose file scan after the
 * suite fails the run if any of them was written outside SecretStorage.
 */
export async function startSandboxRecordingKeys(api: ExtensionApi): Promise<SandboxInfo> {
  await vscode.commands.executeCommand('apiWorkbench.sandbox.start');
  const info = api.services.sandbox.info;
  assert.ok(info, 'the sandbox did not start');
  for (const k of sandboxKeys(info)) recordSecret(k);
  return info;
}

/**
 * The start of a suite (or test) that sends with stored keys: skipped in the untrusted run, where
 * restricted mode sends nothing; else the extension active and the sandbox running, its keys known
 * to the secret scan.
 */
export async function trustedSandbox(mocha: Mocha.Context): Promise<{ api: ExtensionApi; info: SandboxInfo }> {
  if (!isTrustedRun()) mocha.skip();
  const api = await activateExtension();
  return { api, info: await startSandboxRecordingKeys(api) };
}

// --- prompts and messages ---------------------------------------------------------------------------

/** A replaced `vscode.window` function: the arguments of every call, and how to put the original back. */
export interface WindowStub {
  readonly calls: unknown[][];
  restore(): void;
}

/**
 * Replaces `vscode.window[name]` (a prompt, a message, withProgress…) with `impl`, whose result is
 * returned as a promise like the real one's, and records each call's arguments. Restore it in a
 * `finally`: the window is shared by every suite.
 */
export function stubWindow<K extends keyof typeof vscode.window>(name: K, impl: (...args: never[]) => unknown): WindowStub {
  const w = vscode.window as unknown as Record<string, unknown>;
  const original = w[name];
  const calls: unknown[][] = [];
  w[name] = (...args: unknown[]) => {
    calls.push(args);
    return Promise.resolve((impl as (...a: unknown[]) => unknown)(...args));
  };
  return { calls, restore: () => void (w[name] = original) };
}

// --- waiting ----------------------------------------------------------------------------------------

/** When a notebook editor was last shown: see notebookEditorsSettled(). */
let notebookShownAt = 0;
vscode.window.onDidChangeVisibleNotebookEditors(() => (notebookShownAt = Date.now()));
/** How long a notebook editor takes to load its webview here (the example's 30 cells): 1.5 s was too little. */
const NOTEBOOK_SETTLE_MS = 5000;

/**
 * Waits until the notebook editor shown last has had time to load its webview. In VS Code 1.100
 * (code-server), a notebook editor closed or hidden before its webview has loaded makes a notebook
 * editor shown later wait 30 s before it appears, for .ipynb notebooks as for ours: the test after
 * one that opened the example twice and closed it took 32 s instead of 3. Only a slower suite when
 * this waits too little, never a failure.
 */
export async function notebookEditorsSettled(): Promise<void> {
  const left = notebookShownAt + NOTEBOOK_SETTLE_MS - Date.now();
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
}

/**
 * Polls `probe` until it returns something other than undefined or false, and returns that; so a
 * probe can be a condition (`() => x === 3`) or a lookup (`() => map.get(k)`). Throws
 * "timed out waiting for <what>" after `ms` (a bound on a hang, not an assertion on speed).
 */
export async function waitFor<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, ms = WAIT_MS): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await delay(POLL_MS);
  }
}

/**
 * `p`, or a rejection naming `what` if it has not settled after `ms` (a bound on a hang, not an
 * assertion on speed).
 */
export async function within<T>(p: Promise<T>, what: string, ms = WAIT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms)));
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Waits `ms` with nothing to wait for. Only for an assertion that something does NOT happen later (no
 * request leaves from a timer a refused command might have left behind): that has no event to wait
 * on, so it gets a bounded window of observation. Nothing is asserted about how long anything took.
 */
export function quietPeriod(ms: number): Promise<void> {
  return delay(ms);
}

// --- quick picks -----------------------------------------------------------------------------------

/**
 * Every `vscode.window.showQuickPick` from now on goes to the real one, and `onScreen` resolves once
 * the workbench has one on screen with an item focused: it reports the focused item back
 * (onDidSelectItem), the first one as soon as the list is drawn. Accepting after a fixed pause
 * instead raced the picker opening: under load the accept reached the workbench before the picker
 * did. Restore it in a `finally`.
 */
export function watchShownQuickPicks(): { onScreen(what: string): Promise<void>; restore(): void } {
  const w = vscode.window as unknown as Record<string, unknown>;
  const original = w.showQuickPick as (items: unknown, options?: vscode.QuickPickOptions, token?: vscode.CancellationToken) => unknown;
  let focused: () => void = () => undefined;
  const shown = new Promise<void>((resolve) => (focused = resolve));
  w.showQuickPick = (items: unknown, options?: vscode.QuickPickOptions, token?: vscode.CancellationToken) =>
    original.call(
      vscode.window,
      items,
      {
        ...options,
        onDidSelectItem: (item: vscode.QuickPickItem | string) => {
          focused();
          options?.onDidSelectItem?.(item);
        },
      },
      token,
    );
  return { onScreen: (what) => within(shown, `${what} on screen (an item focused)`, SLOW_UI_WAIT_MS), restore: () => void (w.showQuickPick = original) };
}

/**
 * Runs `command` through the real quick pick it shows and accepts the item focused first, as Enter
 * would; the pick on screen is the screenshot `screenshot`. The command's result.
 */
export async function runAcceptingFirstPick<T>(what: string, screenshot: string, command: string, ...args: unknown[]): Promise<T | undefined> {
  const picks = watchShownQuickPicks();
  try {
    const running = vscode.commands.executeCommand<T | undefined>(command, ...args);
    await picks.onScreen(what);
    await takeScreenshot(screenshot, 300);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    return await running;
  } finally {
    picks.restore();
  }
}

/** The active items the workbench last reported for each captured quick pick (onDidChangeActive). */
const reportedActive = new WeakMap<vscode.QuickPick<vscode.QuickPickItem>, readonly vscode.QuickPickItem[]>();

/** Every quick pick the extension creates from now on, to type into and accept as a user would. */
export function captureQuickPicks(): { picks: Array<vscode.QuickPick<vscode.QuickPickItem>>; restore(): void } {
  const w = vscode.window as unknown as Record<string, unknown>;
  const original = vscode.window.createQuickPick.bind(vscode.window);
  const picks: Array<vscode.QuickPick<vscode.QuickPickItem>> = [];
  w.createQuickPick = () => {
    const qp = original();
    reportedActive.set(qp, []);
    qp.onDidChangeActive((active) => reportedActive.set(qp, active));
    picks.push(qp);
    return qp;
  };
  return { picks, restore: () => void (w.createQuickPick = original) };
}

/**
 * Makes `item` the active item of a picker from captureQuickPicks() and accepts it, as the arrow
 * keys and Enter would. The workbench accepts the item *it* has focused, and the extension host
 * sends a quick pick's changes in a batch on a later turn, so accepting right after setting the item
 * raced that batch (under load the workbench could accept what it showed before). This waits for
 * the workbench to report `item` active (onDidChangeActive, which it fires for a change the extension
 * made too, but not when the item was focused already: then it accepts at once).
 */
export async function acceptItem(qp: vscode.QuickPick<vscode.QuickPickItem>, item: vscode.QuickPickItem): Promise<void> {
  const reported = reportedActive.get(qp);
  assert.ok(reported, 'acceptItem needs a quick pick created while captureQuickPicks() was on');
  if (reported.length === 1 && reported[0] === item) {
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    return;
  }
  let listener: vscode.Disposable | undefined;
  let wanted = item;
  const shownActive = new Promise<void>((resolve) => {
    listener = qp.onDidChangeActive((active) => {
      if (active.length === 1 && active[0] === wanted) return resolve();
      // The workbench focused another item after ours was set: the extension replaced the items
      // meanwhile (a picker re-renders as suggestions or its recent places arrive), and the new list
      // starts at its first item. Asked again, with the item of that label in the new list; under
      // load (6 on 2 cores) this had waited out its bound for an event that was not coming.
      const now = qp.items.includes(wanted) ? wanted : qp.items.find((i) => i.label === wanted.label);
      if (now === undefined) return;
      wanted = now;
      qp.activeItems = [now];
    });
  });
  try {
    qp.activeItems = [item];
    await within(shownActive, `the workbench to show “${item.label}” as the active item`);
  } finally {
    listener?.dispose();
  }
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
}

/** The picker's item labelled `label`, accepted as by Enter on it (see acceptItem). */
export async function acceptLabel(qp: vscode.QuickPick<vscode.QuickPickItem>, label: string): Promise<void> {
  const item = qp.items.find((i) => i.label === label);
  assert.ok(item, `no item “${label}” in the picker: ${pickLabels(qp).join(' | ')}`);
  await acceptItem(qp, item);
}

export const pickLabels = (qp: vscode.QuickPick<vscode.QuickPickItem>) =>
  qp.items.filter((i) => i.kind !== vscode.QuickPickItemKind.Separator).map((i) => i.label);

/** Types `text` into the picker and waits until the suggestions for it (or "no suggestions") are listed. */
export async function typeInto(qp: vscode.QuickPick<vscode.QuickPickItem>, text: string, expect: (labels: string[]) => boolean): Promise<string[]> {
  qp.value = text;
  return waitFor(`picker items for “${text}”`, () => {
    const l = pickLabels(qp);
    return !qp.busy && expect(l) ? l : undefined;
  });
}

// --- the service trees ------------------------------------------------------------------------------

/** The label a tree node shows, as text. */
export async function treeLabel(node: TreeNode): Promise<string> {
  const label = (await node.toTreeItem()).label;
  return typeof label === 'string' ? label : (label?.label ?? '');
}

export function treeLabels(nodes: readonly TreeNode[]): Promise<string[]> {
  return Promise.all(nodes.map(treeLabel));
}

/** The root node of connection `name` in a service view, if the view shows it now. */
export async function findConnectionNode(api: ExtensionApi, service: ServiceId, name: string): Promise<ConnectionNode | undefined> {
  const roots = (await api.views[service].provider.getChildren()) ?? [];
  return roots.find((r) => (r as ConnectionNode).conn?.name === name) as ConnectionNode | undefined;
}

/** A node's children once loaded: a connection first answers with a lone Loading… node (tree.ts). */
export function loadedChildren(node: TreeNode): Promise<TreeNode[]> {
  return waitFor(`children of ${node.id}`, async () => {
    const kids = (await node.children?.()) ?? [];
    return kids.length === 1 && kids[0].id.endsWith('/loading') ? undefined : kids;
  });
}

// --- maps responses -----------------------------------------------------------------------------------

/**
 * A maps command's response as it opens by default: the response viewer is the active tab, showing
 * this response, and the raw JSON document behind it (Copy as cURL, Save as Notebook Cell) parses.
 */
export async function shownMapsResponse(out: { document: vscode.Uri }): Promise<Record<string, unknown>> {
  const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
  assert.ok(
    tab?.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('apiWorkbench.mapsResponse'),
    `the response should open in the response viewer (active tab: ${tab?.label})`,
  );
  const viewer = await vscode.commands.executeCommand<{ shown?: { resultId: string } }>('apiWorkbench.maps.openInViewer', out.document);
  assert.equal(viewer.shown?.resultId, out.document.toString());
  const doc = await vscode.workspace.openTextDocument(out.document);
  assert.equal(doc.languageId, 'json', 'the raw response is a JSON document');
  return JSON.parse(doc.getText()) as Record<string, unknown>;
}

/** A local HTTP server that answers every request with `body` (JSON) and keeps what reached it: tests prove what was, or was not, sent. */
export interface CountingServer {
  /** `127.0.0.1:<port>` */
  host: string;
  requests: Array<{ url: string; headers: http.IncomingHttpHeaders }>;
  close(): Promise<void>;
}

export async function countingServer(body = '{}'): Promise<CountingServer> {
  const requests: CountingServer['requests'] = [];
  const server = http.createServer((req, res) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    req.resume();
    res.setHeader('content-type', 'application/json');
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    host: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
