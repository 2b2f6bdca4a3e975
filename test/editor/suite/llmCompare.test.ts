// Language models, deeper, in the real editor: Compare side by side, the cost of a request and
// today's total, the daily budget question, and the keyless local-server presets of Add Connection.
import * as assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import type { AskResult } from '../../../src/editor/llm/ask';
import type { CompareOutcome } from '../../../src/editor/llm/comparePanel';
import { dayOf, formatUsd, LEDGER_KEY } from '../../../src/features/llm/costLedger';
import { askMessages } from '../../../src/features/llm/prompts';
import type { RenderedColumn } from '../../../src/services/llm/compareMessages';
import { sandboxAnswer } from '../../../src/sandbox/llm';
import { takeScreenshot } from '../harness/suiteApi';
import { findConnectionNode, loadedChildren, SANDBOX, stubWindow, treeLabels, trustedSandbox, userConfig, waitFor } from './kit';

const g = vscode.ConfigurationTarget.Global;

describe('llm compare, cost and presets', function () {
  this.timeout(120_000);
  let api: ExtensionApi;

  before(async function () {
    ({ api } = await trustedSandbox(this));
    await api.services.connections.setActive('llm', SANDBOX);
  });

  it('Compare: two sandbox models stream side by side, each column with tokens, latency, first token and cost (screenshot) @smoke', async () => {
    const prompt = 'In one sentence: what makes a good API?';
    const models = ['sandbox-chat', 'sandbox-chat-mini'];
    const outcome = await vscode.commands.executeCommand<CompareOutcome>('apiWorkbench.llm.compare', { prompt, models });
    assert.equal(outcome.connection, SANDBOX);
    assert.deepEqual(
      outcome.results.map((r) => r.outcome),
      ['done', 'done'],
    );
    const rendered = outcome.rendered;
    assert.ok(rendered, 'the webview reported what it shows');
    for (const [i, model] of models.entries()) {
      const col: RenderedColumn = rendered[i];
      assert.equal(col.model, model);
      assert.equal(col.state, 'done');
      assert.equal(col.text, sandboxAnswer(askMessages(prompt), model), `${model}: the column shows the whole answer`);
      assert.match(col.footer, /^\d+ in \/ \d+ out tokens · latency \d+(\.\d+)? m?s · first token \d+(\.\d+)? m?s · \$0\.00 · request id \S+$/);
    }
    await vscode.commands.executeCommand('notifications.clearAll');
    await takeScreenshot('llm-compare', 600);
  });

  it('Compare: a failing column (unknown model, a stream that breaks off) shows why there; the others complete', async () => {
    const prompt = 'Keep going whatever happens.';
    const outcome = await vscode.commands.executeCommand<CompareOutcome>('apiWorkbench.llm.compare', {
      prompt,
      models: ['no-such-model', 'sandbox-chat-faulty', 'sandbox-chat'],
    });
    const [unknown, faulty, ok] = outcome.rendered ?? [];
    assert.equal(unknown.state, 'failed');
    assert.match(unknown.footer, /^Failed: HTTP 404 \(model_not_found\): .*no-such-model.* Request id \S+\.$/);
    assert.equal(faulty.state, 'failed');
    assert.ok(faulty.text.length > 0, 'the part that arrived stays in the column');
    assert.match(
      faulty.footer,
      new RegExp(`^Stopped mid-answer after .*The ${faulty.text.length} characters that arrived are kept above\\. Request id \\S+\\.$`),
    );
    assert.equal(ok.state, 'done');
    assert.equal(ok.text, sandboxAnswer(askMessages(prompt), 'sandbox-chat'));
    await vscode.commands.executeCommand('notifications.clearAll');
    await takeScreenshot('llm-compare-failures', 600);
  });

  it('cost: priced from the setting in the answer, added to today in the status bar tooltip; the budget asks first', async () => {
    const state = api.services.context.globalState;
    const savedLedger = state.get<unknown>(LEDGER_KEY);
    await userConfig().update('llm.prices', { 'sandbox-chat-mini': { input: 1000, output: 2000 } }, g);
    let warnings = stubWindow('showWarningMessage', () => undefined);
    try {
      const asked = await vscode.commands.executeCommand<AskResult>('apiWorkbench.llm.ask', { prompt: 'What does this cost?', model: 'sandbox-chat-mini' });
      assert.equal(asked.outcome, 'done');
      assert.ok(asked.usage);
      const expected = (asked.usage.prompt_tokens * 1000 + (asked.usage.completion_tokens ?? 0) * 2000) / 1e6;
      assert.equal(asked.cost, formatUsd(expected));
      const note = ` out · ${formatUsd(expected)} · `;
      await waitFor(`the cost beside the tokens in the answer ("${note}" in …${asked.document.getText().slice(-200)})`, () =>
        asked.document.getText().includes(note),
      );
      // Today's total (the status bar tooltip reads it) is persisted and includes this request.
      const day = dayOf(new Date());
      const total = await waitFor("today's total", () => {
        const days = state.get<Record<string, { usd: number }>>(LEDGER_KEY);
        const usd = days?.[day]?.usd ?? 0;
        return usd >= expected - 1e-9 && usd;
      });
      assert.ok(total > 0.01, 'past the budget set next');

      // Budget: today's spend is already past a tiny budget, so the next request asks first.
      await userConfig().update('llm.dailyBudget', 0.01, g);
      const declined = await vscode.commands.executeCommand<AskResult | undefined>('apiWorkbench.llm.ask', {
        prompt: 'And this one?',
        model: 'sandbox-chat-mini',
      });
      assert.equal(declined, undefined, 'declined: nothing sent');
      const question = warnings.calls.find((c) => c[0] === 'This may pass your daily language-model budget.');
      assert.ok(question, `the budget question was asked: ${JSON.stringify(warnings.calls.map((c) => c[0]))}`);
      assert.match(
        String((question[1] as { detail?: string }).detail),
        /This request may cost up to \$.*daily budget of \$0\.01 \(apiWorkbench\.llm\.dailyBudget\)/,
      );
      assert.deepEqual(question.slice(2), ['Send Anyway']);

      warnings.restore();
      warnings = stubWindow('showWarningMessage', () => 'Send Anyway');
      const sent = await vscode.commands.executeCommand<AskResult>('apiWorkbench.llm.ask', { prompt: 'And this one?', model: 'sandbox-chat-mini' });
      assert.equal(sent.outcome, 'done', 'Send Anyway sends it');
    } finally {
      warnings.restore();
      await userConfig().update('llm.dailyBudget', undefined, g);
      await userConfig().update('llm.prices', undefined, g);
      await state.update(LEDGER_KEY, savedLedger);
    }
  });

  it("notebook LLM cells count in today's total, and the budget asks before one is sent (declined: the cell says why)", async () => {
    const state = api.services.context.globalState;
    const savedLedger = state.get<unknown>(LEDGER_KEY);
    await userConfig().update('llm.prices', { 'sandbox-chat-mini': { input: 1000, output: 2000 } }, g);
    const cell = [
      'POST /chat/completions',
      'Content-Type: application/json',
      '',
      '{"model": "sandbox-chat-mini", "messages": [{"role": "user", "content": "Count me in today."}]}',
      '',
    ].join('\n');
    const nb = await vscode.workspace.openNotebookDocument(
      'api-workbench-notebook',
      new vscode.NotebookData([new vscode.NotebookCellData(vscode.NotebookCellKind.Code, cell, 'llm')]),
    );
    await vscode.window.showNotebookDocument(nb);
    let warnings = stubWindow('showWarningMessage', () => undefined);
    try {
      await state.update(LEDGER_KEY, {});
      const ran = await api.notebook().controller.runCell(nb, 0);
      assert.equal(ran?.ok, true, JSON.stringify(ran?.error));
      const usage = (ran.response?.json as { usage: { prompt_tokens: number; completion_tokens: number } }).usage;
      const expected = (usage.prompt_tokens * 1000 + usage.completion_tokens * 2000) / 1e6;
      const day = dayOf(new Date());
      const today = await waitFor("the cell in today's total", () => state.get<Record<string, { usd: number; requests: number }>>(LEDGER_KEY)?.[day]);
      assert.equal(today.requests, 1);
      assert.ok(Math.abs(today.usd - expected) < 1e-9, `${today.usd} vs ${expected}`);

      await userConfig().update('llm.dailyBudget', 0.01, g);
      const refused = await api.notebook().controller.runCell(nb, 0);
      assert.equal(refused?.ok, false);
      assert.equal(refused.response, undefined, 'nothing was sent');
      assert.match(refused.error ?? '', /not sent: it may pass your daily language-model budget \(apiWorkbench\.llm\.dailyBudget\)/);
      assert.ok(
        warnings.calls.some((c) => c[0] === 'This may pass your daily language-model budget.'),
        'the same question as Ask',
      );

      warnings.restore();
      warnings = stubWindow('showWarningMessage', () => 'Send Anyway');
      const sent = await api.notebook().controller.runCell(nb, 0);
      assert.equal(sent?.ok, true, 'Send Anyway sends it');
      await waitFor('the second request in the total', () => state.get<Record<string, { requests: number }>>(LEDGER_KEY)?.[day]?.requests === 2);
    } finally {
      warnings.restore();
      await userConfig().update('llm.dailyBudget', undefined, g);
      await userConfig().update('llm.prices', undefined, g);
      await state.update(LEDGER_KEY, savedLedger);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });

  it('a malformed price entry is reported naming the setting, and the defaults stay', async () => {
    const warnings = stubWindow('showWarningMessage', () => undefined);
    try {
      await userConfig().update('llm.prices', { 'gpt-4o': { input: 'two', output: 10 } }, g);
      const asked = await vscode.commands.executeCommand<AskResult>('apiWorkbench.llm.ask', { prompt: 'Still free?', model: 'sandbox-chat' });
      assert.equal(asked.cost, '$0.00');
      const shown = warnings.calls.map((c) => String(c[0]));
      assert.ok(
        shown.some((m) => /^Setting apiWorkbench\.llm\.prices, entry "gpt-4o": .*the default price is kept\.$/.test(m)),
        JSON.stringify(shown),
      );
    } finally {
      warnings.restore();
      await userConfig().update('llm.prices', undefined, g);
    }
  });

  it('Ask does not change the default model silently', async () => {
    const conn = api.services.connections.active('llm');
    assert.ok(conn);
    await vscode.commands.executeCommand('apiWorkbench.llm.setDefaultModel', { conn, model: { id: 'sandbox-chat' } });
    await vscode.commands.executeCommand<AskResult>('apiWorkbench.llm.ask', { prompt: 'Just this once.', model: 'sandbox-chat-mini' });
    const node = await findConnectionNode(api, 'llm', SANDBOX);
    assert.ok(node);
    assert.match(String((await node.toTreeItem()).description), /sandbox-chat(?!-mini)/, 'the tree still shows the default');
  });

  it('presets: Ollama (local) needs no key, sends none, and lists the models', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server: Server = createServer((req, res) => {
      seen.push(req.headers);
      res.setHeader('content-type', 'application/json');
      if (req.url === '/v1/models')
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'llama3.2:1b', object: 'model', owned_by: 'library', created: 1_700_000_000 }] }));
      else res.writeHead(404).end(JSON.stringify({ error: { message: 'not here', type: 'invalid_request_error' } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const name = 'My Ollama';
    const picks = stubWindow('showQuickPick', (items: (vscode.QuickPickItem & { detail?: string })[]) => {
      const labels = items.map((i) => i.label);
      for (const l of ['OpenAI', 'Azure OpenAI / AI Foundry (v1 API)', 'Ollama (local)', 'LM Studio (local)', 'vLLM (local)'])
        assert.ok(labels.includes(l), `preset ${l} offered`);
      assert.match(items.find((i) => i.label === 'LM Studio (local)')?.detail ?? '', /^http:\/\/localhost:1234\/v1 · no key/);
      assert.match(items.find((i) => i.label === 'vLLM (local)')?.detail ?? '', /^http:\/\/localhost:8000\/v1 · no key/);
      return items.find((i) => i.label === 'Ollama (local)');
    });
    const boxes: vscode.InputBoxOptions[] = [];
    const inputs = stubWindow('showInputBox', (o: vscode.InputBoxOptions) => {
      boxes.push(o);
      return boxes.length === 1 ? base : name;
    });
    const infos = stubWindow('showInformationMessage', () => undefined);
    try {
      await vscode.commands.executeCommand('apiWorkbench.llm.addConnection');
      assert.equal(boxes.length, 2, 'base URL and name only: no key box');
      assert.equal(boxes[0].value, 'http://localhost:11434/v1', 'the usual Ollama URL is offered');
      const entry = (userConfig().inspect<{ name: string; auth?: unknown }[]>('llm.connections')?.globalValue ?? []).find((e) => e.name === name);
      assert.deepEqual(entry, { name, baseUrl: base, auth: { placement: 'none' } });
      assert.match(String(infos.calls[0]?.[0]), /No key is needed or sent/);
      const node = await waitFor('the Ollama node', () => findConnectionNode(api, 'llm', name));
      const kids = await loadedChildren(node);
      assert.deepEqual(await treeLabels(kids), ['llama3.2:1b'], 'models, not "Set API Key…"');
      assert.ok(seen.length > 0 && seen.every((h) => h.authorization === undefined && h['api-key'] === undefined), 'no key header was sent');
    } finally {
      picks.restore();
      inputs.restore();
      infos.restore();
      await userConfig().update(
        'llm.connections',
        (userConfig().inspect<{ name: string }[]>('llm.connections')?.globalValue ?? []).filter((e) => e.name !== name),
        g,
      );
      await api.services.connections.setActive('llm', SANDBOX);
      server.close();
    }
  });
});
