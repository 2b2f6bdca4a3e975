// A body read whole (core/httpExchange readText) is decoded as its chunks arrive: what a user sees
// must be the same text as decoding it at once, whatever the chunks' boundaries.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { readText, ResponseTooLargeError } from '../../../src/core/httpExchange';

function bodyOf(chunks: Buffer[]): Readable {
  return Readable.from(chunks);
}

/** `bytes` cut every `size` bytes, so multi-byte characters fall across chunks. */
function cut(bytes: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

describe('readText: a whole body decoded chunk by chunk', () => {
  const text = JSON.stringify({ city: 'Kraków', note: 'café ☕ — 東京 🗼', items: Array.from({ length: 200 }, (_, i) => `ż${i}€`) });
  const bytes = Buffer.from(text, 'utf8');

  for (const size of [1, 2, 3, 5, 64, bytes.length]) {
    it(`chunks of ${size} byte(s): the same text, no U+FFFD where a character was split`, async () => {
      const got = await readText(bodyOf(cut(bytes, size)), {}, 1 << 20);
      assert.equal(got, text);
    });
  }

  it('drops a byte order mark at the start only, even when it arrives byte by byte', async () => {
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('\uFEFFkept', 'utf8')]);
    assert.equal(await readText(bodyOf(cut(withBom, 1)) as never, {}, 1 << 20), '\uFEFFkept');
    assert.equal(await readText(bodyOf([withBom]) as never, {}, 1 << 20), '\uFEFFkept');
  });

  it('refuses a body past the cap', async () => {
    await assert.rejects(readText(bodyOf(cut(bytes, 64)), {}, 100), ResponseTooLargeError);
  });
});
