// JSON Schema checks of structured outputs: the user's schema is checked, and each answer (and each
// tool call's arguments) validated against it with ajv, a maintained JSON Schema validator. Used by
// the playground and by the notebooks' `?? json matches schema` checks. ajv is loaded on first use
// only: it is most of the weight this adds to a bundle.
import { compileUserPattern, PatternError } from '../../core/userPattern';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { SchemaProblem } from './playgroundMessages';
import { errorText } from '../../core/errors';
import { jsonFaultPosition } from '../../core/jsonFault';

export type SchemaCheck = { ok: true; schema: Record<string, unknown>; validate: (value: unknown) => SchemaProblem[] } | { ok: false; message: string };

type AjvInstance = { compile(schema: object): ValidateFunction };
type AjvClass = new (opts: object) => AjvInstance;
/** The default (draft-07, which also reads draft-06/04-style schemas) and the 2020-12 dialect, each loaded when first needed. */
const ajvs = new Map<'draft-07' | '2020-12', Promise<AjvInstance>>();

/** ajv is CommonJS: the class is the module itself or its `default`, depending on the loader. */
function classOf(m: unknown): AjvClass {
  const mod = m as { default?: unknown };
  return (typeof mod.default === 'function' ? mod.default : mod.default && (mod.default as { default?: unknown }).default) as AjvClass;
}

function loadAjv(dialect: 'draft-07' | '2020-12'): Promise<AjvInstance> {
  let ajv = ajvs.get(dialect);
  if (!ajv) {
    // strict: false: OpenAI schemas carry keywords (e.g. `description` beside `$ref`) ajv's strict mode rejects.
    // A schema's `pattern`s are the user's (or the model's) regular expressions: run in linear time.
    const opts = { allErrors: true, strict: false, validateFormats: false, code: { regExp: BOUNDED_REGEXP } };
    ajv = (dialect === '2020-12' ? import('ajv/dist/2020.js') : import('ajv')).then((m) => new (classOf(m))(opts));
    ajvs.set(dialect, ajv);
  }
  return ajv;
}

/** ajv's RegExpEngine on the bounded engine (`code` names it in generated code); also the OpenAPI contract checks' (src/notebook/openapi/validate.ts). */
export const BOUNDED_REGEXP = Object.assign((pattern: string, flags: string) => compileUserPattern(pattern, flags), { code: 'compileUserPattern' });

/**
 * Parses and compiles a schema typed by the user (or read from a file). Failures say what is wrong
 * in words: not JSON (with where), not an object, or not a valid JSON Schema (ajv's reason).
 */
export async function checkSchema(text: string, what = 'The schema'): Promise<SchemaCheck> {
  if (!text.trim()) return { ok: false, message: `${what} is empty: type a JSON Schema or load one from a file.` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text ("Unexpected token 's', "sk-live-…" is not valid JSON"):
    // a file named by mistake may be a key file, so only the place is said.
    const where = jsonFaultPosition(text);
    return { ok: false, message: `${what} is not valid JSON${where ? ` at ${where}` : ''}.` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { ok: false, message: `${what} must be a JSON object (a JSON Schema), not ${Array.isArray(parsed) ? 'an array' : typeof parsed}.` };
  const schema = parsed as Record<string, unknown>;
  let validate: ValidateFunction;
  try {
    // Schemas written today often say "$schema": ".../draft/2020-12/schema", which the default dialect refuses.
    const dialect = typeof schema.$schema === 'string' && schema.$schema.includes('2020-12') ? '2020-12' : 'draft-07';
    validate = (await loadAjv(dialect)).compile(schema);
  } catch (e) {
    return { ok: false, message: `${what} is not a valid JSON Schema: ${errorText(e)}` };
  }
  return {
    ok: true,
    schema,
    validate: (value) => {
      try {
        return validate(value) ? [] : problemsOf(validate.errors ?? []);
      } catch (e) {
        // A large `pattern` against a string too long for it to search in bounded time: said, not thrown.
        if (e instanceof PatternError) return [{ path: '(schema pattern)', message: e.message }];
        throw e;
      }
    },
  };
}

/** The answer text checked against the schema: [] when it conforms, else one problem per field. */
export function validateJsonText(check: Extract<SchemaCheck, { ok: true }>, text: string): SchemaProblem[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return [{ path: '(answer)', message: `is not JSON: ${errorText(e)}` }];
  }
  return check.validate(value);
}

/** ajv's errors as "field: what is wrong", the field written as a JSON pointer (`/trip/days`). */
function problemsOf(errors: readonly ErrorObject[]): SchemaProblem[] {
  return errors.map((e) => {
    const p = e.params as Record<string, unknown>;
    let path = e.instancePath || '(root)';
    let message = e.message ?? 'does not match the schema';
    if (e.keyword === 'required' && typeof p.missingProperty === 'string') {
      path = `${e.instancePath}/${p.missingProperty}`;
      message = 'is required but missing';
    } else if (e.keyword === 'additionalProperties' && typeof p.additionalProperty === 'string') {
      path = `${e.instancePath}/${p.additionalProperty}`;
      message = 'is not allowed by the schema (additionalProperties: false)';
    } else if (e.keyword === 'enum' && Array.isArray(p.allowedValues)) {
      message = `must be one of ${p.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    }
    return { path, message };
  });
}
