// Deterministic JSON values for a JSON Schema, drawn from the prompt: tool-call arguments and
// structured outputs (`response_format: json_schema`). The value conforms to the subset of JSON
// Schema OpenAI's strict mode allows (types, enums, const, required, nested objects and arrays,
// $defs/$ref, anyOf, string and number bounds); it never adds properties the schema does not name.
import { seededRandom } from '../../core/random';
import { fnv1a } from './answer';

type Schema = Readonly<Record<string, unknown>>;

const MAX_DEPTH = 10;
/** Values one answer may hold: a schema asking for more (minItems: 1e9) is refused, not attempted. */
const MAX_VALUES = 5_000;
const MAX_STRING = 10_000;

/** The schema asks for more than the sandbox will build; the route answers 400. */
export class SchemaTooLargeError extends Error {
  constructor() {
    super(`The schema asks for more than ${MAX_VALUES} values or strings over ${MAX_STRING} characters, more than the sandbox builds.`);
    this.name = 'SchemaTooLargeError';
  }
}

function isSchema(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function numberOr(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

/** What the value generator knows of the prompt. */
class PromptFacts {
  readonly numbers: number[];
  readonly names: string[];
  readonly words: string[];

  readonly lower: string;

  constructor(readonly text: string) {
    this.lower = text.toLowerCase();
    this.numbers = (text.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
    this.words = [];
    this.names = [];
    for (const m of text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)) {
      let j = m.index - 1;
      while (j >= 0 && /\s/.test(text[j])) j--;
      // Capitalised words other than the first of a sentence: usually the place or name asked about.
      if (this.words.length > 0 && /^\p{Lu}/u.test(m[0]) && !'.!?'.includes(text[j] ?? '.')) this.names.push(m[0]);
      this.words.push(m[0]);
    }
  }

  /** `key: value` or `key=value` written in the prompt, if any. */
  explicit(key: string): string | undefined {
    if (!this.lower.includes(key.toLowerCase())) return undefined;
    const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const m = new RegExp(`\\b${escaped}\\s*[:=]\\s*("([^"]*)"|[^,;\\n]+)`, 'i').exec(this.text);
    return m ? (m[2] ?? m[1]).trim() : undefined;
  }
}

export interface SchemaValueOptions {
  /** Include optional properties too (strict schemas list every property as required anyway). */
  allProperties?: boolean;
}

/** A value that validates against `schema`, the same for the same prompt and schema. */
export function valueForSchema(schema: unknown, prompt: string, opts: SchemaValueOptions = {}): unknown {
  const facts = new PromptFacts(prompt);
  const random = seededRandom(fnv1a(`${prompt}\n${JSON.stringify(schema)}`));
  const root = isSchema(schema) ? schema : {};
  return new Generator(root, facts, random, opts.allProperties ?? false).value(root, '', 0);
}

class Generator {
  constructor(
    private readonly root: Schema,
    private readonly facts: PromptFacts,
    private readonly random: () => number,
    private readonly allProperties: boolean,
  ) {}

  private budget = MAX_VALUES;

  value(schema: Schema, key: string, depth: number): unknown {
    if (--this.budget < 0) throw new SchemaTooLargeError();
    const s = this.resolve(schema);
    if ('const' in s) return s.const;
    if (Array.isArray(s.enum) && s.enum.length > 0) return this.pickEnum(s.enum, key);
    const variants: readonly unknown[] | undefined = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
    if (variants) {
      const first = variants.find((v) => isSchema(v) && this.resolve(v).type !== 'null') ?? variants[0];
      return isSchema(first) ? this.value(first, key, depth) : null;
    }
    const types = Array.isArray(s.type) ? (s.type as unknown[]) : [s.type ?? (s.properties ? 'object' : 'string')];
    const type = types.find((t) => t !== 'null') ?? 'null';
    switch (type) {
      case 'object':
        return depth >= MAX_DEPTH ? {} : this.object(s, depth);
      case 'array':
        return depth >= MAX_DEPTH ? [] : this.array(s, key, depth);
      case 'integer':
        return this.number(s, key, true);
      case 'number':
        return this.number(s, key, false);
      case 'boolean':
        return this.boolean(key);
      case 'null':
        return null;
      default:
        return this.string(s, key);
    }
  }

  /** Follows `$ref` into `#/$defs/…` or `#/definitions/…` of the root schema. */
  private resolve(schema: Schema, hops = 0): Schema {
    const ref = schema.$ref;
    if (typeof ref !== 'string' || hops > MAX_DEPTH) return schema;
    let target: unknown = this.root;
    for (const part of ref.replace(/^#\/?/, '').split('/').filter(Boolean)) {
      target = isSchema(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    }
    return isSchema(target) ? this.resolve(target, hops + 1) : {};
  }

  private object(s: Schema, depth: number): Record<string, unknown> {
    const props = isSchema(s.properties) ? s.properties : {};
    const required = new Set(Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : []);
    const out: Record<string, unknown> = {};
    for (const [name, sub] of Object.entries(props)) {
      // Optional properties appear when the prompt mentions them, so the choice stays predictable.
      const wanted = required.has(name) || this.allProperties || this.facts.lower.includes(name.toLowerCase());
      if (wanted) out[name] = this.value(isSchema(sub) ? sub : {}, name, depth + 1);
    }
    return out;
  }

  private array(s: Schema, key: string, depth: number): unknown[] {
    const min = Math.max(0, numberOr(s.minItems, 0));
    if (min > this.budget) throw new SchemaTooLargeError();
    const max = Math.max(min, numberOr(s.maxItems, Math.max(min, 3)));
    const count = Math.min(max, Math.max(min, 1 + Math.floor(this.random() * 3)));
    const item = isSchema(s.items) ? s.items : {};
    const out: unknown[] = [];
    for (let i = 0; i < count; i++) out.push(this.value(item, `${key}[${i}]`, depth + 1));
    return out;
  }

  private pickEnum(values: readonly unknown[], key: string): unknown {
    const named = values.find((v) => typeof v === 'string' && v !== '' && this.facts.lower.includes(v.toLowerCase()));
    return named !== undefined ? named : values[fnv1a(`${key}\n${this.facts.text}`) % values.length];
  }

  private number(s: Schema, key: string, integer: boolean): number {
    const lo = Math.max(numberOr(s.minimum, -Infinity), numberOr(s.exclusiveMinimum, -Infinity) + (integer ? 1 : 1e-6));
    const hi = Math.min(numberOr(s.maximum, Infinity), numberOr(s.exclusiveMaximum, Infinity) - (integer ? 1 : 1e-6));
    const low = Number.isFinite(lo) ? lo : Math.min(0, hi);
    const high = Number.isFinite(hi) ? hi : Math.max(low, 0) + 100;
    const fit = (n: number) => {
      let v = Math.min(high, Math.max(low, n));
      if (integer) v = Math.min(Math.floor(high), Math.max(Math.ceil(low), Math.round(v)));
      const step = typeof s.multipleOf === 'number' && s.multipleOf > 0 ? s.multipleOf : undefined;
      if (step) v = Math.ceil(low / step) * step <= high ? Math.min(Math.floor(high / step), Math.max(Math.ceil(low / step), Math.round(v / step))) * step : v;
      return v;
    };
    const explicit = Number(this.facts.explicit(key));
    if (Number.isFinite(explicit)) return fit(explicit);
    const mentioned = this.facts.numbers.find((n) => n >= low && n <= high && (!integer || Number.isInteger(n)));
    if (mentioned !== undefined) return fit(mentioned);
    return fit(low + this.random() * Math.min(high - low, 100));
  }

  private boolean(key: string): boolean {
    const explicit = this.facts.explicit(key)?.toLowerCase();
    if (explicit === 'true' || explicit === 'yes') return true;
    if (explicit === 'false' || explicit === 'no') return false;
    return this.random() < 0.5;
  }

  private string(s: Schema, key: string): string {
    let text = this.facts.explicit(key) ?? this.formatted(s.format) ?? this.fromPrompt(key);
    const min = numberOr(s.minLength, 0);
    if (min > MAX_STRING) throw new SchemaTooLargeError();
    const max = numberOr(s.maxLength, Infinity);
    const chars = Array.from(text);
    if (chars.length > max) text = chars.slice(0, max).join('');
    const short = min - Array.from(text).length;
    if (short > 0) text += ' sandbox'.repeat(Math.ceil(short / 8)).slice(0, short);
    return text;
  }

  private formatted(format: unknown): string | undefined {
    const day = new Date(Date.UTC(2026, 0, 1) + (fnv1a(this.facts.text) % 365) * 86_400_000).toISOString();
    switch (format) {
      case 'date':
        return day.slice(0, 10);
      case 'date-time':
        return day;
      case 'time':
        return '12:00:00Z';
      case 'email':
        return 'someone@example.com';
      case 'uri':
        return 'https://example.com/sandbox';
      case 'uuid':
        return '00000000-0000-4000-8000-000000000000';
      default:
        return undefined;
    }
  }

  /** A name from the prompt for name-like keys, otherwise a short excerpt of it. */
  private fromPrompt(key: string): string {
    const { names, words, text } = this.facts;
    if (names.length > 0) return names[fnv1a(key) % names.length];
    const flat = text.replace(/\s+/g, ' ').trim();
    if (flat.length <= 40) return flat || key;
    return words.slice(0, 6).join(' ');
  }
}

/**
 * Why a schema is not valid for OpenAI's strict mode, in OpenAI's wording, or undefined if it is:
 * every object must set `additionalProperties: false` and list every property in `required`.
 */
export function strictSchemaProblem(schema: unknown): string | undefined {
  const walk = (node: unknown, context: string[], depth: number): string | undefined => {
    if (!isSchema(node) || depth > MAX_DEPTH * 4) return undefined;
    const where = `In context=(${context.map((c) => `'${c}'`).join(', ')}${context.length === 1 ? ',' : ''})`;
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if (types.includes('object') || isSchema(node.properties)) {
      if (node.additionalProperties !== false) return `${where}, 'additionalProperties' is required to be supplied and to be false.`;
      const props = isSchema(node.properties) ? Object.keys(node.properties) : [];
      const required = Array.isArray(node.required) ? node.required : [];
      const missing = props.find((p) => !required.includes(p));
      if (missing !== undefined)
        return `${where}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'.`;
    }
    const children: [string[], unknown][] = [];
    if (isSchema(node.properties)) for (const [k, v] of Object.entries(node.properties)) children.push([[...context, 'properties', k], v]);
    if (node.items !== undefined) children.push([[...context, 'items'], node.items]);
    for (const key of ['anyOf', '$defs', 'definitions'] as const) {
      const group = node[key];
      if (Array.isArray(group)) group.forEach((v, i) => children.push([[...context, key, String(i)], v]));
      else if (isSchema(group)) for (const [k, v] of Object.entries(group)) children.push([[...context, key, k], v]);
    }
    for (const [ctx, child] of children) {
      const problem = walk(child, ctx, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  };
  return walk(schema, [], 0);
}
