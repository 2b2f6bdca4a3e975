import * as assert from 'node:assert/strict';
import { cellCompletions, cellDefinition, cellDiagnostics, cellHover, notebookDiagnostics, type Completion } from '../../../src/catalogue';
import { jsonFault } from '../../../src/core/jsonFault';
import { at, context } from './authoringKit';

const labels = (list: Completion[]) => list.map((c) => c.label);

describe('authoring: completions', () => {
  it('offers request lines of the cell’s service, then paths after a method', () => {
    const { cell, offset } = at('maps', '¦');
    const list = cellCompletions(cell, offset, context());
    assert.ok(labels(list).includes('POST /v1/places:searchText'));
    assert.ok(!labels(list).includes('POST /chat/completions'));
    const after = at('llm', 'POST /ch¦');
    const paths = cellCompletions(after.cell, after.offset, context());
    assert.deepEqual(labels(paths), ['/chat/completions', '/responses', '/embeddings']);
    assert.deepEqual(paths[0].range, { start: { line: 0, col: 5 }, end: { line: 0, col: 8 } });
  });

  it('offers headers, their values, and field-mask fields with their SKU tier', () => {
    const names = at('maps', 'POST /v1/places:searchText\nX-G¦');
    assert.ok(labels(cellCompletions(names.cell, names.offset, context())).includes('X-Goog-FieldMask'));
    const values = at('llm', 'POST /chat/completions\nContent-Type: ¦');
    assert.ok(labels(cellCompletions(values.cell, values.offset, context())).includes('application/json'));
    const mask = at('maps', 'POST /v1/places:searchText\nX-Goog-FieldMask: places.id,pl¦');
    const fields = cellCompletions(mask.cell, mask.offset, context());
    const rating = fields.find((c) => c.label === 'places.rating')!;
    assert.equal(rating.detail, 'Enterprise: Text Search Enterprise, $35 per 1,000');
    assert.deepEqual(rating.range, { start: { line: 1, col: 28 }, end: { line: 1, col: 30 } });
  });

  it('offers JSON body keys of the operation, nested ones, and known values (enums, models)', () => {
    const keys = at('llm', 'POST /chat/completions\nContent-Type: application/json\n\n{\n  "¦');
    const top = cellCompletions(keys.cell, keys.offset, context());
    assert.ok(labels(top).includes('model') && labels(top).includes('messages'));
    assert.equal(top.find((c) => c.label === 'model')?.insertText, '"model": ');
    const nested = at('llm', 'POST /chat/completions\n\n{"messages": [{"¦');
    assert.ok(labels(cellCompletions(nested.cell, nested.offset, context())).includes('role'));
    const role = at('llm', 'POST /chat/completions\n\n{"messages": [{"role": ¦');
    assert.deepEqual(labels(cellCompletions(role.cell, role.offset, context())), ['system', 'developer', 'user', 'assistant', 'tool', 'function']);
    const mode = at('maps', 'POST /directions/v2:computeRoutes\nX-Goog-FieldMask: routes.duration\n\n{"travelMode": "¦"}');
    const modes = cellCompletions(mode.cell, mode.offset, context());
    assert.ok(labels(modes).includes('DRIVE'));
    assert.equal(modes[0].insertText, '"TRAVEL_MODE_UNSPECIFIED"');
    const model = at('llm', 'POST /chat/completions\n\n{"model": ¦');
    const listed = [{ id: 'babbage-002' }, { id: 'dall-e-2' }, { id: 'gpt-4o-mini' }, { id: 'sandbox-chat' }, { id: 'text-embedding-3-small' }];
    const ctx = context({ models: () => listed });
    const models = cellCompletions(model.cell, model.offset, ctx);
    // Only the models the operation can use, the best-known first (the listing is by name).
    assert.deepEqual(labels(models), ['sandbox-chat', 'gpt-4o-mini']);
    assert.deepEqual(
      models.map((m) => m.sortText),
      ['0000', '0001'],
    );
    assert.match(models[1].detail!, /^Chat models · .*\$0\.15 input/);
    const embed = at('llm', 'POST /embeddings\n\n{"model": ¦');
    assert.deepEqual(labels(cellCompletions(embed.cell, embed.offset, ctx)), ['text-embedding-3-small']);
  });

  it('offers variables and named cells after {{, then parts and paths into a cell’s last result', () => {
    const start = at('maps', 'POST /v1/places:searchText\n\n{"textQuery": "{{¦');
    assert.deepEqual(labels(cellCompletions(start.cell, start.offset, context())), ['city', 'question', 'models', 'place']);
    const part = at('llm', 'POST /chat/completions\n\n{"model": "{{models.¦');
    assert.ok(labels(cellCompletions(part.cell, part.offset, context())).includes('json'));
    const path = at('llm', 'POST /chat/completions\n\n{"model": "{{models.json.data[0].¦');
    assert.deepEqual(labels(cellCompletions(path.cell, path.offset, context())), ['id']);
    const index = at('llm', 'POST /chat/completions\n\n{"model": "{{models.json.data.¦');
    const items = cellCompletions(index.cell, index.offset, context());
    assert.deepEqual(labels(items), ['[0]', '[1]']);
    assert.equal(items[1].detail, '{"id":"gpt-4o-mini"}');
  });

  it('offers check subjects after ??, operators after a subject, and answer fields after json.', () => {
    const subjects = at('maps', 'POST /v1/places:searchText\n\n{}\n\n?? ¦');
    assert.deepEqual(labels(cellCompletions(subjects.cell, subjects.offset, context())), ['status', 'duration', 'header', 'json', 'text', 'body', 'count']);
    const llmSubjects = at('llm', 'POST /chat/completions\n\n{}\n\n?? ¦');
    assert.deepEqual(labels(cellCompletions(llmSubjects.cell, llmSubjects.offset, context())).slice(7), [
      'tool_calls',
      'usage',
      'cost',
      'ttft',
      'similar',
      'judge:',
    ]);
    const ops = at('maps', 'POST /v1/places:searchText\n\n{}\n\n?? status ¦');
    assert.ok(labels(cellCompletions(ops.cell, ops.offset, context())).includes('=='));
    const fields = at('maps', 'POST /v1/places:searchText\n\n{}\n\n?? json.places[0].¦');
    assert.ok(labels(cellCompletions(fields.cell, fields.offset, context())).includes('displayName'));
    const header = at('llm', 'GET /models\n\n?? header ¦', { name: 'models' });
    assert.deepEqual(labels(cellCompletions(header.cell, header.offset, context())), ['x-request-id']);
  });

  it('offers realtime commands, then the connection’s channels', () => {
    // Disconnected (no channels known): still the kinds of channel by their prefix.
    const offline = at('realtime', 'LISTEN ¦');
    assert.deepEqual(labels(cellCompletions(offline.cell, offline.offset, context({ channels: () => undefined }))), [
      'private-',
      'presence-',
      'private-encrypted-',
    ]);
    const verbs = at('realtime', 'LI¦');
    assert.ok(labels(cellCompletions(verbs.cell, verbs.offset, context())).includes('LISTEN'));
    const channel = at('realtime', 'LISTEN demo-¦');
    const ctx = context({ channels: () => ['demo-ticker', 'presence-room'] });
    const list = cellCompletions(channel.cell, channel.offset, ctx);
    assert.deepEqual(labels(list), ['demo-ticker', 'presence-room', 'private-', 'presence-', 'private-encrypted-']);
    assert.deepEqual(list[0].range, { start: { line: 0, col: 7 }, end: { line: 0, col: 12 } });
  });
});

