import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import * as z from 'zod/mini';
import * as protocol from '../../../src/services/realtime/protocol';
import {
  channelKind,
  channelNameProblem,
  clientEventProblem,
  closeAction,
  decodeData,
  decodeFrame,
  describeClose,
} from '../../../src/services/realtime/protocol';
import { check, hostileText } from './fuzzKit';

/** JSON values, and objects shaped like frames with fields of every type. */
const frameLike = fc.record(
  {
    event: fc.oneof(fc.string(), fc.constantFrom('pusher:connection_established', 'pusher:error', 'pusher_internal:member_added'), fc.jsonValue()),
    channel: fc.oneof(fc.string(), fc.jsonValue()),
    data: fc.oneof(fc.json(), fc.jsonValue()),
    user_id: fc.jsonValue(),
  },
  { requiredKeys: [] },
);
const frameText = fc.oneof(
  fc.json(),
  hostileText,
  frameLike.map((f) => JSON.stringify(f)),
  fc.string().map((s) => `{"event":${s}`),
);

const schemas: Array<[string, z.ZodMiniType]> = Object.entries(protocol).flatMap(([name, value]) =>
  name.endsWith('Schema') ? [[name, value as z.ZodMiniType] as [string, z.ZodMiniType]] : [],
);

describe('fuzz: Pusher frames (src/services/realtime/protocol.ts)', () => {
  it('decodeFrame never throws; it accepts exactly the JSON objects with a string event and string-or-absent channel and user_id', () => {
    check('pusher decodeFrame', frameText, 1500, (text) => {
      const out = decodeFrame(text);
      let v: unknown;
      try {
        v = JSON.parse(text);
      } catch {
        assert.deepEqual(out, { ok: false, problem: 'frame is not JSON' });
        return;
      }
      const o = v as Record<string, unknown>;
      const valid =
        typeof v === 'object' &&
        v !== null &&
        !Array.isArray(v) &&
        typeof o.event === 'string' &&
        (o.channel === undefined || typeof o.channel === 'string') &&
        (o.user_id === undefined || typeof o.user_id === 'string');
      assert.equal(out.ok, valid, text);
      if (out.ok) assert.equal(out.frame.event, o.event);
      else assert.ok(out.problem.length > 0);
    });
  });

  it('decodeData never throws and decodes a JSON string once (double encoding)', () => {
    check(
      'pusher decodeData',
      fc.oneof(
        fc.jsonValue(),
        hostileText,
        fc.jsonValue().map((v) => JSON.stringify(v)),
      ),
      800,
      (data) => {
        const out = decodeData(data);
        if (typeof data !== 'string') assert.equal(out, data);
        else {
          let expected: unknown = data;
          try {
            expected = JSON.parse(data);
          } catch {
            /* stays the string */
          }
          assert.deepEqual(out, expected);
        }
      },
    );
  });

  it(`every payload schema (${schemas.length}) reports instead of throwing on any value`, () => {
    assert.ok(schemas.length >= 15, 'the schemas were found');
    check('pusher schemas', fc.tuple(fc.constantFrom(...schemas), fc.oneof(fc.anything(), fc.jsonValue(), frameLike)), 1500, ([[, schema], value]) => {
      const r = z.safeParse(schema, value);
      assert.equal(typeof r.success, 'boolean');
    });
  });

  it('channel and event name checks and close-code descriptions never throw on any input', () => {
    check(
      'pusher names',
      fc.tuple(
        fc.oneof(hostileText, fc.string({ maxLength: 300 })),
        fc.oneof(hostileText, fc.string()),
        fc.integer({ min: -70000, max: 70000 }),
        fc.option(hostileText, { nil: undefined }),
      ),
      1000,
      ([name, event, code, reason]) => {
        assert.ok(['public', 'private', 'private-encrypted', 'presence'].includes(channelKind(name)));
        const problem = channelNameProblem(name);
        assert.ok(problem === undefined || problem.length > 0);
        if (problem === undefined) assert.ok(protocol.CHANNEL_NAME_RE.test(name));
        const ev = clientEventProblem(name, event);
        assert.ok(ev === undefined || ev.length > 0);
        assert.ok(describeClose(code, reason).length > 0);
        assert.ok(['stop', 'backoff', 'immediate'].includes(closeAction(code)));
      },
    );
  });
});
