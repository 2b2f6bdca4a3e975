// The layer rules (.dependency-cruiser.cjs, run by `npm run lint`) must catch what they promise to:
// each planted violation below, in a throwaway copy of the layout, fails the check and is named;
// the clean layout passes. Without this a rule that matches nothing would pass forever.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '../../../..');
const depcruise = path.join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

/** A tiny tree in the project's layout, one file per layer, all imports legal. */
const CLEAN: Record<string, string> = {
  'src/core/base.ts': 'export const base = 1;\n',
  'src/services/llm/client.ts': "import { base } from '../../core/base';\nexport const client = base;\n",
  'src/notebook/types.ts': 'export interface Cell { value: string }\n',
  'src/notebook/run.ts': "import type { Cell } from './types';\nexport const run = (c: Cell) => c.value;\n",
  'src/notebook/api.ts': "export * from './types';\nexport { run } from './run';\n",
  'src/features/llm/model.ts':
    "import { client } from '../../services/llm/client';\nimport { run } from '../../notebook/api';\nexport const model = [client, run];\n",
  'src/editor/view.ts': "import * as vscode from 'vscode';\nimport { model } from '../features/llm/model';\nexport const view = [vscode, model];\n",
  'src/extension.ts': "import * as vscode from 'vscode';\nimport { view } from './editor/view';\nexport const ext = [vscode, view];\n",
};

function check(extra: Record<string, string>): { status: number | null; out: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'awb-layers-'));
  copyFileSync(path.join(root, '.dependency-cruiser.cjs'), path.join(dir, '.dependency-cruiser.cjs'));
  for (const [file, text] of Object.entries({ ...CLEAN, ...extra })) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  const r = spawnSync(process.execPath, [depcruise, 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], { cwd: dir, encoding: 'utf8' });
  return { status: r.status, out: r.stdout + r.stderr };
}

describe('layer rules (lint): a planted violation fails', function () {
  this.timeout(60_000);

  it('the clean layout passes', () => {
    const r = check({});
    assert.equal(r.status, 0, r.out);
  });

  const planted: Array<[string, Record<string, string>, RegExp]> = [
    [
      'vscode outside src/editor',
      { 'src/features/llm/model.ts': "import * as vscode from 'vscode';\nexport const model = vscode;\n" },
      /vscode-only-in-editor: src\/features\/llm\/model\.ts/,
    ],
    [
      'an arrow up a layer (core → editor)',
      { 'src/core/base.ts': "import { view } from '../editor/view';\nexport const base = view;\n" },
      /layer-core: src\/core\/base\.ts → src\/editor\/view\.ts/,
    ],
    [
      'an import circle',
      {
        'src/features/llm/a.ts': "import { b } from './b';\nexport const a = b;\n",
        'src/features/llm/b.ts': "import { a } from './a';\nexport const b = a;\n",
      },
      /no-circular/,
    ],
    [
      'a file in src/editor that does not need vscode',
      { 'src/editor/llm/pure.ts': 'export const pure = 1;\n' },
      /editor-needs-vscode: src\/editor\/llm\/pure\.ts/,
    ],
    [
      "a deep import into the notebook engine's internals",
      { 'src/features/llm/deep.ts': "import { run } from '../../notebook/run';\nexport const deep = run;\n" },
      /notebook-public-module: src\/features\/llm\/deep\.ts → src\/notebook\/run\.ts/,
    ],
    [
      'a lazy bundle imported for its values',
      {
        'src/editor/other.ts': "import * as vscode from 'vscode';\nimport * as llm from './llm/index';\nexport const o = [vscode, llm];\n",
        'src/editor/llm/index.ts': "import * as vscode from 'vscode';\nexport const i = vscode;\n",
      },
      /bundle-llm-loaded-lazily: src\/editor\/other\.ts/,
    ],
  ];
  // Every violation is planted in one tree and the check runs once: each is a file of its own (or
  // one file changed in its own way) and each rule names its file, so one run shows all of them.
  // depcruise loads TypeScript at every start; seven runs were ~6 s each of a unit worker (issue 39).
  let all: { status: number | null; out: string } | undefined;
  for (const [what, , named] of planted) {
    it(what, () => {
      all ??= check(Object.fromEntries(planted.flatMap(([, files]) => Object.entries(files))));
      assert.notEqual(all.status, 0, `the check passed with ${what}:\n${all.out}`);
      assert.match(all.out, named, `${what} was not named:\n${all.out}`);
    });
  }
});