describe('authoring: hover and definition', () => {
  it('shows a variable’s value, a cell path’s last value, with secrets masked', () => {
    const v = at('maps', 'POST /v1/places:searchText\n\n{"textQuery": "{{ci¦ty}}"}');
    assert.deepEqual(cellHover(v.cell, v.offset, context())?.lines, ['**city**', '```\nLisbon\n```']);
    const p = at('llm', 'POST /chat/completions\n\n{"model": "{{models.json.data[1].i¦d}}"}');
    assert.deepEqual(cellHover(p.cell, p.offset, context({ mask: (t) => t.replace('gpt', '***') }))?.lines, [
      '**models.json.data[1].id** (last result of "models")',
      '```\n***-4o-mini\n```',
    ]);
  });

  it('shows what the connection says of a model and its price, and a mask field’s SKU', () => {
    const m = at('llm', 'POST /chat/completions\n\n{"model": "gpt-4o-m¦ini"}');
    const ctx = context({ models: () => [{ id: 'gpt-4o-mini', contextWindow: 128000 }] });
    assert.deepEqual(cellHover(m.cell, m.offset, ctx)?.lines, [
      '**gpt-4o-mini**',
      'offered by the connection',
      'context window 128,000 tokens',
      '$0.15 input, $0.6 output per million tokens',
    ]);
    const f = at('maps', 'POST /v1/places:searchText\nX-Goog-FieldMask: places.id,places.rat¦ing\n\n{}');
    assert.deepEqual(cellHover(f.cell, f.offset, context())?.lines, [
      '**places.rating** (Places Text Search)',
      'Enterprise: Text Search Enterprise, $35 per 1,000 requests',
    ]);
  });

  it('goes from {{city}} to its vars line and from {{models.…}} to that cell', () => {
    const v = at('maps', 'POST /v1/places:searchText\n\n{"textQuery": "{{question}} {{ci¦ty}}"}');
    assert.deepEqual(cellDefinition(v.cell, v.offset, context()), { cellIndex: 0, range: { start: { line: 0, col: 0 }, end: { line: 0, col: 0 } } });
    const c = at('llm', 'POST /chat/completions\n\n{"model": "{{mod¦els.json.data[0].id}}"}');
    assert.equal(cellDefinition(c.cell, c.offset, context())?.cellIndex, 1);
  });
});

