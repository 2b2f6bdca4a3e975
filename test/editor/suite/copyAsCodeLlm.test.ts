// Copy as Code… from the LLM playground (its button: the whole conversation as the playground sends
// it, streamed, with its tools; screenshot playground-copy-as-code) and from an LLM answer (the
// Answers document's title bar: the request that produced the answer), in the real editor against
// the sandbox. The key is an environment read, never its value.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CopiedCode } from '../../../src/editor/codeCopy';
import type { AskResult } from '../../../src/editor/llm/ask';
import type { PlaygroundPanel } from '../../../src/editor/llm/playgroundPanel';
import { defaultSettings, type PlaygroundSettings } from '../../../src/services/llm/playgroundMessages';
import type { SandboxInfo } from '../../../src/sandbox/types';
import { canDriveWebviews, inWebview, takeScreenshot } from '../harness/suiteApi';
import { SANDBOX, sandboxKeys, stubWindow, trustedSandbox, waitFor } from './kit';

describe('Copy as Code from the playground and an LLM answer', function () {
  this.timeout(120_000);
  let info: SandboxInfo;

  before(async function () {
    const sandbox = await trustedSandbox(this);
    info = sandbox.info;
    await sandbox.api.services.connections.setActive('maps', SANDBOX);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  function assertNoKey(what: string, text: string): void {
    for (const key of sandboxKeys(info)) assert.ok(!text.includes(key), `a sandbox key is in ${what}`);
  }

  it('Playground › Copy as Code…: the whole conversation, streamed as a loop, to the connection; the last language first (screenshot)', async () => {
    const panel = await vscode.commands.executeCommand<PlaygroundPanel>('apiWorkbench.llm.openPlayground', { connection: SANDBOX, model: 'sandbox-chat' });
    assert.ok(panel);
    try {
      await panel.whenRendered(0);
      const settings: PlaygroundSettings = {
        ...defaultSettings('sandbox-chat'),
        system: 'You help plan city trips. Use the tools.',
        temperature: 0.4,
        tools: ['search_places'],
      };
      panel.load(settings, []);
      await panel.receive({ type: 'send', text: 'Search places to visit in Lisbon.', settings });
      assert.deepEqual(
        panel.conversation.map((t) => t.kind),
        ['user', 'assistant', 'tool', 'assistant'],
      );

      // Given the language, as a caller does: it becomes the last used.
      const sdk = await panel.copyAsCode('javascript-sdk');
      assert.ok(sdk);
      assert.ok(sdk.text.includes(`baseURL: "${info.llm.baseUrl}"`), 'the code goes to the connection’s base URL');
      assert.match(sdk.text, /^for await \(const chunk of response\) \{$/m, 'the stream is read in a loop');
      assert.match(sdk.text, /stream: true/);
      assert.match(sdk.text, /temperature: 0\.4/);
      assert.match(sdk.text, /role: "system",\s+content: "You help plan city trips\. Use the tools\."/);
      assert.match(sdk.text, /role: "tool",\s+tool_call_id: /, 'the tool call’s result is in the conversation');
      assert.match(sdk.text, /name: "search_places"/, 'the tools are offered');
      assert.match(sdk.text, /OPENAI_API_KEY/);
      assertNoKey('the playground’s code', sdk.text);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');

      // The button in the page: the language pick, the last one used first.
      panel.reveal();
      await vscode.env.clipboard.writeText('');
      // The real quick pick, watched: accepted once it is up (a click's message can take a while on a loaded machine).
      const realPick = vscode.window.showQuickPick.bind(vscode.window) as (...args: unknown[]) => unknown;
      const pickShown = stubWindow('showQuickPick', (...args: never[]) => realPick(...args));
      try {
        const clicked = canDriveWebviews()
          ? inWebview({ selector: '#copyCode', action: 'click' })
          : panel.receive({ type: 'copyAsCode', settings: panel.settings });
        await waitFor('the language pick', () => pickShown.calls.length > 0, 30_000);
        await new Promise((r) => setTimeout(r, 700));
        await vscode.commands.executeCommand('notifications.clearAll');
        await takeScreenshot('playground-copy-as-code', 300);
        await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
        await clicked;
      } finally {
        pickShown.restore();
      }
      const copied = await waitFor('the code on the clipboard', async () => (await vscode.env.clipboard.readText()) || undefined, 15_000);
      assert.equal(copied, sdk.text, 'JavaScript SDK, the last language used, was offered first');
      // The clipboard is written first, then the editor beside opens.
      await waitFor('the code shown beside', () => vscode.window.activeTextEditor?.document.getText() === copied, 15_000);
    } finally {
      panel.dispose();
    }
  });

  it('an LLM answer › Copy as Code…: the request that produced it, from the Answers title bar', async () => {
    const asked = await vscode.commands.executeCommand<AskResult | undefined>('apiWorkbench.llm.ask', {
      model: 'sandbox-chat',
      prompt: 'Name one bridge in Porto.',
      connection: SANDBOX,
    });
    assert.equal(asked?.outcome, 'done');
    const titleBar = (vscode.extensions.getExtension('api-workbench.api-workbench')?.packageJSON as { contributes: { menus: Record<string, unknown[]> } })
      .contributes.menus['editor/title'] as Array<{ command: string; when?: string }>;
    assert.match(
      titleBar.find((m) => m.command === 'apiWorkbench.history.copyAsCode')?.when ?? '',
      /resourceScheme == '?api-workbench-answer\b/,
      'the action is in the Answers document’s title bar',
    );

    // What the title bar passes: the Answers document's URI (the answer at the cursor is the newest).
    const copied = await vscode.commands.executeCommand<CopiedCode | undefined>('apiWorkbench.history.copyAsCode', asked.document.uri, 'python-sdk');
    assert.ok(copied);
    assert.equal(copied.language, 'python-sdk');
    assert.match(copied.text, /"content": "Name one bridge in Porto\."/);
    assert.match(copied.text, /^for chunk in response:$/m, 'Ask streams its answer: the code reads the stream in a loop');
    assert.ok(copied.text.includes(`base_url="${info.llm.baseUrl}"`), 'the code goes to the connection’s base URL');
    assert.equal(await vscode.env.clipboard.readText(), copied.text);
    assertNoKey('the answer’s code', copied.text);
  });
});
