// `?? json matches spec`: the answer's body against the response schema its operation documents
// for the status received, with ajv. OpenAPI 3.1 schemas are JSON Schema 2020-12 (ajv's 2020
// dialect); 3.0 and Swagger 2.0 schemas are rewritten once to the JSON Schema they mean
// (`nullable: true` / `x-nullable` → a "null" type, boolean `exclusiveMinimum` → a number) and
// checked as draft-07. `discriminator` is honoured where ajv can (oneOf of $refs), else ignored.
import type { ErrorObject, ValidateFunction } from 'ajv';
import { BOUNDED_REGEXP } from '../../services/llm/jsonSchema';
import { isRecord } from './load';
import { specModel, type SpecModel, type SpecOperation } from './model';
import type { LoadedSpec } from './load';

type AjvInstance = { compile(schema: object): ValidateFunction; addSchema(schema: object, key: string): unknown };
type AjvClass = new (opts: object) => AjvInstance;

const ROOT_ID = 'https://openapi.spec.invalid/root.json';

/** ajv is CommonJS: the class is the module itself or its `default`, depending on the loader. */
function classOf(m: unknown): AjvClass {
  const mod = m as { default?: unknown };
  return (typeof mod.default === 'function' ? mod.default : (mod.default as { default?: unknown }).default) as AjvClass;
}

/** A 3.0 / 2.0 schema keyword by keyword as the JSON Schema it means. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!isRecord(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = toJsonSchema(v);
  const nullable = out.nullable === true || out['x-nullable'] === true;
  delete out.nullable;
  if (nullable) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...(out.enum as unknown[]), null];
    if (out.type === undefined && (out.$ref !== undefined || out.allOf || out.oneOf || out.anyOf)) {
      const { description, ...rest } = out;
      return { ...(description !== undefined ? { description } : {}), anyOf: [rest, { type: 'null' }] };
    }
  }
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (out[flag] === true) {
      out[flag] = out[bound];
      delete out[bound];
    } else if (out[flag] === false) delete out[flag];
  }
  return out;
}

/** `#/…` references of a schema taken out of the document, pointed at the document again. */
function rebased(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rebased);
  if (!isRecord(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `${ROOT_ID}${v}` : rebased(v);
  return out;
}

export interface SpecCheck {
  passed: boolean;
  /** "matches spec (GET /pets/{petId} 200)". */
  expected: string;
  actual: string;
}

/** What one document answers `matches spec` with: its model (as JSON Schema) and compiled validators. */
export class SpecValidator {
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly model: SpecModel;

  private constructor(
    spec: LoadedSpec,
    private readonly ajv: AjvInstance,
    private readonly lenientAjv: () => Promise<AjvInstance>,
  ) {
    const root = spec.dialect === '3.1' ? spec.root : (toJsonSchema(spec.root) as Record<string, unknown>);
    this.model = specModel({ dialect: spec.dialect, root });
    ajv.addSchema({ ...root, $id: ROOT_ID }, ROOT_ID);
  }

  static async create(spec: LoadedSpec): Promise<SpecValidator> {
    const make = async (discriminator: boolean) => {
      const m: unknown = spec.dialect === '3.1' ? await import('ajv/dist/2020.js') : await import('ajv');
      const formats = (await import('ajv-formats')) as unknown as { default: (a: AjvInstance) => void };
      const ajv = new (classOf(m))({ allErrors: false, strict: false, discriminator, code: { regExp: BOUNDED_REGEXP } });
      formats.default(ajv);
      return ajv;
    };
    let lenient: Promise<AjvInstance> | undefined;
    return new SpecValidator(spec, await make(true), () => (lenient ??= make(false)));
  }

  /** The operation a request went to: same method, the longest documented path its URL ends with. */
  operationFor(method: string, url: string): SpecOperation | undefined {
    let pathname: string;
    try {
      pathname = new URL(url).pathname;
    } catch {
      return undefined;
    }
    const fits = this.model.operations.filter((op) => {
      if (op.method !== method.toUpperCase()) return false;
      const pattern = op.path.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      return new RegExp(`${pattern.join('[^/]+')}/?$`).test(pathname);
    });
    const literal = (op: SpecOperation) => op.path.replace(/\{[^}]+\}/g, '').length;
    return fits.sort((a, b) => literal(b) - literal(a))[0];
  }

  /** The body checked against what `op` documents for `status`. */
  async check(op: SpecOperation, status: number, body: unknown): Promise<SpecCheck> {
    const statuses = Object.keys(op.responses);
    const key =
      statuses.find((s) => s === String(status)) ??
      statuses.find((s) => s.toUpperCase() === `${String(status)[0]}XX`) ??
      (statuses.includes('default') ? 'default' : undefined);
    const where = `${op.method} ${op.path}`;
    if (key === undefined)
      return {
        passed: false,
        expected: `matches spec (${where})`,
        actual: `status ${status} is not documented for ${where}; it documents ${statuses.join(', ') || 'no status'}`,
      };
    const expected = `matches spec (${where} ${key})`;
    const schema = op.responses[key].schema;
    if (!schema) return { passed: true, expected, actual: `status ${status}: the document gives no schema to check` };
    const validate = await this.validator(`${op.pointer} ${key}`, schema);
    if (validate(body)) return { passed: true, expected, actual: 'the body matches' };
    const first = (validate.errors ?? [])[0];
    return { passed: false, expected, actual: first ? describeError(first, body) : 'the body does not match' };
  }

  private async validator(key: string, schema: Record<string, unknown>): Promise<ValidateFunction> {
    let v = this.validators.get(key);
    if (!v) {
      const wrapped = { $id: `https://openapi.spec.invalid/op${this.validators.size}.json`, ...(rebased(schema) as object) };
      try {
        v = this.ajv.compile(wrapped);
      } catch {
        // A discriminator ajv cannot use (not a oneOf of $refs, say): checked without it.
        v = (await this.lenientAjv()).compile({ ...wrapped, $id: `${wrapped.$id}-lenient` });
      }
      this.validators.set(key, v);
    }
    return v;
  }
}

function valueAt(body: unknown, pointer: string): unknown {
  let at = body;
  for (const raw of pointer.split('/').slice(1)) {
    const k = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    at = isRecord(at) || Array.isArray(at) ? (at as Record<string, unknown>)[k] : undefined;
  }
  return at;
}

/** "/status: must be equal to one of the allowed values (placed, delivered); the value was "lost"". */
function describeError(e: ErrorObject, body: unknown): string {
  const at = e.instancePath || '/';
  const params = e.params as Record<string, unknown>;
  const detail = Array.isArray(params.allowedValues)
    ? ` (${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')})`
    : typeof params.missingProperty === 'string'
      ? ''
      : typeof params.additionalProperty === 'string'
        ? ` ("${params.additionalProperty}")`
        : '';
  const value = JSON.stringify(valueAt(body, e.instancePath)) ?? 'undefined';
  return `${at}: ${e.message ?? 'does not match'}${detail}; the value was ${value.length > 200 ? `${value.slice(0, 200)}…` : value}`;
}
