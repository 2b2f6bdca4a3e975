// `?? json matches spec`: the notebook's spec (its vars cell's `spec = ./openapi.yaml`, a path
// written in the notebook, read through the file gate from the notebook's folder, never chosen by
// an answer) is loaded once per file version, the operation found by the request's method and
// URL, and the body checked against the schema documented for the status received.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { FileRefusal, readFileInside } from '../../core/fileGate';
import { errorText } from '../../core/errors';
import { ImportError } from '../import/types';
import type { CellResult } from '../types';
import { hasReference } from '../variables';
import { loadSpec, MAX_SPEC_BYTES } from './load';
import { SpecValidator, type SpecCheck } from './validate';

/** The vars key a notebook names its OpenAPI document by (the importer writes it). */
export const SPEC_VARIABLE = 'spec';

const cache = new Map<string, { version: string; validator: Promise<SpecValidator> }>();

/** The validator of the spec at `ref` (relative to `baseDir`), loaded again only when the file changed. */
export async function specValidator(ref: string, baseDir: string): Promise<SpecValidator> {
  const file = path.resolve(baseDir, ref);
  const info = await stat(file).catch(() => undefined);
  const version = info ? `${info.size}:${info.mtimeMs}` : 'missing';
  const known = cache.get(file);
  if (known?.version === version) return known.validator;
  const validator = (async () => {
    const bytes = await readFileInside(ref, {
      folder: baseDir,
      folderName: "the notebook's folder",
      use: 'read as the spec',
      example: './openapi.yaml',
      maxBytes: MAX_SPEC_BYTES,
    });
    return SpecValidator.create(await loadSpec(bytes.toString('utf8'), file));
  })();
  cache.set(file, { version, validator });
  validator.catch(() => cache.delete(file));
  return validator;
}

export async function matchesSpec(result: CellResult, specRef: string | undefined, baseDir: string | undefined): Promise<SpecCheck> {
  const expected = 'matches spec';
  const notChecked = (why: string): SpecCheck => ({ passed: false, expected, actual: `(not checked: ${why})` });
  if (specRef === undefined) return notChecked(`the notebook names no spec: add "${SPEC_VARIABLE} = ./openapi.yaml" to its vars cell`);
  if (hasReference(specRef)) return notChecked('a variable cannot choose the spec file: write its path out');
  if (baseDir === undefined) return notChecked('the spec is read next to the notebook: save the notebook first');
  const request = result.request;
  const response = result.response;
  if (!request || !response) return notChecked('there was no answer');
  let validator: SpecValidator;
  try {
    validator = await specValidator(specRef, baseDir);
  } catch (e) {
    if (e instanceof FileRefusal) return notChecked(`the spec ${specRef}: ${e.message}`);
    if (e instanceof ImportError) return notChecked(`the spec ${e.message}`);
    return notChecked(`the spec ${specRef}: ${errorText(e)}`);
  }
  const op = validator.operationFor(request.method, request.url);
  if (!op) return { passed: false, expected, actual: `${request.method} ${new URL(request.url).pathname} is not an operation of ${specRef}` };
  const body = response.json !== undefined ? response.json : response.text === '' ? undefined : response.text;
  return validator.check(op, response.status, body);
}
