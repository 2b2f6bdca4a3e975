// "Copy Last Request as cURL" in the real editor, against the local sandbox: what lands on the
// clipboard reads the key from an environment variable (never the key itself), a shell parses it
// into the request that was sent, and — when curl is installed — running it gets the same answer.
// Also: the Get Started walkthrough renders (screenshots).
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as vscode from 'vscode';
import type { HttpConnection } from '../../../src/core/connections';
import type { CopiedCurl } from '../../../src/editor/curl';
import type { AskResult } from '../../../src/editor/llm/ask';
import { askMessages } from '../../../src/features/llm/prompts';
import type { CommandOutcome } from '../../../src/editor/maps/commandHost';
import type { ExtensionApi } from '../../../src/extension';
import { FAULTY_MODEL, sandboxAnswer } from '../../../src/sandbox/llm';
import type { SandboxInfo } from '../../../src/sandbox/types';
import { isTrustedRun, takeScreenshot } from '../harness/suiteApi';
import { EXTENSION_ID, SANDBOX, sandboxKeys, stubWindow, trustedSandbox, userConfig, waitFor } from './kit';

const MODEL = 'sandbox-chat';
const SHELL_TIMEOUT_MS = 20_000;
const WALKTHROUGH = `${EXTENSION_ID}#getStarted`;

interface ShellResult {
  code: number;
  stdout: string;
  stderr: string;
}

function sh(script: string, env: Record<string, string> = {}): Promise<ShellResult> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-c', script],
      { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, timeout: SHELL_TIMEOUT_MS, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
    );
  });
}

/** The argv bash hands to curl for `text` (curl replaced by a function that prints its arguments). */
async function argvOf(text: string): Promise<string[]> {
  const r = await sh(`curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }\n${text}`);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout.split('\0').slice(0, -1);
}

function valuesAfter(argv: string[], flag: string): string[] {
  return argv.flatMap((a, i) => (i > 0 && argv[i - 1] === flag ? [a] : []));
}

/** The text of a chat-completion event stream, as the SDKs concatenate it. */
function streamedText(sse: string): string {
  let text = '';
  for (const line of sse.split('\n')) {
    const data = /^data: (.*)$/.exec(line.trim())?.[1];
    if (!data || data === '[DONE]') continue;
    const chunk = JSON.parse(data) as { choices?: { delta?: { content?: string } }[] };
    text += chunk.choices?.[0]?.delta?.content ?? '';
  }
  return text;
}

