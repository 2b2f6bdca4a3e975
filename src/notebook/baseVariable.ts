// An http cell's URL may start with a variable (`GET {{baseUrl}}/pets`, as an imported OpenAPI
// document's servers are written) when that variable is a value written in one of the notebook's
// vars cells: text the user reads, per environment. Never an answer (`{{cell.json.url}}`), an
// environment variable or a secret, a --var or a script's variable: those would let something the
// user did not write choose where the request (and its credentials) go. Host approval still
// applies to the host the value names.
import { quoteCut } from '../core/quote';

/** `{{name}}` at the start of a target: a plain variable name (no `$`, no `.`: not a credential, not an answer). */
const BASE_VARIABLE = /^\{\{\s*([A-Za-z_][\w-]*)\s*\}\}/;

/** The name of the variable a target starts with, or undefined. */
export function baseVariableOf(target: string): string | undefined {
  return BASE_VARIABLE.exec(target)?.[1];
}

/**
 * `{{baseUrl}}/pets` → `https://api.example.com/v1/pets` with the vars cell's value; a target that
 * starts otherwise is returned as it is. Fails (a whole sentence) when the variable is not a vars
 * value or its value is not an absolute http(s) URL with a written-out host.
 */
export function fillBaseVariable(target: string, vars: ReadonlyMap<string, string>, fail: (detail: string) => never): string {
  const m = BASE_VARIABLE.exec(target);
  if (!m) return target;
  const name = m[1];
  const value = vars.get(name);
  if (value === undefined)
    return fail(
      `{{${name}}} starts this http cell's URL but no vars cell of the notebook (for this environment) defines it: write "${name} = https://api.example.com" in a vars cell (answers, {{$env}} and {{$secret}} cannot choose the host)`,
    );
  if (value.includes('{{') || !/^https?:\/\/[^/?#{}\s]+(?:[/?#]|$)/i.test(value))
    return fail(
      `{{${name}}} starts this http cell's URL, so its value must be an absolute http(s) URL written out, like https://api.example.com, not "${quoteCut(value)}"`,
    );
  const rest = target.slice(m[0].length);
  return value.endsWith('/') && rest.startsWith('/') ? value + rest.slice(1) : value + rest;
}
