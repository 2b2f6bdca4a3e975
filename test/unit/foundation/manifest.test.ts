import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { COMMAND_IDS } from '../../../src/features/commandIds';
import {
  ALL_VIEW_IDS,
  CONFIG_SECTION,
  CONTEXT_HAS_ENVIRONMENTS,
  CONTEXT_KEYS,
  NOTEBOOK_CONTROLLER_ID,
  NOTEBOOK_FILE_PATTERN,
  NOTEBOOK_LANGUAGES,
  NOTEBOOK_TYPE,
  REALTIME_INSPECTOR_CONTAINER_ID,
  REALTIME_INSPECTOR_VIEW_ID,
  RESULT_MIME,
  RESULT_RENDERER_ID,
  SETTING_KEYS,
  STATE_KEYS,
  VIEW_CONTAINER_ID,
} from '../../../src/features/ids';
import { SETTINGS } from '../../../src/features/settings';
import { CODE_LANGUAGES } from '../../../src/notebook/api';
import { RESULT_MIME as VIEWER_MIME } from '../../../src/webview/result/protocol';

interface WalkthroughStep {
  id: string;
  title: string;
  description: string;
  media: { markdown?: string; image?: string };
  completionEvents?: string[];
}

interface Manifest {
  displayName: string;
  description: string;
  activationEvents?: string[];
  engines: { vscode: string };
  devDependencies: Record<string, string>;
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    menus: Record<string, { command: string; when?: string }[]>;
    views: Record<string, { id: string }[]>;
    viewsWelcome: { view: string; contents: string; when?: string }[];
    configuration: { properties: Record<string, { scope?: string; default?: unknown }> };
    walkthroughs: { id: string; title: string; description: string; steps: WalkthroughStep[] }[];
    notebooks: { type: string; selector: { filenamePattern: string }[]; priority?: string }[];
    notebookRenderer: { id: string; entrypoint: string; mimeTypes: string[] }[];
    languages: { id: string }[];
    grammars: { language: string; path: string }[];
  };
  capabilities?: { untrustedWorkspaces?: { supported: boolean | string } };
}

const root = path.join(__dirname, '../../../..');
const manifestText = readFileSync(path.join(root, 'package.json'), 'utf8');
const nls = JSON.parse(readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const PLACEHOLDER = /^%([\w.-]+)%$/;

/** What VS Code shows for a manifest string: "%key%" looked up in package.nls.json. */
function localize(value: string): string {
  const key = PLACEHOLDER.exec(value)?.[1];
  if (key === undefined) return value;
  const text = nls[key];
  assert.ok(text !== undefined, `package.nls.json has no "${key}"`);
  return text;
}

/** Every string of the manifest localized, as the editor reads it. */
function localized(v: unknown): unknown {
  if (typeof v === 'string') return localize(v);
  if (Array.isArray(v)) return v.map(localized);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, localized(x)]));
  return v;
}

const manifest = localized(JSON.parse(manifestText)) as Manifest;
const contributed = manifest.contributes.commands.map((c) => c.command);

