import * as assert from 'node:assert/strict';
import { MASK, Redactor } from '../../../src/core/redact';
import { redactTree, redactTreeSliced } from '../../../src/core/redactTree';
import { parseJsonSliced, SLICED_JSON_MIN_CHARS } from '../../../src/core/slicedJson';
import { TimeSlicer } from '../../../src/core/timeSlicer';

/** Padding that makes any JSON value big enough to be parsed in slices. */
const PAD = 'x'.repeat(SLICED_JSON_MIN_CHARS);

/** JSON.parse's answer, or the name of its error. */
function native(text: string): unknown {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (e) {
    return { error: (e as Error).name };
  }
}

async function sliced(text: string): Promise<unknown> {
  try {
    return { value: await parseJsonSliced(text, new TimeSlicer(1)) };
  } catch (e) {
    return { error: (e as Error).name };
  }
}

describe('core/slicedJson: parseJsonSliced', () => {
  it('gives what JSON.parse gives for big documents of every shape', async () => {
    const place = (i: number) => ({
      id: `p${i}`,
      name: `Place "${i}" \\ \u00e9\u{1F600}`,
      n: i * 1.5,
      e: -1e-7,
      t: true,
      f: false,
      z: null,
      a: [],
      o: {},
      nested: { list: [1, [2, [3]]] },
    });
    const docs = [
      { places: Array.from({ length: 5000 }, (_, i) => place(i)) },
      Array.from({ length: 100_000 }, (_, i) => (i % 3 === 0 ? `s${i}` : i % 3 === 1 ? i : { i })),
      { long: PAD, after: [PAD, { deeper: PAD }], '10': 'integer-like keys come first', __proto__x: 1 },
      Object.fromEntries(Array.from({ length: 30_000 }, (_, i) => [`k${i}`, { v: i }])),
      [[[[[Array.from({ length: 30_000 }, (_, i) => ({ d: i }))]]]]],
      PAD,
    ];
    for (const doc of docs) {
      for (const text of [JSON.stringify(doc), JSON.stringify(doc, null, 2), ` \r\n\t${JSON.stringify(doc, null, '\t')}\n `]) {
        assert.ok(text.length >= SLICED_JSON_MIN_CHARS);
        assert.deepEqual(await parseJsonSliced(text, new TimeSlicer(1)), JSON.parse(text));
      }
    }
  });

  it('keeps duplicate member names as JSON.parse does (the last wins) and "__proto__" as a plain member', async () => {
    const members = Array.from({ length: 20_000 }, (_, i) => `"k${i % 100}": ${i}`).join(', ');
    const text = `{${members}, "__proto__": {"polluted": true}, "big": "${PAD}"}`;
    const parsed = (await parseJsonSliced(text)) as Record<string, unknown>;
    assert.deepEqual(parsed, JSON.parse(text));
    assert.equal(Object.getPrototypeOf(parsed), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(parsed, '__proto__')?.value, { polluted: true });
    assert.equal(parsed.k5, 19_905);
  });

  it('refuses what JSON.parse refuses, with a SyntaxError', async () => {
    const big = `[${Array.from({ length: 40_000 }, (_, i) => i).join(',')}`;
    const bad = [
      `${big}]x`,
      `${big},]`,
      `${big}`,
      `${big} 1]`,
      `${big},tru]`,
      `${big},"a\nb"]`,
      `{"a": "${PAD}" "b": 1}`,
      `{"a" "${PAD}"}`,
      `{a: "${PAD}"}`,
      `{"a": "${PAD}",}`,
      `["${PAD}`,
      `["${PAD}\\"]`,
      `[01, "${PAD}"]`,
      `["${PAD}", 1e]`,
      `\u00a0["${PAD}"]`,
    ];
    for (const text of bad) {
      assert.deepEqual(native(text), { error: 'SyntaxError' }, text.slice(-40));
      assert.deepEqual(await sliced(text), { error: 'SyntaxError' }, text.slice(-40));
    }
  });

  it('gives the event loop turns while it parses a big document', async () => {
    const text = JSON.stringify({
      places: Array.from({ length: 60_000 }, (_, i) => ({ id: `place_${i}`, tags: ['a', 'b', 'c'], at: { lat: i / 1e3, lng: -i / 1e3 } })),
    });
    let turns = 0;
    const timer = setInterval(() => turns++, 0);
    try {
      const parsed = (await parseJsonSliced(text, new TimeSlicer(1))) as { places: unknown[] };
      assert.equal(parsed.places.length, 60_000);
    } finally {
      clearInterval(timer);
    }
    assert.ok(turns >= 3, `the timer ran ${turns} times while ${(text.length / 1e6).toFixed(1)} MB were parsed`);
  });
});