describe('copy as cURL', function () {
  this.timeout(120_000);
  let api: ExtensionApi;
  let info: SandboxInfo;
  let hasCurl = false;

  before(async function () {
    ({ api, info } = await trustedSandbox(this));
    await api.services.connections.setActive('llm', SANDBOX);
    await api.services.connections.setActive('maps', SANDBOX);
    hasCurl = (await sh('command -v curl')).code === 0;
  });

  after(async () => {
    if (!api) return;
    await api.services.connections.setActive('llm', SANDBOX);
    await api.services.connections.setActive('maps', SANDBOX);
    await userConfig().update('llm.connections', undefined, vscode.ConfigurationTarget.Global);
    await userConfig().update('maps.connections', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // Suites that run later (foundation) start from a window without connections.
    await vscode.commands.executeCommand('apiWorkbench.sandbox.stop');
  });

  async function copy(arg?: unknown): Promise<{ text: string; copied: CopiedCurl }> {
    const copied = await vscode.commands.executeCommand<CopiedCurl | undefined>('apiWorkbench.llm.copyAsCurl', arg);
    assert.ok(copied, 'nothing was copied');
    const text = await vscode.env.clipboard.readText();
    assert.equal(text, copied.text);
    return { text, copied };
  }

  function assertNoKey(text: string): void {
    for (const k of sandboxKeys(info)) assert.ok(!text.includes(k), 'a key is in the copied text');
  }

  it('LLM: the last Ask, with "$OPENAI_API_KEY" in place of the key, parses into the request that was sent', async () => {
    const prompt = `Quoting check: don't expand $HOME, \`id\` or $(whoami)!\nSecond line "quoted".`;
    const asked = await vscode.commands.executeCommand<AskResult>('apiWorkbench.llm.ask', { prompt, model: MODEL });
    assert.equal(asked.outcome, 'done', asked.error);
    const { text, copied } = await copy();
    assertNoKey(text);
    assert.equal(copied.envVar, 'OPENAI_API_KEY');
    assert.match(text, /-H "Authorization: Bearer \$OPENAI_API_KEY"/);
    assert.ok(text.startsWith(`curl '${info.llm.baseUrl}/chat/completions'`), text.split('\n')[0]);

    const argv = await argvOf(text);
    assert.equal(argv[0], `${info.llm.baseUrl}/chat/completions`);
    assert.ok(argv.includes('--no-buffer'), 'a streamed answer is printed as it arrives');
    assert.ok(valuesAfter(argv, '-H').includes('Authorization: Bearer '), 'with the variable unset the shell expands it to nothing');
    const [body] = valuesAfter(argv, '--data-raw');
    const sent = JSON.parse(body) as { model: string; messages: unknown; stream: boolean };
    assert.equal(sent.model, MODEL);
    assert.deepEqual(sent.messages, askMessages(prompt));
    assert.equal(sent.stream, true);
  });

  it('LLM: with curl installed, running the copy with the key in $OPENAI_API_KEY streams the same answer', async function () {
    if (!hasCurl) this.skip();
    const prompt = 'What is a good first request to try with curl?';
    const asked = await vscode.commands.executeCommand<AskResult>('apiWorkbench.llm.ask', { prompt, model: MODEL });
    assert.equal(asked.outcome, 'done', asked.error);
    const { text } = await copy();
    const ok = await sh(`${text} --silent --show-error --fail`, { OPENAI_API_KEY: info.llm.apiKey });
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /data: \[DONE\]/);
    assert.equal(streamedText(ok.stdout), sandboxAnswer(askMessages(prompt), MODEL));
    assert.equal(streamedText(ok.stdout), asked.answer);
    // The key really comes from the variable: without it the sandbox refuses (HTTP 401 → curl exit 22).
    const refused = await sh(`${text} --silent --fail --output /dev/null`);
    assert.equal(refused.code, 22);
  });

  it('LLM: Copy as cURL from the Answers title bar copies the request behind the answer at the cursor, not the newest', async () => {
    const first = await vscode.commands.executeCommand<AskResult>('apiWorkbench.llm.ask', { prompt: 'First question, for the title bar.', model: MODEL });
    await vscode.commands.executeCommand<AskResult>('apiWorkbench.llm.ask', { prompt: 'Second question.', model: MODEL });
    // Both answers are in the one Answers document: the cursor says which one the title bar means.
    const editor = await vscode.window.showTextDocument(first.document);
    const at = first.document.positionAt(first.document.getText().indexOf(first.text) + 3);
    const moved = new Promise<void>((resolve) => {
      const sub = vscode.window.onDidChangeTextEditorSelection((e) => {
        if (e.textEditor.document === first.document && e.selections[0].active.line === at.line) {
          sub.dispose();
          resolve();
        }
      });
    });
    editor.selection = new vscode.Selection(at, at);
    await moved;
    await vscode.commands.executeCommand('notifications.clearAll');
    await takeScreenshot('curl-answer-title', 800);
    const { text } = await copy(first.document.uri);
    assert.match(text, /First question, for the title bar\./);
    assert.doesNotMatch(text, /Second question/);
  });

  it('LLM: Pick Another Request lists recent requests newest first and copies the one picked', async () => {
    await vscode.commands.executeCommand<AskResult>('apiWorkbench.llm.ask', { prompt: 'Older one.', model: MODEL });
    await vscode.commands.executeCommand<AskResult>('apiWorkbench.llm.ask', { prompt: 'Newer one.', model: MODEL });
    const picks = stubWindow('showQuickPick', (items: unknown) => (items as unknown[])[1]);
    let text: string;
    try {
      ({ text } = await copy({ pick: true }));
    } finally {
      picks.restore();
    }
    const items = picks.calls[0][0] as { label: string; detail?: string }[];
    assert.ok(items.length >= 2);
    assert.match(items[0].label, /POST \/v1\/chat\/completions/);
    assert.match(items[0].detail ?? '', /Newer one\./);
    assert.match(text, /Older one\./);
  });

  it('LLM: a failed Ask offers Copy as cURL next to Retry, and it copies the failed request', async () => {
    const before = await vscode.env.clipboard.readText();
    const errors = stubWindow('showErrorMessage', () => 'Copy as cURL');
    try {
      const failed = await vscode.commands.executeCommand<AskResult>('apiWorkbench.llm.ask', { prompt: 'Fail half way, then copy.', model: FAULTY_MODEL });
      assert.equal(failed.outcome, 'failed');
      const copied = await waitFor('the failed request on the clipboard', async () => {
        const t = await vscode.env.clipboard.readText();
        return t !== before && t.includes('Fail half way, then copy.') ? t : undefined;
      });
      assertNoKey(copied);
      assert.match(copied, new RegExp(`"model":"${FAULTY_MODEL}"`));
    } finally {
      errors.restore();
    }
    assert.deepEqual(errors.calls[0].slice(1), ['Retry', 'Copy as cURL', 'Show Log']);
  });

  it('LLM: an Azure-style connection (api-key header) reads the key from "$AZURE_OPENAI_API_KEY"', async () => {
    const origin = new URL(info.llm.baseUrl).origin;
    await userConfig().update(
      'llm.connections',
      [{ name: 'Azure Style', baseUrl: `${origin}/openai/v1`, auth: { placement: 'header', name: 'api-key' } }],
      vscode.ConfigurationTarget.Global,
    );
    const conn = await waitFor('the Azure-style connection', () => api.services.connections.get('llm', 'Azure Style') as HttpConnection | undefined);
    await api.services.secrets.set(conn, info.llm.apiKey, [origin]);
    try {
      const prompt = 'Hello from the Azure-style path.';
      const asked = await vscode.commands.executeCommand<AskResult>('apiWorkbench.llm.ask', { prompt, model: MODEL, connection: 'Azure Style' });
      assert.equal(asked.outcome, 'done', asked.error);
      const { text, copied } = await copy();
      assertNoKey(text);
      assert.equal(copied.envVar, 'AZURE_OPENAI_API_KEY');
      assert.match(text, /-H "api-key: \$AZURE_OPENAI_API_KEY"/);
      assert.doesNotMatch(text, /Authorization/i);
      assert.ok(text.startsWith(`curl '${origin}/openai/v1/chat/completions'`));
      if (hasCurl) {
        const ok = await sh(`${text} --silent --show-error --fail`, { AZURE_OPENAI_API_KEY: info.llm.apiKey });
        assert.equal(ok.code, 0, ok.stderr);
        assert.equal(streamedText(ok.stdout), sandboxAnswer(askMessages(prompt), MODEL));
      }
    } finally {
      await api.services.secrets.clear(conn);
      await userConfig().update('llm.connections', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  async function copyMaps(): Promise<{ text: string; copied: CopiedCurl }> {
    const copied = await vscode.commands.executeCommand<CopiedCurl | undefined>('apiWorkbench.maps.copyAsCurl');
    assert.ok(copied, 'nothing was copied');
    const text = await vscode.env.clipboard.readText();
    assert.equal(text, copied.text);
    return { text, copied };
  }

  it('Maps: the last search, with X-Goog-FieldMask and "X-Goog-Api-Key: $GOOGLE_MAPS_API_KEY"', async () => {
    // The raw JSON document, whose title bar (Copy as cURL) the screenshot shows.
    await userConfig().update('maps.openResponsesIn', 'document', vscode.ConfigurationTarget.Global);
    let out: CommandOutcome<{ places?: { id?: string }[] }> | undefined;
    try {
      out = await vscode.commands.executeCommand<CommandOutcome<{ places?: { id?: string }[] }> | undefined>('apiWorkbench.maps.searchPlaces', {
        query: 'Lyon',
      });
    } finally {
      await userConfig().update('maps.openResponsesIn', undefined, vscode.ConfigurationTarget.Global);
    }
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), out?.document.toString(), 'the response document is open');
    assert.ok(out && out.results.length > 0, 'the search found places');
    const { text, copied } = await copyMaps();
    assertNoKey(text);
    assert.equal(copied.envVar, 'GOOGLE_MAPS_API_KEY');
    assert.match(text, /-H "X-Goog-Api-Key: \$GOOGLE_MAPS_API_KEY"/);
    const argv = await argvOf(text);
    assert.equal(argv[0], `${info.maps.baseUrl}/v1/places:searchText`);
    assert.ok(
      valuesAfter(argv, '-H').some((h) => /^X-Goog-FieldMask: places\./.test(h)),
      'the field mask is sent',
    );
    assert.deepEqual(JSON.parse(valuesAfter(argv, '--data-raw')[0]), { textQuery: 'Lyon' });
    await vscode.commands.executeCommand('notifications.clearAll');
    await takeScreenshot('curl-maps-response-title', 500);
    if (hasCurl) {
      const ok = await sh(`${text} --silent --show-error --fail`, { GOOGLE_MAPS_API_KEY: info.maps.apiKey });
      assert.equal(ok.code, 0, ok.stderr);
      const places = (JSON.parse(ok.stdout) as { places?: { id?: string }[] }).places ?? [];
      assert.deepEqual(
        places.map((p) => p.id),
        (out.response.places ?? []).map((p) => p.id),
      );
    }
  });

  it('Maps: a key placed in the query becomes "?key=$GOOGLE_MAPS_API_KEY" after the single-quoted URL', async () => {
    const origin = new URL(info.maps.baseUrl).origin;
    await userConfig().update(
      'maps.connections',
      [{ name: 'Query Key', baseUrl: info.maps.baseUrl, auth: { placement: 'query', name: 'key' } }],
      vscode.ConfigurationTarget.Global,
    );
    const conn = await waitFor('the query-key connection', () => api.services.connections.get('maps', 'Query Key') as HttpConnection | undefined);
    await api.services.secrets.set(conn, info.maps.apiKey, [origin]);
    await api.services.connections.setActive('maps', 'Query Key');
    try {
      const out = await vscode.commands.executeCommand<CommandOutcome<{ results?: unknown[] }> | undefined>('apiWorkbench.maps.geocode', { address: 'Paris' });
      assert.ok(out && out.results.length > 0, 'geocoding found Paris');
      const { text } = await copyMaps();
      assertNoKey(text);
      assert.match(text.split('\n')[0], /^curl 'http:\/\/127\.0\.0\.1:\d+\/[^']*'"[?&]key=\$GOOGLE_MAPS_API_KEY"/);
      assert.doesNotMatch(text, /X-Goog-Api-Key/i);
      if (hasCurl) {
        const ok = await sh(`${text} --silent --show-error --fail`, { GOOGLE_MAPS_API_KEY: info.maps.apiKey });
        assert.equal(ok.code, 0, ok.stderr);
        assert.ok(((JSON.parse(ok.stdout) as { results?: unknown[] }).results ?? []).length > 0);
      }
    } finally {
      await api.services.connections.setActive('maps', SANDBOX);
      await api.services.secrets.clear(conn);
      await userConfig().update('maps.connections', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('Maps: a refused request offers Copy as cURL, which copies that request', async () => {
    const errors = stubWindow('showErrorMessage', () => 'Copy as cURL');
    try {
      const out = await vscode.commands.executeCommand<CommandOutcome | undefined>('apiWorkbench.maps.searchPlaces', {
        query: 'Nowhere-copy',
        fieldMask: 'places.bogus',
      });
      assert.equal(out, undefined);
      const copied = await waitFor('the refused request on the clipboard', async () => {
        const t = await vscode.env.clipboard.readText();
        return t.includes('Nowhere-copy') ? t : undefined;
      });
      assertNoKey(copied);
      assert.match(copied, /X-Goog-FieldMask: places\.bogus/);
    } finally {
      errors.restore();
    }
    assert.deepEqual(errors.calls[0].slice(1), ['Retry', 'Copy as cURL', 'Show Log']);
  });
});

describe('Get Started walkthrough', function () {
  this.timeout(60_000);

  before(async function () {
    if (!isTrustedRun()) this.skip();
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await ext.activate();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.focusSideBar');
  });

  it('opens, with each step and its media (screenshots)', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // Room for the two-column layout (steps left, media right), and no toasts over it. Newer VS Code
    // opens the Chat view in the secondary side bar, which leaves too little room for the media column.
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH, false);
    const tab = await waitFor('the walkthrough editor', () => vscode.window.tabGroups.activeTabGroup.activeTab ?? undefined);
    // The Getting Started editor's title: "Walkthrough: <title>" on VS Code 1.100, "Welcome" on newer
    // releases (the same editor; the screenshots below show our walkthrough's steps in it).
    assert.match(tab.label, /^(Walkthrough\b.*|Welcome)$/i);
    await takeScreenshot('walkthrough', 1500);
    for (const step of ['connect', 'route', 'curl']) {
      // Selecting a step of the open walkthrough is its own command (openWalkthrough ignores an open one).
      await vscode.commands.executeCommand('walkthroughs.selectStep', `${WALKTHROUGH}#${step}`);
      await takeScreenshot(`walkthrough-${step}`, 1200);
    }
  });
});
