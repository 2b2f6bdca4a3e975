// A notebook as a program: each `??` check as a call of the program's `check`, which prints the
// check, what it expected and what came, and makes the program exit non-zero when it fails. The
// checks that ask a model, read the price table or a schema file are the notebook's own: the
// program says it skipped them.
import type { AssertionSpec, CurlVariables } from '../../notebook/api';
import { Code, JAVASCRIPT, literal, pyCall } from './literals';
import { filled, partRead, textSource, type ProgramLanguage, type References } from './programValues';

/** The part of an answer a check reads (the programs' `part` function), or why the program leaves the check to the notebook. */
function subjectPart(spec: AssertionSpec): { part: string; path: Array<string | number> } | { why: string } {
  const s = spec.subject;
  switch (s.kind) {
    case 'status':
    case 'duration':
    case 'text':
    case 'body':
    case 'count':
    case 'ttft':
      return { part: s.kind, path: [] };
    case 'header':
      return { part: 'headers', path: [s.name] };
    case 'json':
      if (spec.operator === 'matches schema' || spec.operator === 'matches spec') return { why: 'a schema check runs in api-workbench run' };
      return { part: 'json', path: s.path };
    case 'toolCalls':
      return { part: 'tool_calls', path: s.path };
    case 'usage':
      return { part: 'usage', path: s.path };
    case 'cost':
      return { why: "a cost is read from API Workbench's price table: api-workbench run checks it" };
    case 'judge':
    case 'similar':
      return { why: 'this check asks a model: api-workbench run checks it' };
  }
}

/** The lines checking `assertions` against the answer in `variable` (`label` names the cell in what the program prints). */
export function checkLines(
  language: ProgramLanguage,
  label: string,
  variable: string,
  assertions: readonly AssertionSpec[],
  vars: CurlVariables,
  refs: References,
): string[] {
  return assertions.map((spec) => {
    const subject = subjectPart(spec);
    if ('why' in subject) return skippedCall(language, label, `${spec.source}: ${subject.why}`);
    const actual = new Code(partRead(language, { variable, ...subject }));
    const expected = textSource(language, refs, filled(spec.value, vars, refs));
    if (language === 'python')
      return pyCall('check', [
        ['', label],
        ['', spec.source],
        ['', actual],
        ['', spec.operator],
        ['', expected],
      ]);
    return jsPositional('check', [label, spec.source, actual, spec.operator, expected]);
  });
}

/** The program's `skipped(cell, why)`: it prints that it left a cell or a check out, and why. */
export function skippedCall(language: ProgramLanguage, label: string, why: string): string {
  if (language === 'python')
    return pyCall('skipped', [
      ['', label],
      ['', why],
    ]);
  return jsPositional('skipped', [label, why]);
}

/** A JavaScript call statement as prettier lays it out: on one line, else one argument a line. */
function jsPositional(fn: string, values: unknown[]): string {
  const args = values.map((v) => literal(JAVASCRIPT, v));
  const flat = `${fn}(${args.join(', ')});`;
  return flat.length <= JAVASCRIPT.width ? flat : `${fn}(\n${args.map((a) => `  ${a},`).join('\n')}\n);`;
}
