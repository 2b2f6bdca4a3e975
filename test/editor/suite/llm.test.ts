// Language models in the real editor: the models tree, Ask… streaming into a Markdown answer,
// cancel, 429 countdown, mid-stream failure, selection prompts, tree actions, the status count.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { HttpConnection } from '../../../src/core/connections';
import type { ExtensionApi } from '../../../src/extension';
import type { AskResult } from '../../../src/editor/llm/ask';
import { llmClient, requestsLeft } from '../../../src/features/llm/clients';
import { ANSWER_SCHEME, ANSWERS_URI } from '../../../src/editor/llm/answerDocuments';
import { ANSWER_END, answerHeader, askMessages, errorNote, EXPLAIN_QUESTION, selectionMessages } from '../../../src/features/llm/prompts';
import type { ConnectionNode } from '../../../src/editor/tree';
import { orderModels } from '../../../src/catalogue/modelKinds';
import { FAULTY_MODEL, faultAfterTokens, LIMITED_MODEL, LLM_MODELS, sandboxAnswer, sandboxAnswerTokens, startLlmSandbox } from '../../../src/sandbox/llm';
import type { RunningService } from '../../../src/sandbox/types';
import { recordSecret, takeScreenshot } from '../harness/suiteApi';
import { findConnectionNode, loadedChildren, SANDBOX, stubWindow, treeLabels, trustedSandbox, userConfig, waitFor } from './kit';

/** A second sandbox, started here, that streams slowly (25 tokens/s) and limits tightly. */
const SLOW = 'Slow Sandbox';
const SLOW_KEY = `sk-slow-${Date.now()}-${Math.random().toString(36).slice(2)}`;
const SLOW_WINDOW_MS = 4_000;
/** A connection to the suite's sandbox that only the status-count test uses. */
const COUNTED = 'Counted Sandbox';
/** A connection to the suite's sandbox with no model chosen yet (the first question a new user asks). */
const FRESH = 'Fresh Sandbox';

/** The llm view's node of connection `name`, once the view shows it. */
function connectionNode(api: ExtensionApi, name: string): Promise<ConnectionNode> {
  return waitFor(`tree node ${name}`, () => findConnectionNode(api, 'llm', name));
}

function llmConn(api: ExtensionApi, name: string): HttpConnection | undefined {
  const c = api.services.connections.get('llm', name);
  return c && c.service === 'llm' ? c : undefined;
}

/** The answer part of one answer (AskResult.text): after the header, before the closing note. */
function answerPart(text: string, header: string): string {
  assert.ok(text.startsWith(header), `the answer starts with the header:\n${text.slice(0, 300)}`);
  const end = text.lastIndexOf(ANSWER_END);
  assert.ok(end >= header.length, 'the answer ends with a note');
  return text.slice(header.length, end);
}

/** How much of the answer under `header` the Answers document shows so far (its newest one with that header). */
function shownSoFar(header: string): number {
  const text = vscode.workspace.textDocuments.find((d) => d.uri.toString() === ANSWERS_URI.toString())?.getText() ?? '';
  const at = text.lastIndexOf(header);
  return at < 0 ? -1 : text.length - at - header.length;
}

/** Tabs showing the Answers document, in every editor group. */
function answerTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === ANSWER_SCHEME);
}