describe('package.json manifest', () => {
  it('declares exactly the command ids the code knows (typed table)', () => {
    assert.deepEqual([...contributed].sort(), [...COMMAND_IDS].sort());
  });

  it('declares exactly the view ids and setting keys the code knows (typed tables)', () => {
    assert.deepEqual(manifest.contributes.views[VIEW_CONTAINER_ID].map((v) => v.id).sort(), [...ALL_VIEW_IDS].sort());
    assert.deepEqual(
      manifest.contributes.views[REALTIME_INSPECTOR_CONTAINER_ID].map((v) => v.id),
      [REALTIME_INSPECTOR_VIEW_ID],
    );
    const settings = Object.keys(manifest.contributes.configuration.properties).map((k) => k.slice(CONFIG_SECTION.length + 1));
    assert.deepEqual(settings.sort(), [...SETTING_KEYS].sort());
  });

  it('every apiWorkbench.* name in a `when` clause is a view id or a context key the code sets', () => {
    const known = new Set<string>([
      ...ALL_VIEW_IDS,
      CONTEXT_KEYS.restricted,
      ...Object.values(CONTEXT_KEYS.hasConnection),
      CONTEXT_KEYS.realtimeConnected,
      CONTEXT_KEYS.webhookReceiverRunning,
      CONTEXT_HAS_ENVIRONMENTS,
    ]);
    const whens = [...manifestText.matchAll(/"when":\s*"([^"]*)"/g)].map((m) => m[1]);
    assert.ok(whens.length > 10);
    for (const when of whens)
      for (const [name] of when.matchAll(/apiWorkbench(?:\.[A-Za-z]+)+/g)) assert.ok(known.has(name), `unknown context key or view in when clause: ${name}`);
  });

  it("the walkthrough's steps are ticked by what the code does: each onContext event is a context key the code sets; the sandbox step also when the sandbox was started another way", () => {
    const keys = new Set<string>([
      CONTEXT_KEYS.restricted,
      ...Object.values(CONTEXT_KEYS.hasConnection),
      CONTEXT_KEYS.realtimeConnected,
      CONTEXT_KEYS.webhookReceiverRunning,
      CONTEXT_KEYS.sandboxRunning,
    ]);
    const steps = (
      manifest.contributes as unknown as { walkthroughs: Array<{ steps: Array<{ id: string; completionEvents?: string[] }> }> }
    ).walkthroughs.flatMap((w) => w.steps);
    for (const e of steps.flatMap((st) => st.completionEvents ?? []).filter((x) => x.startsWith('onContext:')))
      assert.ok(keys.has(e.slice('onContext:'.length)), `${e} names no context key the code sets`);
    assert.ok(steps.find((st) => st.id === 'sandbox')?.completionEvents?.includes(`onContext:${CONTEXT_KEYS.sandboxRunning}`));
  });

  it('builds no id from a template string: every id comes from a typed table (src/editor/ids.ts, commandIds.ts)', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        if (statSync(file).isDirectory()) walk(file);
        else if (file.endsWith('.ts') && readFileSync(file, 'utf8').includes('`apiWorkbench.${')) offenders.push(path.relative(root, file));
      }
    };
    walk(path.join(root, 'src'));
    assert.deepEqual(offenders, []);
    assert.ok(Object.values(STATE_KEYS).every((k) => k.startsWith(`${CONFIG_SECTION}.`)));
  });

  it('names commands <ext>.<service>.<verb> and gives each a category', () => {
    for (const c of manifest.contributes.commands) {
      assert.match(
        c.command,
        /^apiWorkbench\.(?:(?:llm|maps|realtime|sandbox|history|notebook)\.[a-zA-Z]+|showLog|exportConnections|diagnoseConnection)$/,
        c.command,
      );
      assert.ok(c.category, `${c.command} has no category`);
    }
  });

  it('hides tree-only commands from the palette', () => {
    const hidden = new Set(manifest.contributes.menus.commandPalette.filter((m) => m.when === 'false').map((m) => m.command));
    for (const id of [
      'apiWorkbench.llm.askModel',
      'apiWorkbench.llm.setDefaultModel',
      'apiWorkbench.llm.copyModelId',
      'apiWorkbench.maps.showResult',
      'apiWorkbench.realtime.publishHere',
      'apiWorkbench.realtime.copyChannelName',
    ]) {
      assert.ok(hidden.has(id), `${id} should be hidden from the palette`);
    }
  });

  it('every menu entry refers to a contributed command', () => {
    const known = new Set(contributed);
    for (const [menu, entries] of Object.entries(manifest.contributes.menus)) {
      for (const e of entries) assert.ok(known.has(e.command), `${menu}: ${e.command}`);
    }
  });

  it('keeps user-facing text in package.nls.json: every placeholder resolves, every entry is used', () => {
    const used = new Set([...manifestText.matchAll(/"%([\w.-]+)%"/g)].map((m) => m[1]));
    for (const key of used) assert.ok(nls[key] !== undefined, `package.nls.json has no "${key}"`);
    assert.deepEqual(
      Object.keys(nls).filter((k) => !used.has(k)),
      [],
      'unused package.nls.json entries',
    );
    const raw = JSON.parse(manifestText) as Manifest;
    for (const c of raw.contributes.commands) {
      assert.match(c.title, PLACEHOLDER, `${c.command} title`);
      assert.match(c.category ?? '', PLACEHOLDER, `${c.command} category`);
    }
    for (const w of raw.contributes.viewsWelcome) assert.match(w.contents, PLACEHOLDER, `${w.view} welcome`);
    assert.match(raw.displayName, PLACEHOLDER);
    assert.match(raw.description, PLACEHOLDER);
    assert.equal(manifest.displayName, 'API Workbench: LLM, Maps & Realtime');
  });

  it('offers Copy Last Request as cURL in the Language Models and Maps views and on their documents', () => {
    for (const svc of ['llm', 'maps']) {
      const id = `apiWorkbench.${svc}.copyAsCurl`;
      assert.equal(manifest.contributes.commands.find((c) => c.command === id)?.title, 'Copy Last Request as cURL');
      assert.ok(
        manifest.contributes.menus['view/title'].some((m) => m.command === id && m.when === `view == apiWorkbench.${svc}`),
        `${id} in the view's menu`,
      );
      assert.ok(
        manifest.contributes.menus['editor/title'].some((m) => m.command === id && /resourceScheme == api-workbench-/.test(m.when ?? '')),
        `${id} in the editor title`,
      );
    }
  });

  it('has a Get Started walkthrough whose steps have media, command links and completion events that exist', () => {
    const [walkthrough] = manifest.contributes.walkthroughs;
    assert.ok(walkthrough, 'no walkthrough');
    assert.deepEqual(
      walkthrough.steps.map((s) => s.id),
      ['sandbox', 'connect', 'ask', 'route', 'watch', 'curl', 'notebook'],
    );
    const known = new Set(contributed);
    for (const step of walkthrough.steps) {
      assert.ok(step.title && step.description, step.id);
      const media = step.media.markdown ?? step.media.image;
      assert.ok(media && existsSync(path.join(root, media)), `${step.id}: media ${media} missing`);
      if (step.media.markdown) {
        const md = readFileSync(path.join(root, step.media.markdown), 'utf8');
        for (const [, img] of md.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g))
          assert.ok(existsSync(path.join(root, path.dirname(step.media.markdown), img)), `${step.id}: image ${img} missing`);
      }
      const links = [...step.description.matchAll(/\(command:([\w.]+)/g)].map((m) => m[1]);
      assert.ok(links.length > 0, `${step.id} has no command button`);
      for (const id of links) assert.ok(known.has(id), `${step.id}: link to unknown command ${id}`);
      assert.ok(step.completionEvents?.length, `${step.id} never completes`);
      // onContext events are checked against the context keys below.
      for (const e of (step.completionEvents ?? []).filter((x) => !x.startsWith('onContext:'))) {
        const id = /^onCommand:(.+)$/.exec(e)?.[1];
        assert.ok(id && known.has(id), `${step.id}: completion event ${e}`);
      }
    }
  });

  it('activates lazily (never on "*")', () => {
    assert.ok(!(manifest.activationEvents ?? []).includes('*'));
  });

  it('has one view per service, each with welcome content linking Connect… and the sandbox, then the History', () => {
    const all = manifest.contributes.views.apiWorkbench.map((v) => v.id);
    assert.deepEqual(all, ['apiWorkbench.llm', 'apiWorkbench.maps', 'apiWorkbench.realtime', 'apiWorkbench.history']);
    const ids = all.slice(0, 3);
    for (const id of ids) {
      const welcome = manifest.contributes.viewsWelcome
        .filter((w) => w.view === id)
        .map((w) => w.contents)
        .join('\n');
      assert.match(welcome, /\(command:apiWorkbench\.(llm|maps|realtime)\.addConnection\)/);
      assert.match(welcome, /\(command:apiWorkbench\.sandbox\.start\)/);
    }
  });

  it('each setting has one default: the one the code reads (features/settings.ts) is the one the Settings editor shows', () => {
    const { properties } = manifest.contributes.configuration;
    for (const [key, spec] of Object.entries(SETTINGS)) {
      const prop = properties[`${CONFIG_SECTION}.${key}`];
      assert.ok(prop, `${key} is not contributed`);
      // llm.prices and llm.dailyBudget are parsed by their features; unset means "none", as {} and 0 do.
      if (spec.default !== undefined) assert.deepEqual(prop.default, spec.default, `${key}: package.json default`);
      assert.equal(
        spec.userOnly,
        prop.scope === 'application' || prop.scope === 'machine',
        `${key}: read from user settings only exactly when a workspace may not set it`,
      );
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

  it('declares the API notebook with the ids the code uses (type, renderer, mime, languages)', () => {
    const [nb] = manifest.contributes.notebooks;
    assert.equal(nb.type, NOTEBOOK_TYPE);
    assert.deepEqual(nb.selector, [{ filenamePattern: NOTEBOOK_FILE_PATTERN }]);
    assert.equal(nb.priority, 'default');
    assert.ok((manifest.activationEvents ?? []).includes(`onNotebook:${NOTEBOOK_TYPE}`));
    const [renderer] = manifest.contributes.notebookRenderer;
    assert.equal(renderer.id, RESULT_RENDERER_ID);
    assert.deepEqual(renderer.mimeTypes, [RESULT_MIME]);
    assert.equal(renderer.entrypoint, './dist/webview/resultRenderer.js');
    assert.deepEqual(
      manifest.contributes.languages.map((l) => l.id),
      [...NOTEBOOK_LANGUAGES],
    );
    for (const g of manifest.contributes.grammars) {
      assert.ok(NOTEBOOK_LANGUAGES.includes(g.language as never), g.language);
      assert.ok(existsSync(path.join(root, g.path)), `${g.path} missing`);
    }
    assert.ok(NOTEBOOK_CONTROLLER_ID.length > 0);
    assert.deepEqual([...NOTEBOOK_LANGUAGES], [...CODE_LANGUAGES], 'the engine and the editor agree on the cell languages');
    assert.equal(RESULT_MIME, VIEWER_MIME);
    const menus = JSON.stringify(manifest.contributes.menus);
    assert.ok(menus.includes(`notebookType == ${NOTEBOOK_TYPE}`), 'notebook menus name the notebook type');
  });

  it('runs in restricted mode in untrusted workspaces', () => {
    assert.equal(manifest.capabilities?.untrustedWorkspaces?.supported, 'limited');
  });
});
