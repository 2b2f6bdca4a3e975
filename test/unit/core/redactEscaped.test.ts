import * as assert from 'node:assert/strict';
import { MASK, Redactor } from '../../../src/core/redact';

const KEY = 'sk_live_51Habc/DEF+ghi=jk0123';
const SIG = '58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4';

describe('core/redact: keys as a server echoes them (JSON escapes, Pusher auth)', () => {
  const redactor = new Redactor();
  redactor.addSecret(KEY);

  it('a key written with JSON escapes (\\/ alone or mixed with \\u) is masked', () => {
    const slashed = JSON.stringify({ echo: KEY }).replace(/\//g, '\\/');
    const mixed = `{"echo":"\\u0073k_live_51Habc\\/DEF+ghi=jk0123"}`;
    for (const text of [slashed, mixed]) {
      const out = redactor.text(text);
      assert.equal(out, `{"echo":"${MASK}"}`, text);
    }
  });

  it("a Pusher channel auth (key:signature) and auth_signature are masked in JSON, in a JSON string's JSON, in a form and in free text", () => {
    const r = new Redactor();
    const cases = [
      `{"auth":"278d425bdf160c739803:${SIG}"}`,
      `{"data":"{\\"auth\\":\\"278d425bdf160c739803:${SIG}\\",\\"channel_data\\":\\"x\\"}"}`,
      `{"path":"auth_signature=${SIG}"}`,
      `auth=278d425bdf160c739803%3A${SIG}&channel_name=private-x`,
      `signed with 278d425bdf160c739803:${SIG} at noon`,
    ];
    for (const text of cases) {
      const out = r.text(text);
      assert.ok(!out.includes(SIG.slice(0, 16)), `${text} → ${out}`);
    }
    assert.match(r.text(`{"data":"{\\"auth\\":\\"k:${SIG}\\",\\"channel_data\\":\\"x\\"}"}`), /channel_data\\":\\"x\\"/, 'the rest is kept');
  });

  it('key-named fields of every convention are masked; a page token, an idempotency key and token counts are not', () => {
    const r = new Redactor();
    const masked = r.text(
      '{"client_secret":"cs1","refresh_token":"rt1","id_token":"it1","password":"pw1","X-Auth-Token":"xa1","subscriptionKey":"sk1","page_token":"p1","max_tokens":"10","Idempotency-Key":"ik1"}',
    );
    for (const v of ['cs1', 'rt1', 'it1', 'pw1', 'xa1', 'sk1']) assert.ok(!masked.includes(`"${v}"`), `${v} in ${masked}`);
    for (const v of ['p1', '10', 'ik1']) assert.ok(masked.includes(`"${v}"`), `${v} in ${masked}`);
    assert.equal(
      r.url('https://x.test/cb?code_verifier=abc&client_secret=def&page_token=p2'),
      `https://x.test/cb?code_verifier=${MASK}&client_secret=${MASK}&page_token=p2`,
    );
    assert.deepEqual(r.headers({ 'Ocp-Apim-Subscription-Key': 'k1', 'Private-Token': 'k2', 'X-Request-Id': 'r1' }), {
      'Ocp-Apim-Subscription-Key': MASK,
      'Private-Token': MASK,
      'X-Request-Id': 'r1',
    });
  });
});
