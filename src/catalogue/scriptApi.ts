// What a cell's scripts can call (src/notebook/scripts/prelude), as one table that completions and
// hover in `< {% %}` / `> {% %}` blocks read: Postman's `pm` and IntelliJ's `client`/`response`/
// `request`, each member with a short doc, and what a script cannot do here with the reason the
// run notes at its line. A path ending in `()` is what a call returns (`pm.expect()` → its chain).

export interface ScriptMember {
  /** `pm.environment.get`, `pm.expect().to`; `()` stands for a call's result. */
  path: string;
  /** How it is called: `(name: string) => string`. Absent for a plain value. */
  signature?: string;
  doc: string;
  /** Set when scripts here cannot do it: why, and what to do instead. */
  unsupported?: string;
}

const VARIABLE_SCOPES: ReadonlyArray<[string, string]> = [
  ['environment', 'the run’s variables (a vars cell’s values)'],
  ['collectionVariables', 'the run’s variables (collection variables are the same scope here)'],
  ['variables', 'the run’s variables, as the cells below see them as {{name}}'],
  ['globals', 'the run’s variables (globals are the same scope here)'],
];

function scopeMembers(scope: string, what: string): ScriptMember[] {
  return [
    { path: `pm.${scope}`, doc: `Variables: ${what}.` },
    { path: `pm.${scope}.get`, signature: '(name: string) => string | undefined', doc: 'The variable’s value, undefined when it is not set.' },
    {
      path: `pm.${scope}.set`,
      signature: '(name: string, value: unknown) => void',
      doc: 'Sets the variable: `{{name}}` in the cells below, as a vars line would.',
    },
    { path: `pm.${scope}.unset`, signature: '(name: string) => void', doc: 'Removes the variable for the cells below.' },
    { path: `pm.${scope}.has`, signature: '(name: string) => boolean', doc: 'Whether the variable is set.' },
    { path: `pm.${scope}.toObject`, signature: '() => Record<string, string>', doc: 'Every variable as an object.' },
  ];
}

/** Words that only read better in a chai chain (`to.be`, `that.has`). */
const CHAI_WORDS = ['to', 'be', 'been', 'is', 'that', 'which', 'and', 'has', 'have', 'with', 'at', 'of', 'same', 'but', 'does'];
const CHAI_FLAGS: ReadonlyArray<[string, string]> = [
  ['not', 'Negates what follows: `to.not.equal(3)`.'],
  ['deep', 'Compares by value in what follows: `to.deep.equal({ a: 1 })`.'],
  ['own', 'Looks only at the object’s own properties.'],
];
const CHAI_ASSERTIONS: ReadonlyArray<[string, string, string]> = [
  ['equal', '(expected: unknown, message?: string)', 'Strictly equal (===); `deep.equal` compares by value.'],
  ['eql', '(expected: unknown, message?: string)', 'Equal by value (objects and arrays compared deeply).'],
  ['include', '(part: unknown)', 'A string containing, an array with the element, an object with the properties.'],
  ['property', '(name: string, value?: unknown)', 'Has the property (and the value, when given).'],
  ['a', '(type: string)', "Of the type: 'string', 'number', 'object', 'array', 'null'…"],
  ['an', '(type: string)', "Of the type: 'array', 'object'…"],
  ['above', '(n: number)', 'Greater than n.'],
  ['below', '(n: number)', 'Less than n.'],
  ['least', '(n: number)', 'At least n (`at.least`).'],
  ['most', '(n: number)', 'At most n (`at.most`).'],
  ['oneOf', '(list: unknown[])', 'One of the values in the list.'],
  ['match', '(re: RegExp)', 'A string matching the regular expression.'],
  ['lengthOf', '(n: number)', 'Has the length n.'],
  ['keys', '(...names: string[])', 'Has exactly these keys.'],
  ['ok', '', 'Truthy.'],
  ['true', '', 'Exactly true.'],
  ['false', '', 'Exactly false.'],
  ['null', '', 'Exactly null.'],
  ['undefined', '', 'Exactly undefined.'],
  ['exist', '', 'Neither null nor undefined.'],
  ['empty', '', 'An empty string, array or object.'],
];

