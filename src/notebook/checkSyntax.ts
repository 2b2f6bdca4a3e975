// The words of a `??` check line, in one place: the parser (./cells), the engine (./assertions),
// the editor's completions and `api-workbench check` (src/catalogue) all read these lists.
import type { AssertionOperator } from './types';

/** How a subject is written: alone, with a path after it, or with its own syntax. */
export type CheckSubjectShape = 'plain' | 'path' | 'header' | 'similar' | 'judge';

/**
 * What a `??` line can look at and how it compares: the one list the parser, the editor's
 * completions and `api-workbench check` read. `word` is how a line starts (`header` takes a name,
 * `json` a path: `json.places[0].id`).
 */
export const CHECK_SUBJECTS: ReadonlyArray<{ word: string; detail: string; shape: CheckSubjectShape; syntax: string }> = [
  { word: 'status', shape: 'plain', syntax: 'status', detail: 'the HTTP status (realtime: 200 once PUBLISH or LISTEN completed)' },
  { word: 'duration', shape: 'plain', syntax: 'duration', detail: 'milliseconds the request took' },
  { word: 'header', shape: 'header', syntax: 'header <name>', detail: 'a response header: header <name>' },
  {
    word: 'json',
    shape: 'path',
    syntax: 'json.<path>',
    detail: 'the parsed answer, or a path into it: json.places[0].id; an LLM answer against a JSON Schema: json matches schema ./answer.schema.json',
  },
  { word: 'text', shape: 'plain', syntax: 'text', detail: 'the answer as text (a streamed answer: its whole text)' },
  { word: 'count', shape: 'plain', syntax: 'count', detail: 'LISTEN: messages received; else the length of a JSON array answer' },
  {
    word: 'tool_calls',
    shape: 'path',
    syntax: 'tool_calls[i].<field>',
    detail: 'llm: the tools the model called: tool_calls[0].name, tool_calls[0].arguments.query',
  },
  { word: 'usage', shape: 'path', syntax: 'usage.<field>', detail: 'llm: tokens used: usage.total_tokens, usage.prompt_tokens' },
  { word: 'cost', shape: 'plain', syntax: 'cost', detail: "llm: the answer's estimated cost in USD, from the price table" },
  { word: 'ttft', shape: 'plain', syntax: 'ttft', detail: 'llm: milliseconds to the first streamed token' },
  { word: 'similar', shape: 'similar', syntax: 'similar "<text>"', detail: 'llm: cosine similarity of the answer to a text: similar "a café in Lisbon" > 0.8' },
  { word: 'judge:', shape: 'judge', syntax: 'judge: <rubric>', detail: 'llm: a model judges the answer against a rubric and gives its reason' },
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
