// core/sharedClass: the editor is built into several bundles (esbuild.mjs), each with its own copy
// of the core modules, and an error made in one bundle is judged in another (the credential guard
// in dist/extension.js refuses, the HTTP client in dist/foundation.js decides whether to retry). When
// `instanceof` failed across the copies, an origin refusal was retried as a network failure and the
// user was asked three times (issue 39).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ApiError } from '../../../src/core/errors';
import { repoRoot } from '../helpers/sandboxProcess';
import { secondCopy } from '../helpers/secondCopy';

interface EsbuildMeta {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
}

describe('core/sharedClass: a class copied into two bundles', () => {
  it('an ApiError from one bundle is an ApiError to another, with its kind, and a plain Error is not', () => {
    const other = secondCopy<{ ApiError: typeof ApiError }>('src/core/errors.ts');
    assert.notEqual(other.ApiError, ApiError, 'the test needs two copies of the class');
    const refusal = new other.ApiError({ kind: 'auth', service: 'OpenAI', message: 'The key was not sent to a new origin.' });
    assert.ok(refusal instanceof ApiError, 'an origin refusal made by another bundle is recognised, so it is not retried as a network failure');
    assert.ok(new ApiError({ kind: 'auth', service: 'Maps', message: 'x' }) instanceof other.ApiError);
    assert.ok(!(new Error('ApiError') instanceof ApiError));
    const notErrors: unknown[] = [null, 'ApiError', { kind: 'auth', name: 'ApiError' }];
    for (const value of notErrors) assert.ok(!(value instanceof ApiError), String(value));
  });

  it('a subclass keeps the ordinary check', () => {
    class Narrower extends ApiError {}
    const narrow = new Narrower({ kind: 'http', service: 'OpenAI', message: 'x' });
    assert.ok(narrow instanceof Narrower && narrow instanceof ApiError && narrow instanceof Error);
    assert.ok(!(new ApiError({ kind: 'http', service: 'OpenAI', message: 'x' }) instanceof Narrower));
  });

  it('every class that esbuild put into two editor bundles and that is tested with instanceof is shared', () => {
    const root = repoRoot();
    const metaFile = path.join(root, 'out/editorBundles.meta.json');
    assert.ok(existsSync(metaFile), `${metaFile} is missing: build with \`node esbuild.mjs --tests\` first.`);
    const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as EsbuildMeta;
    const bundlesOf = new Map<string, string[]>();
    for (const [output, { inputs }] of Object.entries(meta.outputs)) {
      if (!output.endsWith('.js')) continue;
      for (const input of Object.keys(inputs)) bundlesOf.set(input, [...(bundlesOf.get(input) ?? []), path.basename(output)]);
    }
    const tested = new Set(
      execFileSync('grep', ['-rhoE', 'instanceof [A-Za-z_][A-Za-z0-9_]*', path.join(root, 'src')], { encoding: 'utf8' })
        .split('\n')
        .map((s) => s.replace('instanceof ', '')),
    );
    const unshared: string[] = [];
    let checked = 0;
    for (const [input, bundles] of bundlesOf) {
      if (!input.startsWith('src/') || bundles.length < 2) continue;
      const text = readFileSync(path.join(root, input), 'utf8');
      for (const [, name] of text.matchAll(/export (?:abstract )?class (\w+)/g)) {
        if (!tested.has(name)) continue;
        checked++;
        if (!text.includes(`sharedAcrossBundles(this, 'api-workbench.${name}')`)) unshared.push(`${name} (${input}, in ${bundles.join(', ')})`);
      }
    }
    assert.ok(checked > 0, 'the metafile names no shared class at all: is it the editor build’s?');
    assert.deepEqual(unshared, [], `Mark these with sharedAcrossBundles (src/core/sharedClass.ts) in a static block: ${unshared.join('; ')}`);
  });
});
