// How the editor's bundles reach the VS Code API and zod (esbuild.mjs, issue 39). VS Code hands an
// extension one object with a property per class, enum and namespace; esbuild's interop for an
// `import * as` of an external CommonJS module copies that object into a new one, a getter per
// property, once per importing file: 17 copies of a few hundred properties in dist/extension.js took
// longer than everything else activation did. The zod stand-in, a CommonJS module of getters, was
// copied the same way by each of its importers.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../helpers/sandboxProcess';

const EDITOR_BUNDLES = ['extension', 'foundation', 'llm', 'maps', 'realtime', 'notebook'];

function bundleText(name: string): string {
  const file = path.join(repoRoot(), 'dist', `${name}.js`);
  assert.ok(existsSync(file), `${file} is missing: build with \`node esbuild.mjs --tests\` first.`);
  return readFileSync(file, 'utf8');
}

describe('build: the editor bundles read the VS Code API object as it is handed over', () => {
  for (const name of EDITOR_BUNDLES) {
    it(`dist/${name}.js requires vscode once and never copies it`, () => {
      const text = bundleText(name);
      assert.equal(text.match(/require\("vscode"\)/g)?.length, 1, `dist/${name}.js should require vscode exactly once`);
      assert.doesNotMatch(text, /__toESM\(require\("vscode"\)/, `dist/${name}.js copies the VS Code API: import it as \`import vscode from 'vscode'\``);
    });
  }

  it('zod is reached through plain functions, not copied per importer', () => {
    const text = bundleText('extension');
    assert.match(text, /require\("\.\/zod\.js"\)/, 'dist/extension.js should load zod from dist/zod.js on first use');
    assert.doesNotMatch(text, /__toESM\(require_mini\(\)\)/, 'each importer of zod/mini gets a copy of its exports');
  });
});
