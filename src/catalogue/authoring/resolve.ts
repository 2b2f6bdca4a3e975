// What a `{{…}}` stands for, as the engine would fill it in (src/notebook/variables.ts), without
// running anything: a vars line, a named cell's part (and its value once that cell has run), or a
// name nobody defines.
import { partOf } from '../../notebook/api';
import type { AuthoringContext, NamedCell, VariableDef } from './types';

export type Resolved =
  | { kind: 'variable'; name: string; def: VariableDef }
  | { kind: 'extra'; name: string }
  /** {{$env NAME}} / {{$secret name}}: filled in when an http cell runs. */
  | { kind: 'system' }
  /** `rest`: `.json.data[0].id`; `value`: undefined when the cell has not run or the part is missing. */
  | { kind: 'cell'; name: string; cell: NamedCell; rest: string; ran: boolean; value: unknown }
  | { kind: 'cellWithoutPart'; name: string; cell: NamedCell }
  | { kind: 'unknownVariable'; name: string }
  | { kind: 'unknownCell'; name: string };

export function resolveReference(ref: string, ctx: AuthoringContext): Resolved {
  if (ref.startsWith('$')) return { kind: 'system' };
  const dot = ref.search(/[.[]/);
  if (dot === -1) {
    const def = ctx.variables.get(ref);
    if (def) return { kind: 'variable', name: ref, def };
    if (ctx.extraVariables.has(ref)) return { kind: 'extra', name: ref };
    const cell = ctx.cells.get(ref);
    if (cell) return { kind: 'cellWithoutPart', name: ref, cell };
    return { kind: 'unknownVariable', name: ref };
  }
  const name = ref.slice(0, dot);
  const rest = ref.slice(dot);
  const cell = ctx.cells.get(name);
  if (!cell) {
    // A dotted variable name (`api.version = 2`) is a variable, as in the engine.
    const def = ctx.variables.get(ref);
    if (def) return { kind: 'variable', name: ref, def };
    if (ctx.extraVariables.has(ref)) return { kind: 'extra', name: ref };
    return { kind: 'unknownCell', name };
  }
  const result = ctx.result(name);
  return { kind: 'cell', name, cell, rest, ran: !!result, value: result ? partOf(result, rest) : undefined };
}

/** A value as a hover shows it: text as is, anything else as JSON, cut to a readable length. */
export function showValue(value: unknown, mask: (text: string) => string, max = 400): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 1);
  const masked = mask(text ?? String(value));
  return masked.length > max ? `${masked.slice(0, max)}…` : masked;
}
