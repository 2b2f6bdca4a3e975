// The words of a `??` check line, in one place: the parser (./cells), the engine (./assertions),
// the editor's completions and `api-workbench check` (src/catalogue) all read these lists.
import type { AssertionOperator } from './types';

/**
 * What a `??` line can look at and how it compares: the one list the parser, the editor's
 * completions and `api-workbench check` read. `word` is how a line starts (`header` takes a name,
 * `json` a path: `json.places[0].id`).
 */
export const CHECK_SUBJECTS: ReadonlyArray<{ word: string; detail: string }> = [
  { word: 'status', detail: 'the HTTP status (realtime: 200 once PUBLISH or LISTEN completed)' },
  { word: 'duration', detail: 'milliseconds the request took' },
  { word: 'header', detail: 'a response header: header <name>' },
  { word: 'json', detail: 'the parsed answer, or a path into it: json.places[0].id' },
  { word: 'text', detail: 'the answer as text (a streamed answer: its whole text)' },
  { word: 'count', detail: 'LISTEN: messages received; else the length of a JSON array answer' },
];

export const CHECK_OPERATORS: ReadonlyArray<{ word: AssertionOperator; detail: string }> = [
  { word: '==', detail: 'equals (200, "Lisbon", true, or JSON)' },
  { word: '!=', detail: 'differs from' },
  { word: '<=', detail: 'at most (numbers)' },
  { word: '>=', detail: 'at least (numbers)' },
  { word: '<', detail: 'less than (numbers)' },
  { word: '>', detail: 'more than (numbers)' },
  { word: 'contains', detail: 'text contains, array has an item equal to, object has the key' },
  { word: 'matches', detail: 'matches a regular expression written /like this/i' },
  { word: 'exists', detail: 'is present in the answer (takes no value)' },
];
