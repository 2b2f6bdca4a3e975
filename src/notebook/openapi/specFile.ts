// The OpenAPI document a notebook names (`spec = ./openapi.yaml` in a vars cell), read through the
// file gate from the notebook's folder (never an absolute path elsewhere, never the network) and
// kept per file version (size and mtime): `?? json matches spec`, the editor's completions and
// `api-workbench check` all read the one parsed copy, and an edit to the file is seen on next use.
import { statSync } from 'node:fs';
import path from 'node:path';
import { readFileInside } from '../../core/fileGate';
import { loadSpec, MAX_SPEC_BYTES, type LoadedSpec } from './load';

export { SPEC_VARIABLE } from './specVariable';

const cache = new Map<string, { version: string; spec: Promise<LoadedSpec> }>();

/** The file's version as the cache keys it: its size and mtime, or "missing". */
export function specFileVersion(file: string): string {
  try {
    const info = statSync(file);
    return `${info.size}:${info.mtimeMs}`;
  } catch {
    return 'missing';
  }
}

/**
 * The spec at `ref` (relative to `baseDir`, the notebook's folder), parsed again only when the file
 * changed. Rejects with FileRefusal (outside the folder, missing, too large) or ImportError (not
 * OpenAPI, a syntax error, a broken `$ref`); a failure is not kept, so the next use tries again.
 */
export function loadSpecFile(ref: string, baseDir: string): Promise<LoadedSpec> {
  const file = path.resolve(baseDir, ref);
  const version = specFileVersion(file);
  const known = cache.get(file);
  if (known?.version === version) return known.spec;
  const spec = (async () => {
    const bytes = await readFileInside(ref, {
      folder: baseDir,
      folderName: "the notebook's folder",
      use: 'read as the spec',
      example: './openapi.yaml',
      maxBytes: MAX_SPEC_BYTES,
    });
    return loadSpec(bytes.toString('utf8'), file);
  })();
  cache.set(file, { version, spec });
  spec.catch(() => {
    if (cache.get(file)?.spec === spec) cache.delete(file);
  });
  return spec;
}
