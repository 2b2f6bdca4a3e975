// Keys leaked in pieces (issue "Reliability, round 3", class 2): a value cut before it was masked
// showed 39 of a key's 40 characters; a key a server wrote with \u escapes, URL-encoded or inside
// base64 (`user:key`) was printed as is. The property: any key, any spelling, anywhere in the text,
// cut at any length (with or without "…") → no run of 5 of the key's characters survives masking.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { Redactor } from '../../../src/core/redact';

const RUN = 5;

function leakedRun(output: string, key: string): string | undefined {
  for (let i = 0; i + RUN <= key.length; i++) if (output.includes(key.slice(i, i + RUN))) return key.slice(i, i + RUN);
  return undefined;
}

const keyChars = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~+/='.split(''));
const key = fc.array(keyChars, { minLength: 20, maxLength: 64 }).map((cs) => cs.join(''));
const filler = fc.string({ maxLength: 40 }).map((s) => s.replace(/[A-Za-z0-9]/g, ' '));

type Spelling = (k: string) => string;
const spellings: Record<string, Spelling> = {
  raw: (k) => k,
  url: (k) => encodeURIComponent(k),
  allEscaped: (k) => [...k].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  someEscaped: (k) => [...k].map((c, i) => (i % 3 === 1 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}` : c)).join(''),
  basicAuth: (k) => Buffer.from(`user:${k}`).toString('base64'),
  basicAuthLongUser: (k) => Buffer.from(`someone@example.com:${k}`).toString('base64'),
};

describe('redaction: no piece of a key survives', () => {
  it('any key, any spelling, any position, any cut (property)', () => {
    fc.assert(
      fc.property(key, filler, filler, fc.constantFrom(...Object.keys(spellings)), fc.nat(), fc.boolean(), (k, before, after, how, cutSeed, ellipsis) => {
        const r = new Redactor();
        r.addSecret(k);
        const spelled = spellings[how](k);
        // The decoded forms must be readable as the key, or the test proves nothing.
        const whole = `${before}${spelled}${after}`;
        assert.equal(leakedRun(r.text(whole), k), undefined, `${how}: ${r.text(whole)}`);
        const cutAt = cutSeed % (whole.length + 1);
        const cut = `${whole.slice(0, cutAt)}${ellipsis ? '…' : ''}`;
        const shown = r.text(cut);
        // Base64 and escapes cut mid-way are not the key's characters any more; raw and URL forms are.
        if (how === 'raw' || how === 'url') assert.equal(leakedRun(shown, k), undefined, `${how} cut at ${cutAt}: ${shown}`);
        const rest = r.text(`${ellipsis ? '…' : ''}${whole.slice(cutAt)}`);
        if (how === 'raw' || how === 'url') assert.equal(leakedRun(rest, k), undefined, `${how} from ${cutAt}: ${rest}`);
      }),
      { numRuns: 3_000 },
    );
  });

  it('text that merely shares a few characters with a key is left alone', () => {
    const r = new Redactor();
    r.addSecret('sk-sandbox-0123456789abcdef');
    assert.equal(r.text('status 0123 ok'), 'status 0123 ok');
    assert.equal(r.text('see the sandbox tour'), 'see the sandbox tour');
  });

  it('an echoed auth_signature or signature in a form body is masked', () => {
    const r = new Redactor();
    // auth_key is masked too: Pusher's is its public app key, but DeepL's auth_key is the secret key itself.
    assert.equal(r.text('auth_key=abc&auth_signature=0f1e2d3c4b5a69788796a5b4c3d2e1f0&body_md5=x'), 'auth_key=***&auth_signature=***&body_md5=x');
    assert.equal(r.text('auth_signature=0f1e2d3c4b5a69788796a5b4c3d2e1f0'), 'auth_signature=***');
  });
});