describe('core/redactTree: every string of a value through the Redactor', () => {
  const secret = 'AIzaSecretKeyForTheTreeTest0001';
  const redactor = new Redactor();
  redactor.addSecret(secret);

  it('masks secrets in values and member names, copies only what changed, in one go or in slices', async () => {
    const clean = { a: [1, 'two', { three: 3 }], b: null };
    const value = { clean, list: [`x ${secret} y`, { [`k-${secret}`]: 'Bearer abc.def', url: 'https://h/p?key=zzz&q=1' }] };
    const expected = { clean, list: [`x ${MASK} y`, { [`k-${MASK}`]: `Bearer ${MASK}`, url: `https://h/p?key=${MASK}&q=1` }] };
    for (const out of [redactTree(value, redactor), await redactTreeSliced(value, redactor, new TimeSlicer(1))]) {
      assert.deepEqual(out, expected);
      assert.equal(out.clean, clean, 'an unchanged branch is the same object');
    }
    assert.equal(value.list[0], `x ${secret} y`, 'the input is left as it was');
  });

  it('gives the same for a value too big to do at once (thousands of members): masked, unchanged branches kept', async () => {
    // A small value is walked in one go; past a few thousand members the walk is done in slices.
    // Both must give the same value, whatever the size.
    for (const n of [10, 20_000]) {
      const clean = Array.from({ length: n }, (_, i) => ({ id: `m${i}`, n: i }));
      const value = { clean, last: { [`k-${secret}`]: `x ${secret}` } };
      const expected = { clean, last: { [`k-${MASK}`]: `x ${MASK}` } };
      for (const out of [redactTree(value, redactor), await redactTreeSliced(value, redactor, new TimeSlicer(1))]) {
        assert.deepEqual(out, expected, `${n} members`);
        assert.equal(out.clean, clean, `${n} members: the unchanged list is the same array`);
      }
    }
  });

  it('redacts a long JSON text piece by piece exactly as Redactor.text does in one go', async () => {
    const places = Array.from({ length: 40_000 }, (_, i) => ({
      id: `p${i}`,
      note: i % 997 === 0 ? `key ${secret} and Bearer tok${i}.x` : i % 1009 === 0 ? ',' : 'plain, with "quotes", commas',
      photo: i % 499 === 0 ? `https://h/photo?key=k${i}&w=1` : 'https://h/photo',
      ...(i % 1499 === 0 ? { secret: 'member-value', auth: ',' } : {}),
    }));
    for (const text of [JSON.stringify({ places }), JSON.stringify({ places }, null, 1), `not json ${secret} `.repeat(100_000)]) {
      assert.ok(text.length > 2 * 1024 * 1024);
      const one = redactor.text(text);
      const out = await redactTreeSliced({ text }, redactor, new TimeSlicer(1));
      assert.equal(out.text, one);
      assert.ok(!out.text.includes(secret));
    }
  });

  it('masks a secret whose value holds "," even where a piece would be cut inside it', async () => {
    const odd = 'tok","en-secret-value';
    const r = new Redactor();
    r.addSecret(odd);
    const text = Array.from({ length: 300_000 }, (_, i) => (i % 2000 === 1 ? `"${odd}"` : `"v${i}"`)).join(',');
    const out = await redactTreeSliced({ text }, r, new TimeSlicer(1));
    assert.equal(out.text, r.text(text));
    assert.ok(!out.text.includes(odd));
    assert.equal(out.text.split(MASK).length - 1, 150);
  });
});
