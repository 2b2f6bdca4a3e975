import * as assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { ScriptEngine } from '../../../../src/notebook/scripts/engine';
import type { ScriptInput } from '../../../../src/notebook/scripts/model';

const body = { token: 't-1', user: { id: 7, name: 'Ada', roles: ['admin', 'dev'] }, items: [1, 2, 3], email: 'ada@example.com' };
const input = (over: Partial<ScriptInput> = {}): ScriptInput => ({
  phase: 'post',
  requestName: 'login',
  variables: { city: 'Lisbon' },
  request: { method: 'POST', url: 'https://api.example.com/login', headers: [{ key: 'Accept', value: 'application/json' }], body: '{"user":"ada"}' },
  response: {
    code: 200,
    headers: [
      { key: 'Content-Type', value: 'application/json; charset=utf-8' },
      { key: 'X-Request-Id', value: 'r-9' },
    ],
    body: JSON.stringify(body),
    responseTime: 12,
    size: 99,
  },
  ...over,
});

describe('script APIs: pm and client over one engine', function () {
  this.timeout(60_000);
  let engine: ScriptEngine;
  before(async () => (engine = await ScriptEngine.create({ timeMs: 10_000 })));
  after(() => engine.dispose());

  const tests = (source: string, over?: Partial<ScriptInput>) => {
    const run = engine.run(source, input(over));
    assert.equal(run.failure, undefined, JSON.stringify(run.failure));
    return run.output!;
  };

  it('every pm.expect chain collections use passes on a matching answer', () => {
    const out = tests(`
      const j = pm.response.json();
      pm.test('eql', () => pm.expect(j.items).to.eql([1, 2, 3]));
      pm.test('equal', () => pm.expect(j.user.name).to.equal('Ada'));
      pm.test('include', () => { pm.expect(j.user.roles).to.include('dev'); pm.expect(j.email).to.include('@'); pm.expect(j.user).to.include({ id: 7 }); });
      pm.test('have.property', () => { pm.expect(j).to.have.property('token'); pm.expect(j.user).to.have.property('id', 7); });
      pm.test('be.a/an', () => { pm.expect(j.token).to.be.a('string'); pm.expect(j.items).to.be.an('array'); pm.expect(j.user).to.be.an('object'); });
      pm.test('above/below', () => { pm.expect(j.user.id).to.be.above(6); pm.expect(j.user.id).to.be.below(8); });
      pm.test('oneOf', () => pm.expect(pm.response.code).to.be.oneOf([200, 201]));
      pm.test('match', () => pm.expect(j.email).to.match(/@example\\.com$/));
      pm.test('to.be.ok', () => pm.expect(j.token).to.be.ok);
      pm.test('not', () => { pm.expect(j.user.name).to.not.equal('Bob'); pm.expect(j.items).not.to.include(9); pm.expect(j).to.not.have.property('password'); });
      pm.test('status and headers', () => { pm.response.to.have.status(200); pm.response.to.have.header('X-Request-Id'); pm.response.to.be.ok; pm.response.to.have.jsonBody('user.name', 'Ada'); pm.expect(pm.response.headers.get('content-type')).to.include('json'); });
      pm.test('status text, time, text()', () => { pm.expect(pm.response.status).to.equal('OK'); pm.expect(pm.response.responseTime).to.be.below(1000); pm.expect(pm.response.text()).to.include('Ada'); });
    `);
    assert.deepEqual(
      out.tests.filter((t) => !t.passed),
      [],
    );
    assert.equal(out.tests.length, 12);
  });

  it('a failing chain says what it expected, like chai', () => {
    const out = tests(
      `pm.test('wrong status', () => pm.expect(pm.response.code).to.equal(201));\npm.test('missing', () => pm.response.to.have.jsonBody('user.age'));`,
    );
    assert.deepEqual(
      out.tests.map((t) => [t.name, t.passed, t.message, t.line]),
      [
        ['wrong status', false, 'expected 200 to equal 201', 1],
        ['missing', false, "expected response body json to have path 'user.age'", 2],
      ],
    );
  });

  it('variables at every scope are one store; legacy tests[] and responseBody work', () => {
    const out = tests(`
      pm.environment.set('token', pm.response.json().token);
      pm.collectionVariables.set('n', 5);
      pm.globals.set('g', { a: 1 });
      pm.variables.unset('city');
      tests['legacy ' + pm.variables.get('token')] = JSON.parse(responseBody).user.id === 7;
      pm.test('has', () => { pm.expect(pm.environment.has('token')).to.be.true; pm.expect(pm.globals.get('city')).to.be.undefined; });
    `);
    assert.deepEqual(out.variables, { token: 't-1', n: '5', g: '{"a":1}', city: null });
    assert.deepEqual(
      out.tests.map((t) => [t.name, t.passed]),
      [
        ['has', true],
        ['legacy t-1', true],
      ],
    );
  });

  it('a pre-request script edits the request and signs it with crypto-js HMAC', () => {
    const run = engine.run(
      `const CryptoJS = require('crypto-js');
       const sig = CryptoJS.HmacSHA256(pm.request.body.raw, 'shh').toString(CryptoJS.enc.Hex);
       pm.request.headers.add({ key: 'X-Signature', value: sig });
       pm.request.headers.upsert({ key: 'Accept', value: 'text/plain' });
       pm.request.url = pm.request.url.toString() + '?v=2';
       pm.environment.set('info', pm.info.requestName + ' ' + pm.info.eventName);`,
      input({ phase: 'pre', response: undefined }),
    );
    assert.equal(run.failure, undefined, JSON.stringify(run.failure));
    const expected = createHmac('sha256', 'shh').update('{"user":"ada"}').digest('hex');
    assert.deepEqual(run.output?.request, {
      method: 'POST',
      url: 'https://api.example.com/login?v=2',
      headers: [
        { key: 'Accept', value: 'text/plain' },
        { key: 'X-Signature', value: expected },
      ],
      body: '{"user":"ada"}',
    });
    assert.equal(run.output?.variables.info, 'login prerequest');
  });

  it('lodash, uuid, atob/btoa and CryptoJS base64 are there', () => {
    const out = tests(`
      const _ = require('lodash');
      const { v4 } = require('uuid');
      pm.test('lodash', () => pm.expect(_.chunk([1, 2, 3], 2)).to.eql([[1, 2], [3]]));
      pm.test('uuid', () => pm.expect(v4()).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/));
      pm.test('two uuids differ', () => pm.expect(v4()).to.not.equal(v4()));
      pm.test('btoa/atob', () => { pm.expect(btoa('user:pass')).to.equal('dXNlcjpwYXNz'); pm.expect(atob('dXNlcjpwYXNz')).to.equal('user:pass'); });
      pm.test('CryptoJS base64', () => pm.expect(require('crypto-js').enc.Base64.stringify(require('crypto-js').enc.Utf8.parse('hi'))).to.equal('aGk='));
    `);
    assert.deepEqual(
      out.tests.filter((t) => !t.passed),
      [],
    );
    assert.equal(out.tests.length, 5);
  });

  it('IntelliJ/httpYac handlers: client.test/assert/global/log, response.status/body/headers/contentType, request.variables', () => {
    const run = engine.run(
      `client.test('status', () => client.assert(response.status === 200, 'not 200'));
       client.test('body', () => client.assert(response.body.user.name === 'Ada'));
       client.test('headers', () => client.assert(response.headers.valueOf('x-request-id') === 'r-9'));
       client.test('content type', () => client.assert(response.contentType.mimeType === 'application/json' && response.contentType.charset === 'utf-8'));
       client.test('fails', () => client.assert(false, 'told to fail'));
       client.global.set('auth', response.body.token);
       request.variables.set('seen', client.global.get('auth'));
       client.log('token stored', { len: 3 });`,
      input(),
    );
    assert.equal(run.failure, undefined);
    assert.deepEqual(
      run.output?.tests.map((t) => [t.name, t.passed, t.message]),
      [
        ['status', true, undefined],
        ['body', true, undefined],
        ['headers', true, undefined],
        ['content type', true, undefined],
        ['fails', false, 'told to fail'],
      ],
    );
    assert.deepEqual(run.output?.variables, { auth: 't-1', seen: 't-1' });
    assert.deepEqual(run.logs, ['token stored {"len":3}']);
  });

  it('what a script cannot do says so at its line, and the script goes on', () => {
    const out = tests(`pm.sendRequest('https://x.example');\npostman.setNextRequest('b');\nconst m = require('moment');\npm.test('went on', () => {});`);
    assert.deepEqual(
      out.notes.map((n) => n.line),
      [1, 2, 3],
    );
    assert.match(out.notes[0].message, /scripts send nothing/);
    assert.match(out.notes[1].message, /cells run in order/);
    assert.match(out.notes[2].message, /only crypto-js, lodash and uuid/);
    assert.equal(out.tests[0].name, 'went on');
  });
});