function chaiMembers(base: string): ScriptMember[] {
  return [
    ...CHAI_WORDS.map((w) => ({ path: `${base}.${w}`, doc: 'A chain word: reads better, does nothing.' })),
    ...CHAI_FLAGS.map(([w, doc]) => ({ path: `${base}.${w}`, doc })),
    ...CHAI_ASSERTIONS.map(([w, args, doc]): ScriptMember => ({ path: `${base}.${w}`, ...(args && { signature: args }), doc })),
  ];
}

const SEND_NOTHING = 'scripts send nothing here: put that request in a cell of its own above this one.';
const IN_ORDER = 'cells run in order, top to bottom.';

export const SCRIPT_API: readonly ScriptMember[] = [
  { path: 'pm', doc: 'Postman’s script API.' },
  {
    path: 'pm.test',
    signature: '(name: string, fn: () => void) => void',
    doc: 'A check named `name`: passes unless `fn` throws; ✓/✗ in the cell output, a test in the Testing view and JUnit.',
  },
  {
    path: 'pm.expect',
    signature: '(value: unknown) => Assertion',
    doc: 'A chai BDD assertion: `pm.expect(x).to.equal(1)`, `to.eql`, `include`, `have.property`, `be.a`, `above`, `below`, `oneOf`, `match`, `to.be.ok`, `not`.',
  },
  ...chaiMembers('pm.expect()'),
  { path: 'pm.response', doc: 'The answer (in a response script).' },
  { path: 'pm.response.code', doc: 'The HTTP status: 200.' },
  { path: 'pm.response.status', doc: 'The status’s reason: "OK".' },
  { path: 'pm.response.json', signature: '() => unknown', doc: 'The body parsed as JSON.' },
  { path: 'pm.response.text', signature: '() => string', doc: 'The body as text.' },
  { path: 'pm.response.headers', doc: 'The response headers.' },
  { path: 'pm.response.headers.get', signature: '(name: string) => string | undefined', doc: 'A header’s value (any case).' },
  { path: 'pm.response.headers.has', signature: '(name: string) => boolean', doc: 'Whether the header is there.' },
  { path: 'pm.response.responseTime', doc: 'Milliseconds the request took.' },
  { path: 'pm.response.responseSize', doc: 'The body’s size in bytes.' },
  { path: 'pm.response.to', doc: 'Assertions on the answer: `pm.response.to.have.status(200)`.' },
  { path: 'pm.response.to.have', doc: 'Assertions on the answer.' },
  { path: 'pm.response.to.have.status', signature: '(code: number | string) => void', doc: 'The status is `code` (200) or its reason ("OK").' },
  { path: 'pm.response.to.have.header', signature: '(name: string, value?: string) => void', doc: 'The header is there (with the value, when given).' },
  {
    path: 'pm.response.to.have.jsonBody',
    signature: '(path?: string, value?: unknown) => void',
    doc: 'The body is JSON (with the path, and the value, when given).',
  },
  { path: 'pm.response.to.have.body', signature: '(text?: string | RegExp) => void', doc: 'The body is, or matches, the text.' },
  { path: 'pm.response.to.be', doc: 'Assertions on the answer: `to.be.ok`.' },
  { path: 'pm.response.to.be.ok', doc: 'The status is 2xx.' },
  { path: 'pm.request', doc: 'The request: readable, editable in a pre-request script (url, method, headers, body).' },
  { path: 'pm.request.url', doc: 'The URL (toString() for the text).' },
  { path: 'pm.request.method', doc: 'The HTTP method.' },
  { path: 'pm.request.headers', doc: 'The request headers: add, upsert, remove, get.' },
  { path: 'pm.request.headers.add', signature: '(header: { key: string; value: string }) => void', doc: 'Adds a header (pre-request script).' },
  { path: 'pm.request.headers.upsert', signature: '(header: { key: string; value: string }) => void', doc: 'Sets a header (pre-request script).' },
  { path: 'pm.request.headers.remove', signature: '(name: string) => void', doc: 'Removes a header (pre-request script).' },
  { path: 'pm.request.headers.get', signature: '(name: string) => string | undefined', doc: 'A header’s value.' },
  { path: 'pm.request.body', doc: 'The body: `body.raw` is its text.' },
  ...VARIABLE_SCOPES.flatMap(([scope, what]) => scopeMembers(scope, what)),
  { path: 'pm.info', doc: 'What runs now.' },
  { path: 'pm.info.requestName', doc: 'The cell’s name (its name=), else its request line.' },
  { path: 'pm.sendRequest', signature: '(request, callback) => void', doc: 'Postman sends another request from a script.', unsupported: SEND_NOTHING },
  { path: 'pm.execution', doc: 'Postman’s run control.' },
  { path: 'pm.execution.setNextRequest', signature: '(name: string) => void', doc: 'Postman jumps to another request.', unsupported: IN_ORDER },
  { path: 'pm.execution.skipRequest', signature: '() => void', doc: 'Postman skips the request.', unsupported: 'the request is sent.' },
  { path: 'postman', doc: 'Postman’s legacy API.' },
  { path: 'postman.setNextRequest', signature: '(name: string) => void', doc: 'Postman jumps to another request.', unsupported: IN_ORDER },
  { path: 'client', doc: 'IntelliJ/httpYac’s script API.' },
  {
    path: 'client.test',
    signature: '(name: string, fn: () => void) => void',
    doc: 'A check named `name`: passes unless `fn` throws; ✓/✗ in the cell output, a test in the Testing view and JUnit.',
  },
  {
    path: 'client.assert',
    signature: '(condition: boolean, message?: string) => void',
    doc: 'Throws `message` when `condition` is false (inside client.test: fails that test).',
  },
  { path: 'client.log', signature: '(...values: unknown[]) => void', doc: 'A line in the cell output (CLI: --verbose).' },
  { path: 'client.global', doc: 'The run’s variables: `{{name}}` in the cells below.' },
  { path: 'client.global.get', signature: '(name: string) => string | undefined', doc: 'The variable’s value.' },
  { path: 'client.global.set', signature: '(name: string, value: unknown) => void', doc: 'Sets the variable: `{{name}}` in the cells below.' },
  { path: 'client.global.clear', signature: '(name: string) => void', doc: 'Removes the variable.' },
  { path: 'client.global.isEmpty', signature: '() => boolean', doc: 'Whether no variable is set.' },
  { path: 'response', doc: 'The answer (IntelliJ’s handler API, in a response script).' },
  { path: 'response.status', doc: 'The HTTP status: 200.' },
  { path: 'response.body', doc: 'The body: parsed JSON when it is JSON, else its text.' },
  { path: 'response.headers', doc: 'The response headers.' },
  { path: 'response.headers.valueOf', signature: '(name: string) => string | null', doc: 'A header’s value (any case), null when it is not there.' },
  { path: 'response.headers.valuesOf', signature: '(name: string) => string[]', doc: 'Every value of the header.' },
  { path: 'response.contentType', doc: 'The Content-Type: `mimeType` and `charset`.' },
  { path: 'response.contentType.mimeType', doc: 'application/json.' },
  { path: 'response.contentType.charset', doc: 'utf-8.' },
  { path: 'request', doc: 'The request (IntelliJ’s handler API).' },
  { path: 'request.variables', doc: 'The run’s variables.' },
  { path: 'request.variables.get', signature: '(name: string) => string | undefined', doc: 'The variable’s value.' },
  { path: 'request.variables.set', signature: '(name: string, value: unknown) => void', doc: 'Sets the variable: `{{name}}` in the cells below.' },
];

const BY_PATH = new Map(SCRIPT_API.map((m) => [m.path, m]));

/** Any chain after `pm.expect(…)` (`.to.not.be`) offers the same chai words. */
function normalize(path: string): string {
  const at = path.indexOf('pm.expect()');
  return at === 0 && path.length > 'pm.expect()'.length ? 'pm.expect()' + path.slice(path.lastIndexOf('.')) : path;
}

/** The member at `path` (`pm.environment.set`, `pm.expect().to.equal`), if the table has it. */
export function scriptMember(path: string): ScriptMember | undefined {
  return BY_PATH.get(normalize(path));
}

/** The members one step below `path` (`pm.response` → code, status, json…); the roots for ''. */
export function scriptMembersOf(path: string): ScriptMember[] {
  const base = path === '' ? '' : path.startsWith('pm.expect()') ? 'pm.expect()' : path;
  return SCRIPT_API.filter((m) => {
    const dot = m.path.lastIndexOf('.');
    return base === '' ? dot === -1 : m.path.slice(0, dot) === base;
  });
}
