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
/**
 * `example` is a whole check the parser accepts (tests read it); `llm` marks subjects only an `llm`
 * cell's answer has, so completions offer them there alone.
 */
export const CHECK_SUBJECTS: ReadonlyArray<{ word: string; detail: string; shape: CheckSubjectShape; syntax: string; example: string; llm?: true }> = [
  { word: 'status', example: 'status == 200', shape: 'plain', syntax: 'status', detail: 'the HTTP status (realtime: 200 once PUBLISH or LISTEN completed)' },
  { word: 'duration', example: 'duration < 2000', shape: 'plain', syntax: 'duration', detail: 'milliseconds the request took' },
  { word: 'header', example: 'header x-request-id exists', shape: 'header', syntax: 'header <name>', detail: 'a response header: header <name>' },
  {
    word: 'json',
    example: 'json.data[0].id exists',
    shape: 'path',
    syntax: 'json.<path>',
    detail: 'the parsed answer, or a path into it: json.places[0].id; an LLM answer against a JSON Schema: json matches schema ./answer.schema.json',
  },
  {
    word: 'text',
    example: 'text contains Lisbon',
    shape: 'plain',
    syntax: 'text',
    detail: "the answer as text: a model's answer is its text (chat or Responses, streamed or not); any other response is its body",
  },
  {
    word: 'body',
    example: 'body contains "choices"',
    shape: 'plain',
    syntax: 'body',
    detail: 'the response body as received, as text (a streamed answer keeps its assembled text; its events are json.events); json parses it',
  },
  { word: 'count', example: 'count >= 1', shape: 'plain', syntax: 'count', detail: 'LISTEN: messages received; else the length of a JSON array answer' },
  {
    word: 'tool_calls',
    example: 'tool_calls[0].name == find_place',
    llm: true,
    shape: 'path',
    syntax: 'tool_calls[i].<field>',
    detail: 'llm: the tools the model called: tool_calls[0].name, tool_calls[0].arguments.query',
  },
  {
    word: 'usage',
    example: 'usage.total_tokens < 500',
    llm: true,
    shape: 'path',
    syntax: 'usage.<field>',
    detail: 'llm: tokens used: usage.total_tokens, usage.prompt_tokens',
  },
  { word: 'cost', example: 'cost < 0.01', llm: true, shape: 'plain', syntax: 'cost', detail: "llm: the answer's estimated cost in USD, from the price table" },
  { word: 'ttft', example: 'ttft < 2000', llm: true, shape: 'plain', syntax: 'ttft', detail: 'llm: milliseconds to the first streamed token' },
  {
    word: 'similar',
    example: 'similar "a café in Lisbon" > 0.8',
    llm: true,
    shape: 'similar',
    syntax: 'similar "<text>"',
    detail: 'llm: cosine similarity of the answer to a text: similar "a café in Lisbon" > 0.8',
  },
  {
    word: 'judge:',
    example: 'judge: answers politely',
    llm: true,
    shape: 'judge',
    syntax: 'judge: <rubric>',
    detail: 'llm: a model judges the answer against a rubric and gives its reason',
  },
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
