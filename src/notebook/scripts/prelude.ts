// The prelude: both APIs (Postman's pm and IntelliJ's client/response/request) as plain JavaScript
// over one state, so they are written once. Compiling it is most of a script's cost (~4 ms for
// ~31 KB), so the engine compiles it once per runtime, in a context of its own (the prelude's realm),
// and each script's fresh context only calls it: evaluating PRELUDE gives the `begin(g)` function,
// which reads the input from `g` (the script's global object), defines the APIs on it, and returns
// `finish()`, which returns what the script recorded as JSON text (the engine calls it: no script
// can reach or replace it, and nothing is compiled to call it).
//
// Functions compiled in the prelude's realm run with that realm's built-ins (Array, Object, JSON…):
// LOCKDOWN freezes them all, with its global object, so nothing a script does to them reaches the
// next script (a script's own built-ins are its context's and go with it). So that a script sees
// its own realm's objects where it reads data (instanceof Object, its own prototypes), begin takes
// JSON.parse, Object and Error from `g` before the script runs, and checks kinds by their tag.
import { CHAI } from './prelude/chai';
import { CLIENT } from './prelude/client';
import { COMMON, SHARED } from './prelude/common';
import { PM, PM_SHARED } from './prelude/pm';

/** The script realm's constructors, taken before the script runs (it may replace them afterwards). */
const REALM = String.raw`
ScriptError = g.Error;
ScriptObject = g.Object;
parseJson = g.JSON.parse;
`;

const FINISH = String.raw`
return function finish() {
  Object.keys(legacyTests).forEach(function (name) { out.tests.push({ name: name, passed: !!legacyTests[name] }); });
  if (editable) out.request = { method: method, url: url.toString(), headers: headers._items.map(function (h) { return { key: h.key, value: stringOf(h.value) }; }), body: body.raw };
  return JSON.stringify(out);
};
`;

/**
 * Evaluates to `[begin, …]`: what holds no state of a script (SHARED, CHAI, PM_SHARED: ~0.3 ms of
 * each begin otherwise) is defined once, beside begin; the others are there for LOCKDOWN to freeze,
 * as a script reaches them through its objects' prototypes. `ScriptError`, `ScriptObject` and
 * `parseJson` are the running script's realm's (set by begin).
 */
export const PRELUDE = `(function () {\n'use strict';\nvar ScriptError, ScriptObject, parseJson;\nfunction newObject() { return new ScriptObject(); }\n${SHARED}\n${CHAI}\n${PM_SHARED}\nfunction begin(g) {\n${REALM}\n${COMMON}\n${PM}\n${CLIENT}\n${FINISH}\n}\nreturn [begin, expect, Assertion, PropertyList, Url, ResponseAssertions];\n})()`;

/**
 * Evaluates to a function of PRELUDE's value that freezes everything of the prelude's realm a script
 * can reach: the global object and each object reachable from it or from the prelude (own values, getters,
 * setters, prototypes), with the built-ins no global names (iterator and generator prototypes).
 * What the prelude does not use and a script need not reach there goes first: eval (a script has
 * its own), and FinalizationRegistry and WeakRef, whose callbacks and targets outlive a script.
 */
export const LOCKDOWN = String.raw`(function (prelude) {
  'use strict';
  delete globalThis.eval; delete globalThis.FinalizationRegistry; delete globalThis.WeakRef;
  var roots = [globalThis, prelude];
  [
    function () { return [][Symbol.iterator](); }, function () { return new Map().entries(); }, function () { return new Set().values(); },
    function () { return ''[Symbol.iterator](); }, function () { return /a/[Symbol.matchAll](''); }, function () { return function* () {}; },
    function () { return (function* () {})(); }, function () { return async function () {}; }, function () { return async function* () {}; },
    function () { return (async function* () {})(); }, function () { return [].values().map(function (x) { return x; }); },
    function () { return Iterator.from({ next: function () { return { done: true }; } }); },
  ].forEach(function (make) { try { roots.push(Object.getPrototypeOf(make())); } catch (e) { /* not in this build */ } });
  var seen = new Set(), pending = roots;
  while (pending.length) {
    var o = pending.pop();
    if (o === null || (typeof o !== 'object' && typeof o !== 'function') || seen.has(o)) continue;
    seen.add(o);
    Object.freeze(o);
    pending.push(Object.getPrototypeOf(o));
    // One native call per object for its descriptors: the walk is ~2,300 properties, once per runtime.
    var ds = Object.getOwnPropertyDescriptors(o), ks = Reflect.ownKeys(ds);
    for (var i = 0; i < ks.length; i++) {
      var d = ds[ks[i]];
      if ('value' in d) pending.push(d.value);
      else pending.push(d.get, d.set);
    }
  }
})`;
