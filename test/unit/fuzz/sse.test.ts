import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { SseError, SseParser } from '../../../src/services/llm/sse';
import { check, chunksOf, hostileText, splitPoints } from './fuzzKit';

type Event = [data: string, event: string | undefined];

/** Every event of `chunks`; an error other than SseError fails the property. */
function parse(chunks: readonly Uint8Array[], opts?: ConstructorParameters<typeof SseParser>[0]): { events: Event[]; error?: SseError; truncated?: boolean } {
  const parser = new SseParser(opts);
  const events: Event[] = [];
  try {
    for (const c of chunks) parser.push(c, (data, event) => events.push([data, event]));
    return { events, truncated: parser.end().truncated };
  } catch (e) {
    if (e instanceof SseError) return { events, error: e };
    throw e;
  }
}

const bytes = fc.oneof(
  fc.uint8Array({ maxLength: 300 }),
  hostileText.map((t) => new Uint8Array(Buffer.from(t, 'utf8'))),
  // Mostly SSE-shaped: field names, colons and line ends in a random order.
  fc
    .array(
      fc.constantFrom(
        'data:',
        'data: ',
        'data',
        'event: x',
        'id: 7',
        'retry: 5',
        ': c',
        ':',
        '\n',
        '\r',
        '\r\n',
        '\n\n',
        '{"a":1}',
        '[DONE]',
        '\uFEFF',
        'é',
        '\0',
      ),
      { maxLength: 60 },
    )
    .map((p) => new Uint8Array(Buffer.from(p.join(''), 'utf8'))),
);

describe('fuzz: SSE parser (src/services/llm/sse.ts)', () => {
  it('never throws anything but SseError, and the events do not depend on where the network split the bytes', () => {
    check(
      'sse split-invariance',
      bytes.chain((b) => fc.tuple(fc.constant(b), splitPoints(b.length))),
      600,
      ([b, points]) => {
        const whole = parse([b]);
        const split = parse(chunksOf(b, points));
        assert.deepEqual(split.events, whole.events);
        assert.equal(split.truncated, whole.truncated);
        for (const [data, event] of whole.events) {
          assert.equal(typeof data, 'string');
          assert.ok(event === undefined || !/[\r\n]/.test(event), 'an event name never spans lines');
        }
      },
    );
  });

  it('gives back exactly the events that were sent, whatever the line ends and chunking', () => {
    const line = fc.string({ unit: 'grapheme', maxLength: 30 }).map((s) => s.replace(/[\r\n]/g, ''));
    const event = fc.record({
      lines: fc.array(line, { minLength: 1, maxLength: 4 }),
      name: fc.option(
        line.map((s) => s.replace(/^ /, '')),
        { nil: undefined },
      ),
    });
    const stream = fc.record({
      events: fc.array(event, { maxLength: 8 }),
      eol: fc.constantFrom('\n', '\r\n', '\r'),
      bom: fc.boolean(),
      comments: fc.boolean(),
    });
    check(
      'sse round trip',
      stream.chain((s) => {
        const text =
          (s.bom ? '\uFEFF' : '') +
          s.events
            .map(
              (e) =>
                (s.comments ? `: keep-alive${s.eol}` : '') +
                (e.name !== undefined ? `event: ${e.name}${s.eol}` : '') +
                e.lines.map((l) => `data: ${l}${s.eol}`).join('') +
                s.eol,
            )
            .join('');
        const b = new Uint8Array(Buffer.from(text, 'utf8'));
        return fc.tuple(fc.constant(s), fc.constant(b), splitPoints(b.length));
      }),
      400,
      ([s, b, points]) => {
        const out = parse(chunksOf(b, points));
        assert.equal(out.error, undefined);
        assert.deepEqual(
          out.events,
          s.events.map((e): Event => [e.lines.join('\n'), e.name]),
        );
        assert.equal(out.truncated, false);
      },
    );
  });

  it('refuses a line or an event over its bound with SseError, without holding more than the bound', () => {
    check(
      'sse bounds',
      fc.record({ size: fc.integer({ min: 65, max: 4096 }), newline: fc.boolean(), chunk: fc.integer({ min: 1, max: 512 }) }),
      150,
      ({ size, newline, chunk }) => {
        const text = 'data: ' + 'x'.repeat(size) + (newline ? '\n\n' : '');
        const b = new Uint8Array(Buffer.from(text));
        const points = [];
        for (let p = chunk; p < b.length; p += chunk) points.push(p);
        const out = parse(chunksOf(b, points), { maxLineBytes: 64, maxEventChars: 64 });
        assert.ok(out.error instanceof SseError, `a ${size}-byte line must be refused`);
        assert.deepEqual(out.events, []);
      },
    );
  });
});
