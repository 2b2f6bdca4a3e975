// The fields of a request body, read from the zod schema that already validates it (the sandbox's),
// so completions and checks never drift from what the services accept. Only the shape is read:
// object keys, enums and literals, arrays and unions; refinements (ranges, patterns) are left out.
// An OpenAPI document's schemas are read into the same shape by jsonSchemaFields.ts.
import type * as z from 'zod/mini';

/** `integer` and `null` come from JSON Schema (an OpenAPI document); the zod schemas say `number`. */
export type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'object' | 'array' | 'unknown';

export interface FieldSpec {
  name: string;
  /** What the value is (an array's items are described by `items`). */
  types: FieldType[];
  required: boolean;
  /** The values it takes, when it is an enum or a literal (also an array's item values). */
  values?: string[];
  /** An object's fields (also of an array's object items). */
  fields?: FieldSpec[];
  /** An array's item types, when known. */
  items?: FieldType[];
  /** An object that takes fields besides `fields` (JSON Schema's additionalProperties). */
  open?: boolean;
  /** What the document says of it, and its format (`date-time`, `int64`). */
  description?: string;
  format?: string;
}

interface Shape {
  types: Set<FieldType>;
  values: Set<string>;
  fields: Map<string, FieldSpec>;
  optional: boolean;
}

interface Def {
  type: string;
  innerType?: z.ZodMiniType;
  shape?: Record<string, z.ZodMiniType>;
  entries?: Record<string, string | number>;
  values?: unknown[];
  element?: z.ZodMiniType;
  options?: z.ZodMiniType[];
}

const defOf = (schema: z.ZodMiniType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

function collect(schema: z.ZodMiniType, into: Shape, depth: number): void {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
      if (def.type === 'optional') into.optional = true;
      if (def.innerType) collect(def.innerType, into, depth);
      return;
    case 'string':
      into.types.add('string');
      return;
    case 'number':
    case 'int':
    case 'bigint':
      into.types.add('number');
      return;
    case 'boolean':
      into.types.add('boolean');
      return;
    case 'enum':
      into.types.add('string');
      for (const v of Object.values(def.entries ?? {})) into.values.add(String(v));
      return;
    case 'literal':
      for (const v of def.values ?? []) {
        into.types.add(typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : 'string');
        into.values.add(String(v));
      }
      return;
    case 'array':
      into.types.add('array');
      // An array of objects completes like its items: `"messages": [{"role": …}]`.
      if (def.element) collect(def.element, into, depth);
      into.types.delete('object');
      into.types.add('array');
      return;
    case 'union':
      for (const option of def.options ?? []) collect(option, into, depth);
      return;
    case 'object':
      into.types.add('object');
      if (depth > 6) return;
      for (const [name, child] of Object.entries(def.shape ?? {})) {
        const described = describeField(name, child, depth + 1);
        const known = into.fields.get(name);
        into.fields.set(name, known ? mergeFields(known, described) : described);
      }
      return;
    case 'record':
      into.types.add('object');
      return;
    default:
      into.types.add('unknown');
  }
}

/** Two descriptions of one field (a union's variants, allOf parts) as one: either's values, fields and items; required only when both are. */
export function mergeFields(a: FieldSpec, b: FieldSpec): FieldSpec {
  const values = [...new Set([...(a.values ?? []), ...(b.values ?? [])])];
  const fields = [...(a.fields ?? [])];
  for (const f of b.fields ?? []) if (!fields.some((x) => x.name === f.name)) fields.push(f);
  const items = [...new Set([...(a.items ?? []), ...(b.items ?? [])])];
  return {
    name: a.name,
    types: [...new Set([...a.types, ...b.types])],
    required: a.required && b.required,
    ...(values.length ? { values } : {}),
    ...(fields.length ? { fields } : {}),
    ...(items.length ? { items } : {}),
    ...(a.open || b.open ? { open: true } : {}),
    ...((a.description ?? b.description) !== undefined ? { description: a.description ?? b.description } : {}),
    ...((a.format ?? b.format) !== undefined ? { format: a.format ?? b.format } : {}),
  };
}

function describeField(name: string, schema: z.ZodMiniType, depth: number): FieldSpec {
  const shape: Shape = { types: new Set(), values: new Set(), fields: new Map(), optional: false };
  collect(schema, shape, depth);
  return {
    name,
    types: [...shape.types],
    required: !shape.optional,
    ...(shape.values.size ? { values: [...shape.values] } : {}),
    ...(shape.fields.size ? { fields: [...shape.fields.values()] } : {}),
  };
}

/** The top-level fields of an object schema (a union of objects: all their fields). */
export function schemaFields(schema: z.ZodMiniType): FieldSpec[] {
  return describeField('', schema, 0).fields ?? [];
}

/** The field at `path` (keys; array indexes are skipped, items complete like their array). */
export function fieldAt(fields: readonly FieldSpec[], path: ReadonlyArray<string | number>): FieldSpec | undefined {
  let list: readonly FieldSpec[] | undefined = fields;
  let found: FieldSpec | undefined;
  for (const key of path) {
    if (typeof key === 'number') continue;
    found = list?.find((f) => f.name === key);
    if (!found) return undefined;
    list = found.fields;
  }
  return found;
}

/** The fields an object at `path` may have ([] = the body itself). */
export function fieldsAt(fields: readonly FieldSpec[], path: ReadonlyArray<string | number>): readonly FieldSpec[] | undefined {
  if (path.every((p) => typeof p === 'number')) return fields;
  return fieldAt(fields, path)?.fields;
}
