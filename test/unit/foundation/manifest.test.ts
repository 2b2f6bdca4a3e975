import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { COMMAND_IDS } from '../../../src/editor/commandIds';

interface Manifest {
  activationEvents?: string[];
  engines: { vscode: string };
  devDependencies: Record<string, string>;
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    menus: Record<string, { command: string; when?: string }[]>;
    views: Record<string, { id: string }[]>;
    viewsWelcome: { view: string; contents: string; when?: string }[];
    configuration: { properties: Record<string, { scope?: string }> };
  };
  capabilities?: { untrustedWorkspaces?: { supported: boolean | string } };
}

const manifest = JSON.parse(readFileSync(path.join(__dirname, '../../../../package.json'), 'utf8')) as Manifest;
const contributed = manifest.contributes.commands.map((c) => c.command);

describe('package.json manifest', () => {
  it('declares exactly the command ids the code knows (typed table)', () => {
    assert.deepEqual([...contributed].sort(), [...COMMAND_IDS].sort());
  });

  it('names commands <ext>.<service>.<verb> and gives each a category', () => {
    for (const c of manifest.contributes.commands) {
      assert.match(c.command, /^apiWorkbench\.(?:(?:llm|maps|realtime|sandbox)\.[a-zA-Z]+|showLog)$/, c.command);
      assert.ok(c.category, `${c.command} has no category`);
    }
  });

  it('hides tree-only commands from the palette', () => {
    const hidden = new Set(manifest.contributes.menus.commandPalette.filter((m) => m.when === 'false').map((m) => m.command));
    for (const id of ['apiWorkbench.llm.askModel', 'apiWorkbench.llm.setDefaultModel', 'apiWorkbench.llm.copyModelId', 'apiWorkbench.maps.showResult', 'apiWorkbench.realtime.publishHere', 'apiWorkbench.realtime.copyChannelName']) {
      assert.ok(hidden.has(id), `${id} should be hidden from the palette`);
    }
  });

  it('every menu entry refers to a contributed command', () => {
    const known = new Set(contributed);
    for (const [menu, entries] of Object.entries(manifest.contributes.menus)) {
      for (const e of entries) assert.ok(known.has(e.command), `${menu}: ${e.command}`);
    }
  });

  it('activates lazily (never on "*")', () => {
    assert.ok(!(manifest.activationEvents ?? []).includes('*'));
  });

  it('has one view per service, each with welcome content linking Connect… and the sandbox', () => {
    const ids = manifest.contributes.views.apiWorkbench.map((v) => v.id);
    assert.deepEqual(ids, ['apiWorkbench.llm', 'apiWorkbench.maps', 'apiWorkbench.realtime']);
    for (const id of ids) {
      const welcome = manifest.contributes.viewsWelcome.filter((w) => w.view === id).map((w) => w.contents).join('\n');
      assert.match(welcome, /\(command:apiWorkbench\.(llm|maps|realtime)\.addConnection\)/);
      assert.match(welcome, /\(command:apiWorkbench\.sandbox\.start\)/);
    }
  });

  it('scopes endpoint settings to application/machine so a workspace cannot redirect a key', () => {
    for (const [key, prop] of Object.entries(manifest.contributes.configuration.properties)) {
      if (/connections$|sandbox\.port$/.test(key)) assert.ok(prop.scope === 'application' || prop.scope === 'machine', `${key} scope ${prop.scope}`);
    }
  });

  it('targets VS Code no newer than 1.100, with matching @types/vscode', () => {
    assert.match(manifest.engines.vscode, /^\^1\.(\d+)\.0$/);
    const minor = Number(/^\^1\.(\d+)/.exec(manifest.engines.vscode)![1]);
    assert.ok(minor <= 100);
    assert.match(manifest.devDependencies['@types/vscode'], new RegExp(`^~?1\\.${minor}\\.`));
  });

  it('runs in restricted mode in untrusted workspaces', () => {
    assert.equal(manifest.capabilities?.untrustedWorkspaces?.supported, 'limited');
  });
});
