// Token commands and the token cache: what a command's output means (a token alone, or az's JSON
// with its expiry), what a failing command tells the user, and when a token is fetched again.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CredentialResolver, COGNITIVE_SERVICES_SCOPE } from '../../../src/core/auth/resolver';
import { jwtExpiry, RENEW_BEFORE_MS, TokenCache, type Token } from '../../../src/core/auth/tokenCache';
import { parseTokenOutput, runTokenCommand, TokenCommandError } from '../../../src/core/auth/tokenCommand';
import { parseConnectionsSetting, usesStoredKey, type HttpConnection } from '../../../src/core/connections';
import { connectionsFileFor } from '../../../src/core/connectionsFile';
import { Redactor } from '../../../src/core/redact';
import { ManualClock } from '../helpers/clock';

const node = (script: string) => `"${process.execPath}" -e ${JSON.stringify(script)}`;

describe('core/auth: token commands', function () {
  this.timeout(20_000);

  it('plain output is the token, kept for the run; az -o json gives the token and its expiry', () => {
    assert.deepEqual(parseTokenOutput('  eyJ0eXAi.abc.def \n'), { value: 'eyJ0eXAi.abc.def' });
    assert.deepEqual(parseTokenOutput(JSON.stringify({ accessToken: 'tok-1', expires_on: 1_900_000_000, tokenType: 'Bearer' })), {
      value: 'tok-1',
      expiresAt: 1_900_000_000_000,
    });
    const local = parseTokenOutput(JSON.stringify({ accessToken: 'tok-2', expiresOn: '2030-01-31 12:34:56.000000' }));
    assert.equal(local.expiresAt, new Date(2030, 0, 31, 12, 34, 56).getTime());
    assert.equal(parseTokenOutput(JSON.stringify({ access_token: 'tok-3', expires_in: 60 }), 1_000).expiresAt, 61_000);
  });

  it('output that is not a token is refused without repeating it (it may be one)', () => {
    assert.throws(() => parseTokenOutput(''), /printed nothing/);
    assert.throws(
      () => parseTokenOutput('Bearer secret-value-1'),
      (e: Error) => /more than one word/.test(e.message) && !e.message.includes('secret-value-1'),
    );
    assert.throws(
      () => parseTokenOutput('{"value": "secret-value-2"}'),
      (e: Error) => /without a token/.test(e.message) && !e.message.includes('secret-value-2'),
    );
  });

  it('a failing command rejects with its own message and exit code', async () => {
    await assert.rejects(
      runTokenCommand(node('console.error("ERROR: Please run \'az login\' to setup account."); process.exit(3)')),
      (e: Error) => e instanceof TokenCommandError && /exit 3/.test(e.message) && /Please run 'az login'/.test(e.message),
    );
    assert.equal((await runTokenCommand(node("console.log('tok-from-command')"))).value, 'tok-from-command');
  });

  it('a failing command that printed its token: the token is masked in the stderr shown, whole or as JSON', async () => {
    const token = 'tok-printed-then-failed-0123456789';
    await assert.rejects(
      runTokenCommand(node(`console.log(${JSON.stringify(token)}); console.error('could not cache ${token} for later'); process.exit(1)`)),
      (e: Error) => /exit 1/.test(e.message) && /could not cache \*\*\* for later/.test(e.message) && !e.message.includes('0123456789'),
    );
    const json = JSON.stringify({ accessToken: token, expiresOn: '2030-01-31 12:34:56.000000' });
    await assert.rejects(
      runTokenCommand(node(`console.log(${JSON.stringify(json)}); console.error('refresh failed: ' + ${JSON.stringify(json)}); process.exit(2)`)),
      (e: Error) => /refresh failed/.test(e.message) && !e.message.includes('0123456789'),
    );
  });

  describe('a command that leaves a child holding its output (POSIX shells)', () => {
    let dir: string;
    before(function () {
      if (process.platform === 'win32') this.skip();
      dir = mkdtempSync(path.join(tmpdir(), 'awb-token-'));
    });

    /** Whether the process `pid` still runs (a killed one may linger as a zombie until its new parent reaps it). */
    const alive = (pid: number) => {
      try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return false;
      }
    };
    const pidIn = (file: string) => Number(readFileSync(file, 'utf8').trim());

    it('a command that sleeps past the limit is ended, its background child too, and the promise settles at the limit', async () => {
      const pids = path.join(dir, 'sleeping.pid');
      const script = `sleep 1000 & echo $! > ${JSON.stringify(pids)}; sleep 1000`;
      const started = Date.now();
      await assert.rejects(runTokenCommand(script, { timeoutMs: 700 }), /did not finish within 1 s/);
      assert.ok(Date.now() - started < 3_000, `settled after ${Date.now() - started} ms`);
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(alive(pidIn(pids)), false, 'the background sleep was killed with its group');
    });

    it('a command that prints its token and exits, leaving `sleep 1000 &` on its stdout, gives the token at once and ends the child', async () => {
      const pids = path.join(dir, 'left.pid');
      const script = `sleep 1000 & echo $! > ${JSON.stringify(pids)}; echo tok-left-a-child-behind`;
      const started = Date.now();
      assert.equal((await runTokenCommand(script, { timeoutMs: 10_000 })).value, 'tok-left-a-child-behind');
      assert.ok(Date.now() - started < 3_000, `settled after ${Date.now() - started} ms`);
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(alive(pidIn(pids)), false, 'the background sleep was killed with its group');
    });
  });

  it('the cache fetches once for concurrent requests, and again only near the reported expiry', async () => {
    const clock = new ManualClock(0);
    let fetches = 0;
    const cache = new TokenCache(() => {
      fetches++;
      return Promise.resolve<Token>({ value: `t${fetches}`, expiresAt: 60 * 60_000 });
    }, clock);
    assert.deepEqual(await Promise.all([cache.get(), cache.get()]), ['t1', 't1']);
    clock.advance(60 * 60_000 - RENEW_BEFORE_MS - 1);
    assert.equal(await cache.get(), 't1');
    clock.advance(2);
    assert.equal(await cache.get(), 't2');
    assert.equal(fetches, 2);
  });

  it('a JWT access token (Entra ID’s) says when it expires; anything else says nothing', () => {
    const jwt = (claims: object) => `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;
    assert.equal(jwtExpiry(jwt({ exp: 1_900_000_000 })), 1_900_000_000_000);
    assert.equal(jwtExpiry(jwt({ aud: 'x' })), undefined);
    assert.equal(jwtExpiry('opaque-token'), undefined);
    assert.equal(jwtExpiry('a.%%%.c'), undefined);
  });

  it('the resolver runs a command shared by two connections once and teaches the redactor its token', async () => {
    const redactor = new Redactor();
    let runs = 0;
    const resolver = new CredentialResolver({ redactor, runCommand: () => Promise.resolve({ value: `token-run-${++runs}` }) });
    const source = { kind: 'tokenCommand', command: 'gcloud auth print-access-token' } as const;
    assert.equal(await resolver.token(source), 'token-run-1');
    assert.equal(await resolver.token({ ...source }), 'token-run-1');
    assert.equal(runs, 1);
    assert.equal(redactor.text('Authorization: Bearer token-run-1'), 'Authorization: Bearer ***');
  });

  it('settings: tokenCommand and entra make a bearer connection with no stored key; conflicting fields are refused', () => {
    const { connections, problems } = parseConnectionsSetting('llm', [
      {
        name: 'Vertex',
        baseUrl: 'https://aiplatform.googleapis.com/v1/projects/p/locations/l/endpoints/openapi',
        tokenCommand: 'gcloud auth print-access-token',
      },
      { name: 'Azure', baseUrl: 'https://res.openai.azure.com/openai', azure: {}, entra: true },
      { name: 'Both', baseUrl: 'https://x.example.com', tokenCommand: 'x', entra: true },
      { name: 'Header', baseUrl: 'https://x.example.com', tokenCommand: 'x', auth: { placement: 'header', name: 'api-key' } },
    ]);
    assert.equal(problems.length, 2, problems.join('\n'));
    const [vertex, azure] = connections as HttpConnection[];
    assert.deepEqual(vertex.credential, { kind: 'tokenCommand', command: 'gcloud auth print-access-token' });
    assert.deepEqual(vertex.auth, { placement: 'bearer' });
    assert.deepEqual(azure.credential, { kind: 'entra', scope: COGNITIVE_SERVICES_SCOPE });
    assert.deepEqual(azure.auth, { placement: 'bearer' }, 'Entra tokens go as Bearer even on the api-key Azure API');
    assert.equal(usesStoredKey(vertex), false);
    const { json, keyVariables } = connectionsFileFor(connections);
    assert.deepEqual(keyVariables, []);
    assert.equal(json.llm?.[0].tokenCommand, 'gcloud auth print-access-token');
    assert.equal(json.llm?.[1].entra, true);
  });
});
