// A notebook as a program: each `??` check as a call of the program's `check`, which prints the
// check, what it expected and what came, and makes the program exit non-zero when it fails. The
// checks that ask a model, read the price table or a schema file are the notebook's own: the
// program says it skipped them.
import type { AssertionSpec, CurlVariables } from '../../notebook/api';
import { Code, jsCall, pyCall } from './literals';
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
    if ('why' in subject) {
      const why = `${spec.source}: ${subject.why}`;
      return language === 'python'
        ? `${pyCall('skipped', [
            ['cell', label],
            ['why', why],
          ])}`
        : `skipped(${JSON.stringify(label)}, ${JSON.stringify(why)});`;
    }
    const actual = new Code(partRead(language, { variable, ...subject }));
    const expected = textSource(language, refs, filled(spec.value, vars, refs));
    if (language === 'python')
      return pyCall('check', [
        ['cell', label],
        ['source', spec.source],
        ['actual', actual],
        ['operator', spec.operator],
        ['value', expected],
      ]);
    // One object argument: prettier lays a long call out as it lays out jsCall's.
    return `${jsCall('check', { cell: label, source: spec.source, actual, operator: spec.operator, value: expected })};`;
  });
}