describe('authoring: diagnostics', () => {
  const diags = (language: string, text: string, attributes: Record<string, string> = {}, ctx = context()) =>
    cellDiagnostics({ index: 3, language, value: text, attributes }, ctx);

  it('an undefined variable, with a fix that defines it in the vars cell', () => {
    const [d] = diags('maps', 'POST /v1/places:searchText\n\n{"textQuery": "{{nope}}"}');
    assert.equal(d.code, 'undefined-variable');
    assert.equal(d.severity, 'error');
    assert.deepEqual(d.range, { start: { line: 2, col: 15 }, end: { line: 2, col: 23 } });
    assert.deepEqual(d.fixes, [
      {
        title: 'Define "nope" in the vars cell',
        cellIndex: 0,
        edit: { range: { start: { line: 1, col: 25 }, end: { line: 1, col: 25 } }, newText: '\nnope = ' },
      },
    ]);
    // A misspelt variable: "did you mean" the nearest defined one comes first.
    const [typo] = diags('maps', 'POST /v1/places:searchText\n\n{"textQuery": "{{cty}}"}');
    assert.equal(typo.code, 'undefined-variable');
    assert.deepEqual(typo.fixes?.[0], {
      title: 'Did you mean "city"? Use {{city}}',
      cellIndex: 3,
      edit: { range: { start: { line: 2, col: 17 }, end: { line: 2, col: 20 } }, newText: 'city' },
    });
    assert.equal(typo.fixes?.[1].title, 'Define "cty" in the vars cell');
    assert.deepEqual(diags('maps', 'POST /v1/places:searchText\n\n{"textQuery": "{{city}} {{place.json.places}}"}'), []);
    assert.equal(diags('llm', 'GET /models/{{nobody.json.id}}')[0].code, 'unknown-cell');
  });

  it('a malformed JSON body, located at the fault; {{references}} as values are fine', () => {
    const [d] = diags('llm', 'POST /chat/completions\nContent-Type: application/json\n\n{\n  "model": "x",\n  "n": 1,\n}');
    assert.equal(d.code, 'malformed-json');
    assert.equal(d.range.start.line, 6);
    assert.deepEqual(
      diags('maps', 'POST /directions/v2:computeRoutes\nX-Goog-FieldMask: routes.duration\n\n{"origin": {"location": {"latLng": {"latitude": {{city}}}}}}'),
      [],
    );
    assert.deepEqual(diags('http', 'POST https://example.com/x\nContent-Type: text/plain\n\n{not json'), [], 'a body that says it is not JSON is not checked');
  });

  it('an unknown check subject (the parser’s words), and a json path the answer never has or the mask leaves out', () => {
    const [subject] = diags('llm', 'GET /models\n\n?? colour == red');
    assert.equal(subject.code, 'syntax');
    assert.match(subject.message, /"colour" is not something to assert on/);
    assert.equal(subject.range.start.line, 2);
    const found = diags('maps', 'POST /v1/places:searchText\nX-Goog-FieldMask: places.id\n\n{}\n\n?? json.places[0].nmae exists\n?? json.places[0].rating > 4');
    assert.deepEqual(
      found.map((d) => [d.code, d.range.start.line, d.severity]),
      [
        ['not-in-response', 5, 'warning'],
        ['not-in-mask', 6, 'warning'],
      ],
    );
    assert.equal(found[1].fixes?.[0].title, 'Add places.rating to the field mask');
    assert.deepEqual(found[1].fixes?.[0].edit, { range: { start: { line: 1, col: 27 }, end: { line: 1, col: 27 } }, newText: ',places.rating' });
  });

  it('a mask whose dear fields the cell’s own checks read is the cheapest that serves it: no dearer-SKU note', () => {
    const served = diags(
      'maps',
      'POST /v1/places:searchText\nX-Goog-FieldMask: places.id,places.displayName,places.location\n\n{}\n\n?? json.places[0].displayName.text exists\n?? json.places[0].location.latitude > 38',
    );
    assert.deepEqual(served, []);
    const [d] = diags(
      'maps',
      'POST /v1/places:searchText\nX-Goog-FieldMask: places.id,places.displayName,places.rating\n\n{}\n\n?? json.places[0].displayName.text exists',
    );
    assert.match(d.message, /because of rating; without it: Text Search Pro/);
  });

  it('a field mask that moves the request to a dearer SKU: information with the price, and a fix dropping the dear fields', () => {
    const [d] = diags('maps', 'POST /v1/places:searchText\nX-Goog-FieldMask: places.id,places.displayName,places.rating\n\n{}');
    assert.equal(d.severity, 'information');
    assert.equal(
      d.message,
      'this mask bills as Text Search Enterprise ($35 per 1,000 requests) because of rating; without it: Text Search Pro ($32 per 1,000)',
    );
    assert.equal(d.fixes?.[0].edit.newText, ' places.id,places.displayName');
  });

  it('a model the connection does not offer (only when its models are known), with the nearest as the fix', () => {
    const known = context({ models: () => [{ id: 'gpt-4o-mini' }, { id: 'sandbox-chat' }] });
    const [d] = diags('llm', 'POST /chat/completions\n\n{"model": "gpt-4o-mnii", "messages": []}', {}, known);
    assert.equal(d.severity, 'warning');
    assert.equal(d.code, 'unknown-model');
    assert.equal(d.fixes?.[0].edit.newText, 'gpt-4o-mini');
    assert.deepEqual(diags('llm', 'POST /chat/completions\n\n{"model": "gpt-4o-mnii", "messages": []}'), [], 'unknown models list: nothing to say');
  });

  it('an unknown connection= name (when the names are known)', () => {
    const ctx = context({ connectionNames: () => ['Local Sandbox', 'Work'] });
    const [d] = diags('llm', 'GET /models', { connection: 'Wrok' }, ctx);
    assert.equal(d.code, 'unknown-connection');
    assert.equal(d.range.start.line, -1);
    assert.deepEqual(diags('llm', 'GET /models', { connection: 'Work' }, ctx), []);
  });

  it('a variable a script sets (pm.environment.set, client.global.set) is defined for the cells that use it', () => {
    const text = [
      '# Scripts',
      '',
      '```llm name=login',
      '< {%',
      '  pm.environment.set("limit", 2);',
      "  client.global.set('token', 'abc');",
      '%}',
      'GET /models?limit={{limit}}',
      '```',
      '',
      '```llm',
      'GET /models?after={{token}}&x={{nope}}',
      '```',
      '',
    ].join('\n');
    const found = notebookDiagnostics(text, 'scripts.awb.md').map((d) => d.message);
    assert.equal(found.filter((m) => /unknown variable/.test(m)).length, 1, found.join('\n'));
    assert.match(found.join('\n'), /unknown variable "nope"/);
  });

  it('a whole notebook: findings on file lines', () => {
    const text = [
      '# Title',
      '',
      '```vars',
      'city = Lisbon',
      '```',
      '',
      '```maps',
      'POST /v1/places:searchText',
      'X-Goog-FieldMask: places.id',
      '',
      '{"textQuery": "{{nope}}",}',
      '',
      '?? colour == 1',
      '```',
      '',
    ].join('\n');
    assert.deepEqual(
      notebookDiagnostics(text, 'n.awb.md').map((f) => `${f.line}:${f.column} ${f.severity} ${f.code}`),
      ['11:16 error undefined-variable', '11:26 error malformed-json', '13:1 error syntax'],
    );
  });
});

describe('authoring: where a JSON body goes wrong', () => {
  it('names the fault and its offset, whatever Node version parses JSON', () => {
    assert.equal(jsonFault('{"a": [1, {"b": null}], "c": "x\\n"}'), undefined);
    assert.deepEqual(jsonFault('{"a": 1,}'), { offset: 8, message: '"}" is where another key (JSON has no comma before "}") should be' });
    assert.deepEqual(jsonFault('{"a": [}'), { offset: 7, message: '"}" is where a value should be' });
    assert.deepEqual(jsonFault('{"a": 1'), { offset: 7, message: 'it ends where a "," or "}" should be' });
    assert.deepEqual(jsonFault("{'a': 1}"), { offset: 1, message: '"\'" is where a key in double quotes should be' });
    assert.deepEqual(jsonFault('[1] 2'), { offset: 4, message: '"2" is after the end of the JSON value' });
  });
});
