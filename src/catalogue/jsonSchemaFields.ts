// The fields of an OpenAPI document's schema (JSON Schema: 3.0's with `nullable`, 3.1's with type
// lists, Swagger 2.0's), in the catalogue's one shape (FieldSpec), so a spec's request bodies and
// parameters complete, hover and are checked by the same code as the three services' bodies.
// `$ref`s are followed into the bundled document; allOf merges, oneOf/anyOf offer every variant's
// fields (required only when every variant requires them). A schema that refers to itself stops
// where it repeats, and nesting stops at MAX_DEPTH: completions there offer nothing, checks say nothing.
import { deref } from '../notebook/api';
import { mergeFields, type FieldSpec, type FieldType } from './schemaFields';

const MAX_DEPTH = 8;

type Doc = Record<string, unknown>;

interface Shape {
  types: Set<FieldType>;
  values: Set<string>;
  fields: Map<string, FieldSpec>;
  /** Names the object requires. */
  required: Set<string>;
  items: Set<FieldType>;
  open: boolean;
  description?: string;
  format?: string;
}

const emptyShape = (): Shape => ({ types: new Set(), values: new Set(), fields: new Map(), required: new Set(), items: new Set(), open: false });

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const TYPES: Record<string, FieldType> = {
  string: 'string',
  number: 'number',
  integer: 'integer',
  boolean: 'boolean',
  null: 'null',
  object: 'object',
  array: 'array',
};

function typeOfValue(v: unknown): FieldType {
  if (v === null) return 'null';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'string') return 'string';
  return Array.isArray(v) ? 'array' : 'object';
}

function collect(raw: unknown, into: Shape, root: Doc, depth: number, chain: ReadonlySet<object>): void {
  const schema = deref(root, raw);
  if (!isRecord(schema) || chain.has(schema)) {
    if (!isRecord(schema)) into.types.add('unknown');
    return;
  }
  const inChain = new Set(chain).add(schema);
  into.description ??= typeof schema.description === 'string' ? schema.description : undefined;
  into.format ??= typeof schema.format === 'string' ? schema.format : undefined;
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? (v as unknown[]) : []);
  for (const part of list(schema.allOf)) collect(part, into, root, depth, inChain);
  const variants = [...list(schema.oneOf), ...list(schema.anyOf)];
  if (variants.length) mergeVariants(variants, into, root, depth, inChain);

  const type = schema.type;
  for (const t of Array.isArray(type) ? type : type === undefined ? [] : [type]) {
    const known = typeof t === 'string' ? TYPES[t] : undefined;
    if (known) into.types.add(known);
  }
  if (schema.nullable === true || schema['x-nullable'] === true) into.types.add('null');
  const listed = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : [];
  for (const v of listed) {
    if (v !== null && typeof v !== 'object') into.values.add(String(v));
    if (type === undefined) into.types.add(typeOfValue(v));
  }
  if (isRecord(schema.properties) || schema.additionalProperties !== undefined) into.types.add('object');
  if (schema.additionalProperties === true || isRecord(schema.additionalProperties)) into.open = true;
  if (Array.isArray(schema.required)) for (const r of schema.required) if (typeof r === 'string') into.required.add(r);
  if (isRecord(schema.properties) && depth < MAX_DEPTH) {
    for (const [name, child] of Object.entries(schema.properties)) {
      const described = describe(name, child, root, false, depth + 1, inChain);
      const known = into.fields.get(name);
      into.fields.set(name, known ? mergeFields(known, described) : described);
    }
  }
  if (schema.items !== undefined) {
    into.types.add('array');
    // An array of objects completes like its items: `"tags": [{"name": …}]`.
    const item = emptyShape();
    collect(schema.items, item, root, depth, inChain);
    for (const t of item.types) into.items.add(t);
    for (const v of item.values) into.values.add(v);
    for (const [name, f] of item.fields) into.fields.set(name, item.required.has(name) ? { ...f, required: true } : f);
    if (item.open) into.open = true;
  }
}

/** oneOf / anyOf: what any variant allows; a field is required only when every variant requires it. */
function mergeVariants(variants: readonly unknown[], into: Shape, root: Doc, depth: number, chain: ReadonlySet<object>): void {
  const shapes = variants.map((v) => {
    const s = emptyShape();
    collect(v, s, root, depth, chain);
    return s;
  });
  for (const s of shapes) {
    s.types.forEach((t) => into.types.add(t));
    s.values.forEach((v) => into.values.add(v));
    s.items.forEach((t) => into.items.add(t));
    if (s.open) into.open = true;
    for (const [name, f] of s.fields) {
      const known = into.fields.get(name);
      into.fields.set(name, known ? mergeFields(known, f) : f);
    }
  }
  const objects = shapes.filter((s) => s.types.has('object') || s.fields.size > 0);
  // A variant that is no object (a string, say) leaves the object's fields unrequired.
  if (objects.length === shapes.length && objects.length > 0)
    for (const name of objects[0].required) if (objects.every((s) => s.required.has(name))) into.required.add(name);
}

function fieldOf(name: string, shape: Shape, required: boolean): FieldSpec {
  const fields = [...shape.fields.values()].map((f) => (shape.required.has(f.name) ? { ...f, required: true } : f));
  return {
    name,
    types: shape.types.size ? [...shape.types] : ['unknown'],
    required,
    ...(shape.values.size ? { values: [...shape.values] } : {}),
    ...(fields.length ? { fields } : {}),
    ...(shape.items.size ? { items: [...shape.items] } : {}),
    ...(shape.open ? { open: true } : {}),
    ...(shape.description !== undefined ? { description: shape.description } : {}),
    ...(shape.format !== undefined ? { format: shape.format } : {}),
  };
}

function describe(name: string, schema: unknown, root: Doc, required: boolean, depth: number, chain: ReadonlySet<object>): FieldSpec {
  const shape = emptyShape();
  collect(schema, shape, root, depth, chain);
  return fieldOf(name, shape, required);
}

/** A schema (a parameter's, a body's) as one field named `name`; `root` is the bundled document its `$ref`s point into. */
export function jsonSchemaField(name: string, schema: unknown, root: Doc, required = false): FieldSpec {
  return describe(name, schema, root, required, 0, new Set());
}

/** The top-level fields of an object schema (a body's). */
export function jsonSchemaFields(schema: unknown, root: Doc): FieldSpec[] {
  return jsonSchemaField('', schema, root).fields ?? [];
}
