// `?? json matches spec`: the notebook's spec (its vars cell's `spec = ./openapi.yaml`, a path
// written in the notebook, read through the file gate from the notebook's folder, never chosen by
// an answer) is loaded once per file version, the operation found by the request's method and
// URL, and the body checked against the schema documented for the status received.
import { FileRefusal } from '../../core/fileGate';
import { errorText } from '../../core/errors';
import { ImportError } from '../import/types';
import type { CellResult } from '../types';
import { hasReference } from '../variables';
import type { LoadedSpec } from './load';
import { loadSpecFile } from './specFile';
import { SPEC_VARIABLE } from './specVariable';
import { SpecValidator, type SpecCheck } from './validate';

export { SPEC_VARIABLE };

/** One validator per parsed document (a new version of the file is a new document). */
const validators = new WeakMap<LoadedSpec, Promise<SpecValidator>>();

/** The validator of the spec at `ref` (relative to `baseDir`), made again only when the file changed. */
export async function specValidator(ref: string, baseDir: string): Promise<SpecValidator> {
  const spec = await loadSpecFile(ref, baseDir);
  let validator = validators.get(spec);
  if (!validator) {
    validator = SpecValidator.create(spec);
    validators.set(spec, validator);
  }
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
