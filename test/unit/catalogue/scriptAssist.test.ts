import * as assert from 'node:assert/strict';
import { cellCompletions, cellHover, type Completion } from '../../../src/catalogue';
import { SCRIPT_API } from '../../../src/catalogue/scriptApi';
import { at, context } from './authoringKit';

const labels = (list: Completion[]) => list.map((c) => c.label);
const complete = (text: string, language = 'http') => {
  const { cell, offset } = at(language, text);
  return cellCompletions(cell, offset, context());
};
const hover = (text: string) => {
  const { cell, offset } = at('http', text);
  return cellHover(cell, offset, context());
};

describe('authoring: script blocks', () => {
  it('offers pm’s members with their docs after `pm.` in a response script, pm.sendRequest last and saying why it does not run', () => {
    const list = complete('GET https://api.example.com/me\n\n> {%\npm.¦\n%}');
    for (const name of ['test', 'expect', 'response', 'request', 'environment', 'collectionVariables', 'variables', 'globals', 'info', 'sendRequest'])
      assert.ok(labels(list).includes(name), name);
    const test = list.find((c) => c.label === 'test')!;
    assert.match(test.documentation!, /Testing view and JUnit/);
    assert.deepEqual(test.range, { start: { line: 3, col: 3 }, end: { line: 3, col: 3 } });
    const send = list.find((c) => c.label === 'sendRequest')!;
    assert.match(send.detail!, /^not run here: scripts send nothing here/);
    assert.equal(labels([...list].sort((a, b) => a.sortText!.localeCompare(b.sortText!))).at(-1), 'sendRequest');
  });

  it('follows member chains, calls included: pm.response, variable scopes, pm.expect(…) chai chains, pm.info', () => {
    assert.deepEqual(
      ['code', 'status', 'json', 'text', 'headers', 'responseTime', 'to'].filter((n) => !labels(complete('GET /x\n> {% pm.response.¦ %}')).includes(n)),
      [],
    );
    assert.deepEqual(
      labels(complete('GET /x\n> {% pm.environment.s¦ %}')).filter((l) => ['get', 'set', 'unset', 'has'].includes(l)),
      ['get', 'set', 'unset', 'has'],
    );
    const chai = labels(complete('GET /x\n> {%\npm.test("ok", () => { pm.expect(pm.response.json().user.name).to.¦ });\n%}'));
    for (const name of ['equal', 'eql', 'include', 'property', 'a', 'above', 'below', 'oneOf', 'match', 'ok', 'not', 'be', 'have'])
      assert.ok(chai.includes(name), name);
    assert.deepEqual(labels(complete('GET /x\n> {% pm.expect(1).to.not.be.¦ %}')), chai);
    assert.deepEqual(labels(complete('GET /x\n> {% pm.response.to.have.¦ %}')), ['status', 'header', 'jsonBody', 'body']);
    assert.deepEqual(labels(complete('GET /x\n> {% pm.info.¦ %}')), ['requestName']);
  });

  it('offers client, response and request members in IntelliJ handlers, and the roots once a word is started', () => {
    assert.deepEqual(labels(complete('GET /x\n> {%\n  client.¦\n%}')), ['test', 'assert', 'log', 'global']);
    assert.deepEqual(labels(complete('GET /x\n> {% client.global.¦ %}')), ['get', 'set', 'clear', 'isEmpty']);
    assert.deepEqual(labels(complete('GET /x\n> {% response.¦ %}')), ['status', 'body', 'headers', 'contentType']);
    assert.ok(labels(complete('GET /x\n> {% response.headers.¦ %}')).includes('valueOf'));
    assert.deepEqual(labels(complete('< {% request.variables.¦ %}\nGET /x')), ['get', 'set']);
    assert.deepEqual(labels(complete('GET /x\n> {% cl¦ %}')), ['pm', 'postman', 'client', 'response', 'request']);
  });

  it('offers nothing of scripts outside a block: after `%}`, in the body, in a header', () => {
    assert.ok(!labels(complete('GET /x\n> {% client.log(1) %} pm.¦')).includes('environment'));
    const body = labels(complete('POST /x\nContent-Type: application/json\n\n{"pm.¦": 1}'));
    assert.ok(!body.includes('sendRequest'));
    assert.ok(!labels(complete('GET /x\nX-Trace: pm.¦')).includes('environment'));
  });

  it('hovering a member says what it does, with its signature, and what scripts cannot do here', () => {
    const set = hover('GET /x\n> {%\npm.environment.s¦et("token", pm.response.json().token);\n%}')!;
    assert.deepEqual(set.range, { start: { line: 2, col: 15 }, end: { line: 2, col: 18 } });
    assert.match(set.lines.join('\n'), /\*\*pm\.environment\.set\*\* `\(name: string, value: unknown\) => void`/);
    assert.match(hover('GET /x\n> {% pm.expect(1).to.eq¦l(1) %}')!.lines.join('\n'), /Equal by value/);
    assert.match(hover('GET /x\n> {% response.headers.value¦Of("ETag") %}')!.lines.join('\n'), /null when it is not there/);
    assert.match(hover('GET /x\n> {% pm.send¦Request("https://a") %}')!.lines.join('\n'), /Not run here: scripts send nothing here/);
    assert.equal(hover('GET /x\n> {% const a = my¦Thing.x; %}'), undefined);
  });

  it('the table documents what scripts cannot do: pm.sendRequest and the run-order calls', () => {
    const unsupported = SCRIPT_API.filter((m) => m.unsupported).map((m) => m.path);
    assert.deepEqual(unsupported, ['pm.sendRequest', 'pm.execution.setNextRequest', 'pm.execution.skipRequest', 'postman.setNextRequest']);
  });
});