describe('llm', function () {
  this.timeout(90_000);
  let api: ExtensionApi;
  let slow: RunningService;
  /** Untitled documents this suite typed into: closed without a save prompt at the end. */
  const scratch: vscode.TextDocument[] = [];

  before(async function () {
    ({ api } = await trustedSandbox(this));
    recordSecret(SLOW_KEY);
    slow = await startLlmSandbox({ host: '127.0.0.1', port: 0, apiKey: SLOW_KEY, tokenRate: 25, limitedWindowMs: SLOW_WINDOW_MS });
    await api.services.connections.setActive('llm', SANDBOX);
  });

  after(async () => {
    for (const doc of scratch) {
      if (doc.isClosed) continue;
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const name of [SLOW, COUNTED, FRESH]) {
      const conn = llmConn(api, name);
      if (conn) await api.services.secrets.clear(conn);
    }
    await userConfig().update('llm.connections', undefined, vscode.ConfigurationTarget.Global);
    await slow?.close();
  });

  it('the models tree lists the sandbox models with owner and created date @smoke', async () => {
    const node = await connectionNode(api, SANDBOX);
    const kids = await loadedChildren(node);
    // Chat models first, the sandbox's own chat model at the top (catalogue/modelKinds.ts).
    const sorted = orderModels([...LLM_MODELS].sort((a, b) => a.id.localeCompare(b.id)));
    assert.equal(sorted[0].id, 'sandbox-chat');
    assert.deepEqual(
      await treeLabels(kids),
      sorted.map((m) => m.id),
    );
    const item = await kids[0].toTreeItem();
    assert.match(String(item.description), new RegExp(`${sorted[0].owned_by} · ${new Date(sorted[0].created * 1000).toISOString().slice(0, 10)}`));
    assert.match(item.contextValue ?? '', /^llm\.model/);
  });

  it('a connection shows signed-out, models after the key is set, and an error node when unreachable', async () => {
    const slowUrl = `http://127.0.0.1:${slow.port}/v1`;
    await userConfig().update(
      'llm.connections',
      [
        { name: SLOW, baseUrl: slowUrl },
        { name: 'Gone', baseUrl: 'http://127.0.0.1:9/v1' },
      ],
      vscode.ConfigurationTarget.Global,
    );
    const conn = await waitFor('slow connection', () => llmConn(api, SLOW));
    const signedOut = await loadedChildren(await connectionNode(api, SLOW));
    assert.deepEqual(await treeLabels(signedOut), ['Set API Key…']);
    await api.services.secrets.set(conn, SLOW_KEY, [`http://127.0.0.1:${slow.port}`]);
    const models = await waitFor('models of the slow sandbox', async () => {
      const kids = await loadedChildren(await connectionNode(api, SLOW));
      const names = await treeLabels(kids);
      return names.includes('sandbox-chat') ? names : undefined;
    });
    assert.equal(models.length, LLM_MODELS.length);
    const gone = await waitFor('Gone connection', () => llmConn(api, 'Gone'));
    await api.services.secrets.set(gone, 'sk-gone-000000', ['http://127.0.0.1:9']);
    recordSecret('sk-gone-000000');
    const error = await waitFor('error node', async () => {
      const kids = await loadedChildren(await connectionNode(api, 'Gone'));
      const l = await treeLabels(kids);
      return l[0] === 'Could not load — click to retry' ? kids : undefined;
    });
    assert.match(String((await error[0].toTreeItem()).description), /could not be reached/);
  });

  it('Ask… streams into the Answers document beside the editor; the answer is the sandbox answer', async () => {
    const notes = await vscode.workspace.openTextDocument({ language: 'markdown', content: '# Notes\n\nAsking the sandbox.\n' });
    scratch.push(notes);
    await vscode.window.showTextDocument(notes);
    const prompt = 'What makes a good streaming API? Answer in one paragraph.';
    const expected = sandboxAnswer(askMessages(prompt), 'sandbox-chat');
    let changes = 0;
    const sub = vscode.workspace.onDidChangeTextDocument((e) => e.document.uri.scheme === ANSWER_SCHEME && changes++);
    let result: AskResult | undefined;
    try {
      result = await vscode.commands.executeCommand<AskResult | undefined>('apiWorkbench.llm.ask', { prompt, model: 'sandbox-chat' });
    } finally {
      sub.dispose();
    }
    assert.ok(result);
    assert.equal(result.outcome, 'done', result.error);
    assert.equal(result.answer, expected);
    const doc = result.document;
    assert.equal(doc.uri.toString(), ANSWERS_URI.toString());
    assert.equal(doc.languageId, 'markdown');
    assert.ok(
      vscode.window.visibleTextEditors.some((e) => e.document === doc),
      'the answer is visible',
    );
    assert.ok(vscode.window.visibleTextEditors.length >= 2, 'beside the editor, not instead of it');
    assert.ok(doc.getText().endsWith(result.text), 'the newest answer is the last one in the document');
    const header = answerHeader('sandbox-chat', SANDBOX, prompt);
    assert.equal(answerPart(result.text, header), expected);
    assert.match(
      result.text.slice(header.length + expected.length),
      /^\n\n---\n\*sandbox-chat · \d+ tokens in \/ \d+ out · \$0\.00 · \d+(\.\d+)? m?s \(first token \d+(\.\d+)? m?s\) · request id `req_[0-9a-f]+`\*\n$/,
    );
    assert.ok(changes >= 2, `the document grew while the answer streamed (${changes} updates)`);
    assert.match(result.requestId ?? '', /^req_/);
    await takeScreenshot('llm-answer', 600);
  });

  it('Ask… with no arguments: prompt box, then a model pick that remembers the last choice', async () => {
    const prompt = 'Which model am I talking to?';
    const input = stubWindow('showInputBox', () => prompt);
    let offered: vscode.QuickPickItem[] = [];
    const pick = stubWindow('showQuickPick', (items: vscode.QuickPickItem[]) => {
      offered = items;
      return items.find((i) => i.label === 'sandbox-chat-mini');
    });
    try {
      const first = await vscode.commands.executeCommand<AskResult>('apiWorkbench.llm.ask');
      assert.equal(first.model, 'sandbox-chat-mini');
      assert.equal(first.answer, sandboxAnswer(askMessages(prompt), 'sandbox-chat-mini'));
      assert.ok(!offered.some((i) => i.label === 'sandbox-embed'), 'embedding models are not offered for chat');
      await vscode.commands.executeCommand<AskResult>('apiWorkbench.llm.ask');
      const models = offered.filter((i) => i.kind !== vscode.QuickPickItemKind.Separator);
      assert.equal(models[0].label, 'sandbox-chat-mini', 'the last choice comes first');
      assert.match(models[0].description ?? '', /last used/);
      const second = input.calls[1][0] as vscode.InputBoxOptions;
      assert.equal(second.value, prompt, 'the last prompt is offered again');
    } finally {
      input.restore();
      pick.restore();
    }
  });

  it('Ask… on a connection without a model: chat models only, the sandbox chat model pre-selected; a model that fails never becomes the default', async () => {
    const info = api.services.sandbox.info;
    assert.ok(info, 'the sandbox runs');
    const configured = userConfig().get<unknown[]>('llm.connections') ?? [];
    await userConfig().update('llm.connections', [...configured, { name: FRESH, baseUrl: info.llm.baseUrl }], vscode.ConfigurationTarget.Global);
    const conn = await waitFor('the fresh connection', () => llmConn(api, FRESH));
    await api.services.secrets.set(conn, info.llm.apiKey, [new URL(info.llm.baseUrl).origin]);
    const told: string[] = [];
    const note = stubWindow('showInformationMessage', (message: string) => void told.push(message));
    try {
      // babbage-002 is completion-only: the sandbox answers 404, as OpenAI does, and it stays no one's default.
      const failed = await vscode.commands.executeCommand<AskResult>('apiWorkbench.llm.ask', { prompt: 'Hello?', model: 'babbage-002', connection: FRESH });
      assert.equal(failed.outcome, 'failed');
      assert.ok(!told.some((m) => /is now the default model/.test(m)), told.join('\n'));

      // What a user sees: the quick pick as VS Code shows it, first item pre-selected.
      const input = stubWindow('showInputBox', () => 'What makes a good streaming API?');
      const realPick = vscode.window.showQuickPick.bind(vscode.window) as (...args: unknown[]) => unknown;
      const shown = stubWindow('showQuickPick', (...args: never[]) => realPick(...args));
      const asking = vscode.commands.executeCommand<AskResult | undefined>('apiWorkbench.llm.ask', { connection: FRESH });
      try {
        await waitFor('the model pick', () => shown.calls.length > 0);
        await takeScreenshot('llm-ask-model-pick', 800);
      } finally {
        await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
        assert.equal(await asking, undefined, 'Escape asks nothing');
        shown.restore();
        input.restore();
      }

      let offered: vscode.QuickPickItem[] = [];
      const pick = stubWindow('showQuickPick', (items: vscode.QuickPickItem[]) => {
        offered = items;
        // Enter on what VS Code pre-selects: the first item that is not a separator.
        return items.find((i) => i.kind !== vscode.QuickPickItemKind.Separator);
      });
      const again = stubWindow('showInputBox', () => 'What makes a good streaming API?');
      let asked: AskResult | undefined;
      try {
        asked = await vscode.commands.executeCommand<AskResult>('apiWorkbench.llm.ask', { connection: FRESH });
      } finally {
        pick.restore();
        again.restore();
      }
      assert.equal(asked?.model, 'sandbox-chat');
      assert.equal(asked.outcome, 'done', asked.error);
      const labels = offered.filter((i) => i.kind !== vscode.QuickPickItemKind.Separator).map((i) => i.label);
      for (const id of [
        'babbage-002',
        'davinci-002',
        'dall-e-2',
        'dall-e-3',
        'gpt-image-1',
        'text-embedding-3-small',
        'tts-1',
        'whisper-1',
        'omni-moderation-latest',
      ])
        assert.ok(!labels.includes(id), `${id} cannot chat and is not offered`);
      assert.equal(offered[0].kind, vscode.QuickPickItemKind.Separator);
      assert.equal(offered[0].label, 'Chat models');
      assert.ok(
        told.some((m) => m.startsWith('"sandbox-chat" is now the default model')),
        told.join('\n'),
      );
    } finally {
      note.restore();
    }
  });

  it('a streamed answer arriving live (screenshot), then complete', async () => {
    const prompt = 'Describe the sandbox, slowly.';
    const running = vscode.commands.executeCommand<AskResult>('apiWorkbench.llm.ask', { prompt, model: 'sandbox-chat', connection: SLOW });
    const header = answerHeader('sandbox-chat', SLOW, prompt);
    await waitFor('a third of the answer', () => shownSoFar(header) > sandboxAnswer(askMessages(prompt), 'sandbox-chat').length / 3);
    await takeScreenshot('llm-answer-streaming');
    const result = await running;
    assert.equal(result.outcome, 'done');
    assert.equal(answerPart(result.text, header), sandboxAnswer(askMessages(prompt), 'sandbox-chat'));
  });

  it('cancel mid-stream stops the request at once and keeps a prefix of the answer', async () => {
    const prompt = 'Please take your time.';
    const full = sandboxAnswer(askMessages(prompt), 'sandbox-chat');
    const header = answerHeader('sandbox-chat', SLOW, prompt);
    const cts = new vscode.CancellationTokenSource();
    const running = vscode.commands.executeCommand<AskResult>('apiWorkbench.llm.ask', { prompt, model: 'sandbox-chat', connection: SLOW, cancel: cts.token });
    await waitFor('the first words', () => shownSoFar(header) > 10);
    cts.cancel();
    const result = await running;
    assert.equal(result.outcome, 'cancelled');
    assert.ok(result.answer.length > 0 && result.answer.length < full.length, `kept ${result.answer.length} of ${full.length} characters`);
    assert.ok(full.startsWith(result.answer), 'what arrived is a prefix of the answer');
    assert.equal(answerPart(result.text, header), result.answer);
    assert.match(
      result.text,
      /\n\n---\n\*Cancelled after \d+ ms: the answer above is what had arrived\. About \d+ tokens in \/ \d+ out · ≈\$0\.00 \(estimated: cancelled before the server reported usage\)\. Request id `req_[0-9a-f]+`\.\*\n$/,
    );
    cts.dispose();
  });

  it('429: a countdown from Retry-After in the notification, then the request goes through with the same prompt', async () => {
    const conn = llmConn(api, SLOW);
    assert.ok(conn);
    // Use up the limited model's window (2 requests) on the slow sandbox.
    const client = llmClient(api.services, conn);
    for (let i = 0; i < 2; i++) await client.chat({ model: LIMITED_MODEL, messages: askMessages('fill'), maxTokens: 1 });
    const messages: string[] = [];
    let shot: Promise<unknown> | undefined;
    const original = vscode.window.withProgress;
    const progress = stubWindow(
      'withProgress',
      (opts: vscode.ProgressOptions, task: (p: vscode.Progress<{ message?: string }>, t: vscode.CancellationToken) => Thenable<unknown>) =>
        original(opts, (p, t) =>
          task(
            {
              report: (v) => {
                if (v.message) messages.push(v.message);
                // On the second tick: the notification has had a second to render.
                if (v.message?.includes('HTTP 429') && messages.filter((m) => m.includes('HTTP 429')).length === 2)
                  shot ??= takeScreenshot('llm-rate-limit-countdown');
                p.report(v);
              },
            },
            t,
          ),
        ),
    );
    const prompt = 'Am I rate limited?';
    let result: AskResult;
    try {
      result = await vscode.commands.executeCommand<AskResult>('apiWorkbench.llm.ask', { prompt, model: LIMITED_MODEL, connection: SLOW });
    } finally {
      progress.restore();
    }
    await shot;
    assert.equal(result.outcome, 'done', result.error);
    assert.equal(result.answer, sandboxAnswer(askMessages(prompt), LIMITED_MODEL));
    assert.equal(result.retryWaits.length, 1);
    assert.ok(result.retryWaits[0] > 0 && result.retryWaits[0] <= SLOW_WINDOW_MS);
    const countdown = messages.filter((m) => /^Rate limited \(HTTP 429\) by Slow Sandbox: retrying in \d+ s… Your prompt is kept\.$/.test(m));
    assert.ok(new Set(countdown).size >= 2, `the countdown ticked: ${JSON.stringify(messages)}`);
    assert.match(messages[messages.length - 1], /Receiving/, 'then the answer came');
  });

  it('a mid-stream failure keeps the partial text and appends a clear error (with Retry)', async () => {
    const shown = stubWindow('showErrorMessage', () => undefined);
    const prompt = 'Fail half way, please.';
    let result: AskResult;
    try {
      result = await vscode.commands.executeCommand<AskResult>('apiWorkbench.llm.ask', { prompt, model: FAULTY_MODEL });
    } finally {
      shown.restore();
    }
    const tokens = sandboxAnswerTokens(askMessages(prompt), FAULTY_MODEL);
    assert.equal(result.outcome, 'failed');
    assert.equal(result.errorKind, 'stream');
    assert.equal(result.answer, tokens.slice(0, faultAfterTokens(tokens.length)).join(''));
    const header = answerHeader(FAULTY_MODEL, SANDBOX, prompt);
    assert.equal(result.text, header + result.answer + errorNote(result.error ?? '', true));
    assert.ok(result.document.getText().includes(result.text), 'the Answers document shows it');
    assert.match(result.error ?? '', /server had an error/);
    assert.equal(shown.calls.length, 1);
    assert.deepEqual(shown.calls[0].slice(1), ['Retry', 'Copy as cURL', 'Show Log']);
  });

  it('Ask About Selection sends the selection with the question; Explain Selection needs no question', async () => {
    const code = 'function add(a: number, b: number) {\n  return a + b;\n}\n';
    const doc = await vscode.workspace.openTextDocument({ language: 'typescript', content: code + '\nexport const x = add(1, 2);\n' });
    scratch.push(doc);
    const editor = await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
    editor.selection = new vscode.Selection(0, 0, 2, 1);
    const sel = { code: doc.getText(editor.selection), languageId: 'typescript', where: `${vscode.workspace.asRelativePath(doc.uri)}:1-3` };
    const question = 'Can this overflow?';
    const asked = await vscode.commands.executeCommand<AskResult>('apiWorkbench.llm.askAboutSelection', { question, model: 'sandbox-chat' });
    assert.equal(asked.outcome, 'done');
    assert.equal(asked.answer, sandboxAnswer(selectionMessages(question, sel), 'sandbox-chat'));
    assert.match(asked.text, /> \*About 3 lines of .*:1-3\*/);
    await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
    const explained = await vscode.commands.executeCommand<AskResult>('apiWorkbench.llm.explainSelection', { model: 'sandbox-chat' });
    assert.equal(explained.answer, sandboxAnswer(selectionMessages(EXPLAIN_QUESTION, sel), 'sandbox-chat'));
  });

  it('answers gather in one Answers tab, oldest first; closing it keeps them for Show Answers', async () => {
    const first = await vscode.commands.executeCommand<AskResult>('apiWorkbench.llm.ask', { prompt: 'First of two, in one tab.', model: 'sandbox-chat' });
    const second = await vscode.commands.executeCommand<AskResult>('apiWorkbench.llm.ask', { prompt: 'Second of two.', model: 'sandbox-chat-mini' });
    assert.equal(first.document, second.document, 'one document for both');
    const text = second.document.getText();
    assert.ok(text.indexOf(first.text) >= 0 && text.indexOf(first.text) < text.lastIndexOf(second.text), 'the older answer above the newer');
    assert.equal(answerTabs().length, 1, 'one tab');
    const editor = vscode.window.visibleTextEditors.find((e) => e.document === second.document);
    assert.ok(editor, 'the answers are visible');
    const newest = second.document.positionAt(text.lastIndexOf(second.text));
    assert.equal(editor.selection.active.line, newest.line, "the cursor is on the newest answer's header");
    assert.ok(
      editor.visibleRanges.some((r) => r.contains(newest)),
      'the newest answer is in view',
    );
    // The Outline lists every answer by its header: how the user finds an older one.
    await vscode.window.showTextDocument(second.document, { viewColumn: editor.viewColumn });
    await vscode.commands.executeCommand('outline.focus');
    await takeScreenshot('llm-answers', 800);
    await vscode.commands.executeCommand('workbench.view.extension.apiWorkbench');

    await vscode.window.tabGroups.close(answerTabs());
    assert.equal(answerTabs().length, 0);
    assert.equal(await vscode.commands.executeCommand<boolean>('apiWorkbench.llm.showAnswers'), true);
    const reopened = await waitFor('the Answers tab again', () => {
      const e = vscode.window.activeTextEditor;
      return e?.document.uri.toString() === ANSWERS_URI.toString() ? e : undefined;
    });
    assert.ok(reopened.document.getText().includes(first.text) && reopened.document.getText().includes(second.text), 'both answers are kept');
    assert.equal(answerTabs().length, 1);
  });

  it('tree actions: Set as Default marks the model, Copy Id copies it, Ask This Model asks it', async () => {
    await api.services.connections.setActive('llm', SANDBOX);
    const node = await connectionNode(api, SANDBOX);
    const kids = await loadedChildren(node);
    const mini = kids[(await treeLabels(kids)).indexOf('sandbox-chat-mini')];
    await vscode.commands.executeCommand('apiWorkbench.llm.setDefaultModel', mini);
    const item = await mini.toTreeItem();
    assert.match(String(item.description), /★ default/);
    assert.equal(item.contextValue, 'llm.model.default');
    assert.match(String((await node.toTreeItem()).description), /sandbox-chat-mini/, 'the connection shows its model');

    await vscode.commands.executeCommand('apiWorkbench.llm.copyModelId', mini);
    assert.equal(await vscode.env.clipboard.readText(), 'sandbox-chat-mini');

    const asked = await vscode.commands.executeCommand<AskResult>('apiWorkbench.llm.askModel', mini, { prompt: 'Hello, mini.' });
    assert.equal(asked.model, 'sandbox-chat-mini');
    assert.equal(asked.answer, sandboxAnswer(askMessages('Hello, mini.'), 'sandbox-chat-mini'));
  });

  it('the status bar count: requests left this minute under the client-side limit goes down per request', async () => {
    // A connection of its own to the sandbox: the limiter counts per connection, so no request of an
    // earlier test is in its window, and none can leave the (sliding) window while we look (a minute
    // after this test's first request).
    const info = api.services.sandbox.info;
    assert.ok(info, 'the sandbox runs');
    const configured = userConfig().get<unknown[]>('llm.connections') ?? [];
    await userConfig().update('llm.connections', [...configured, { name: COUNTED, baseUrl: info.llm.baseUrl }], vscode.ConfigurationTarget.Global);
    const conn = await waitFor('the counted connection', () => llmConn(api, COUNTED));
    await api.services.secrets.set(conn, info.llm.apiKey, [new URL(info.llm.baseUrl).origin]);
    await api.services.connections.setActive('llm', COUNTED);
    // The view lists the new connection's models with requests of its own: let those finish first.
    await waitFor('the models of the counted connection', async () =>
      (await treeLabels(await loadedChildren(await connectionNode(api, COUNTED)))).includes('sandbox-chat'),
    );
    const before = requestsLeft(api.services, conn, 'sandbox-chat');
    assert.equal(before.limit, conn.rateLimitPerMinute);
    const asked = await vscode.commands.executeCommand<AskResult>('apiWorkbench.llm.ask', { prompt: 'count me', model: 'sandbox-chat', connection: COUNTED });
    assert.equal(asked.outcome, 'done', asked.error);
    assert.equal(before.left - requestsLeft(api.services, conn, 'sandbox-chat').left, 1, 'one request, one fewer left');
    await vscode.commands.executeCommand('workbench.view.extension.apiWorkbench');
    await takeScreenshot('llm-tree-and-status', 800);
    await api.services.connections.setActive('llm', SANDBOX);
  });
});
