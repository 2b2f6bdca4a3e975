// A second, separately bundled copy of a source module, as another of the editor's bundles
// (dist/foundation.js beside dist/extension.js, say) carries one: its classes are other classes.
import Module from 'node:module';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { repoRoot } from './sandboxProcess';

export function secondCopy<T>(source: string): T {
  const root = repoRoot();
  const built = esbuild.buildSync({ entryPoints: [path.join(root, source)], bundle: true, platform: 'node', format: 'cjs', write: false });
  const copy = new Module(path.join(root, 'second-copy.js'));
  (copy as unknown as { _compile(code: string, file: string): void })._compile(built.outputFiles[0].text, copy.id);
  return copy.exports as T;
}
