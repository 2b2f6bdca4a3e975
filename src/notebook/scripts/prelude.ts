// The prelude evaluated in each script's context before the script: both APIs (Postman's pm and
// IntelliJ's client/response/request) as plain JavaScript over one state, so they are written once.
// Evaluating it only compiles `__awb_begin` (compiling is most of its cost, ~4 ms): the engine does
// that for the next script's fresh context while it waits (engine.ts, prepare), and the script's
// run calls `__awb_begin()`, which reads the input and defines the APIs. `__awb_finish()` returns
// what the script recorded as JSON text.
import { CHAI } from './prelude/chai';
import { CLIENT } from './prelude/client';
import { COMMON } from './prelude/common';
import { PM } from './prelude/pm';

const FINISH = String.raw`
Object.defineProperty(g, '__awb_finish', { value: function () {
  Object.keys(legacyTests).forEach(function (name) { out.tests.push({ name: name, passed: !!legacyTests[name] }); });
  if (editable) out.request = { method: method, url: url.toString(), headers: headers._items.map(function (h) { return { key: h.key, value: stringOf(h.value) }; }), body: body.raw };
  return JSON.stringify(out);
} });
`;

export const PRELUDE = `(function (g) {\n'use strict';\ng.__awb_begin = function () {\n${COMMON}\n${CHAI}\n${PM}\n${CLIENT}\n${FINISH}\n};\n})(globalThis);`;
