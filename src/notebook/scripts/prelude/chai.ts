// `expect` with the chai BDD chains collections use (pm.expect; postman-sandbox ships chai itself):
// language chains, not/deep/own/nested/any/all, and equal, eql, include, property, a/an, above,
// below, least, most, within, oneOf, match, string, lengthOf, keys, members, ok, true, false, null,
// undefined, exist, empty, NaN, throw, satisfy, closeTo, instanceOf. Messages read like chai's:
// "expected 200 to equal 201".
export const CHAI = String.raw`
function inspect(v) {
  if (typeof v === 'string') return "'" + (v.length > 200 ? v.slice(0, 200) + '…' : v) + "'";
  if (typeof v === 'number' && isNaN(v)) return 'NaN';
  if (isKind(v, 'RegExp')) return String(v);
  var s = show(v);
  return s.length > 200 ? s.slice(0, 200) + '…' : s;
}
function deepEqual(a, b) {
  if (a === b) return a !== 0 || 1 / a === 1 / b;
  if (typeof a === 'number' && typeof b === 'number') return isNaN(a) && isNaN(b);
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b) || !sameProto(Object.getPrototypeOf(a), Object.getPrototypeOf(b))) return false;
  if (isKind(a, 'Date')) return a.getTime() === b.getTime();
  if (isKind(a, 'RegExp')) return String(a) === String(b);
  var ka = Object.keys(a), kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (var i = 0; i < ka.length; i++) if (!Object.prototype.hasOwnProperty.call(b, ka[i]) || !deepEqual(a[ka[i]], b[ka[i]])) return false;
  return true;
}
function typeName(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (isKind(v, 'Date')) return 'date';
  if (isKind(v, 'RegExp')) return 'regexp';
  if (isKind(v, 'Error')) return 'error';
  return typeof v;
}
function AssertionError(message) { var e = new ScriptError(message); e.name = 'AssertionError'; return e; }

function Assertion(subject, flags, message) {
  this._obj = subject;
  this._flags = flags || {};
  this._message = message;
}
var A = Assertion.prototype;
A.assert = function (ok, positive, negative, expected) {
  var negate = !!this._flags.not;
  if (negate ? ok : !ok) {
    var text = (negate ? negative : positive).replace('#{this}', inspect(this._obj)).replace('#{exp}', inspect(expected));
    throw AssertionError((this._message ? this._message + ': ' : '') + text);
  }
  return this;
};
function chain(names, get) { names.forEach(function (n) { Object.defineProperty(A, n, { get: get, configurable: true }); }); }
chain(['to', 'be', 'been', 'is', 'that', 'which', 'and', 'has', 'have', 'with', 'at', 'of', 'same', 'but', 'does', 'still', 'also'], function () { return this; });
['not', 'deep', 'own', 'nested', 'any', 'all', 'itself'].forEach(function (flag) {
  chain([flag], function () { this._flags[flag] = flag === 'not' ? !this._flags.not : true; return this; });
});
function same(flags, a, b) { return flags.deep ? deepEqual(a, b) : a === b || (a !== a && b !== b); }
function method(names, fn) { names.forEach(function (n) { Object.defineProperty(A, n, { value: fn, configurable: true, writable: true }); }); }
function getter(names, fn) { chain(names, function () { return fn.call(this); }); }

method(['equal', 'equals', 'eq'], function (v) { return this.assert(same(this._flags, this._obj, v), 'expected #{this} to ' + (this._flags.deep ? 'deep ' : '') + 'equal #{exp}', 'expected #{this} to not ' + (this._flags.deep ? 'deep ' : '') + 'equal #{exp}', v); });
method(['eql', 'eqls'], function (v) { return this.assert(deepEqual(this._obj, v), 'expected #{this} to deeply equal #{exp}', 'expected #{this} to not deeply equal #{exp}', v); });
function includes(subject, v, flags) {
  if (typeof subject === 'string') return subject.indexOf(String(v)) !== -1;
  if (Array.isArray(subject)) return subject.some(function (x) { return same(flags, x, v); });
  if (subject && typeof subject === 'object' && v && typeof v === 'object')
    return Object.keys(v).every(function (k) { return Object.prototype.hasOwnProperty.call(subject, k) && same(flags, subject[k], v[k]); });
  return false;
}
chain(['include', 'includes', 'contain', 'contains'], function () {
  var self = this;
  function include(v) { return self.assert(includes(self._obj, v, self._flags), 'expected #{this} to include #{exp}', 'expected #{this} to not include #{exp}', v); }
  self._flags.contains = true;
  ['members', 'keys', 'deep', 'not', 'any', 'all', 'string', 'property'].forEach(function (n) {
    Object.defineProperty(include, n, { get: function () { var x = self[n]; return typeof x === 'function' ? x.bind(self) : x; } });
  });
  return include;
});
function pathValue(obj, path) {
  var parts = String(path).replace(/\[(\d+)\]/g, '.$1').split('.').filter(function (p) { return p !== ''; }), cur = obj;
  for (var i = 0; i < parts.length; i++) {
    if (cur === null || cur === undefined || !(parts[i] in Object(cur))) return { found: false };
    cur = cur[parts[i]];
  }
  return { found: true, value: cur };
}
method(['property'], function (name, value) {
  var obj = this._obj, flags = this._flags, found, actual;
  if (flags.nested) { var p = pathValue(obj, name); found = p.found; actual = p.value; }
  else {
    found = obj !== null && obj !== undefined && (flags.own ? Object.prototype.hasOwnProperty.call(obj, name) : name in Object(obj));
    actual = found ? obj[name] : undefined;
  }
  var what = (flags.nested ? 'nested ' : flags.own ? 'own ' : '') + 'property ' + inspect(name);
  if (arguments.length > 1) {
    this.assert(found && same(flags, actual, value), 'expected #{this} to have ' + what + ' of #{exp}, but got ' + inspect(actual), 'expected #{this} to not have ' + what + ' of #{exp}', value);
  } else this.assert(found, 'expected #{this} to have ' + what, 'expected #{this} to not have ' + what);
  return new Assertion(actual, { not: flags.not }, this._message);
});
method(['ownProperty', 'haveOwnProperty'], function (name, value) { this._flags.own = true; return arguments.length > 1 ? this.property(name, value) : this.property(name); });
method(['a', 'an'], function (type) {
  var t = String(type).toLowerCase(), article = /^[aeiou]/.test(t) ? 'an ' : 'a ';
  return this.assert(typeName(this._obj) === t, 'expected #{this} to be ' + article + t, 'expected #{this} not to be ' + article + t);
});
function numeric(names, test, word) {
  method(names, function (n) {
    var subject = this._flags.doLength ? this._obj.length : this._obj;
    return this.assert(test(subject, n), 'expected #{this} to be ' + word + ' #{exp}', 'expected #{this} to be not ' + word + ' #{exp}', n);
  });
}
numeric(['above', 'gt', 'greaterThan'], function (a, b) { return a > b; }, 'above');
numeric(['below', 'lt', 'lessThan'], function (a, b) { return a < b; }, 'below');
numeric(['least', 'gte', 'greaterThanOrEqual'], function (a, b) { return a >= b; }, 'at least');
numeric(['most', 'lte', 'lessThanOrEqual'], function (a, b) { return a <= b; }, 'at most');
method(['within'], function (lo, hi) { var v = this._obj; return this.assert(v >= lo && v <= hi, 'expected #{this} to be within ' + lo + '..' + hi, 'expected #{this} to not be within ' + lo + '..' + hi); });
method(['closeTo', 'approximately'], function (v, delta) { return this.assert(Math.abs(this._obj - v) <= delta, 'expected #{this} to be close to #{exp} +/- ' + delta, 'expected #{this} not to be close to #{exp} +/- ' + delta, v); });
method(['oneOf'], function (list) { var self = this; return this.assert(list.some(function (x) { return same(self._flags, x, self._obj); }), 'expected #{this} to be one of #{exp}', 'expected #{this} to not be one of #{exp}', list); });
method(['match', 'matches'], function (re) { return this.assert(re.test(String(this._obj)), 'expected #{this} to match #{exp}', 'expected #{this} not to match #{exp}', re); });
method(['string'], function (s) { return this.assert(String(this._obj).indexOf(s) !== -1, 'expected #{this} to contain #{exp}', 'expected #{this} to not contain #{exp}', s); });
method(['lengthOf', 'length'], function (n) { var len = this._obj === null || this._obj === undefined ? undefined : this._obj.length; return this.assert(len === n, 'expected #{this} to have a length of #{exp} but got ' + len, 'expected #{this} to not have a length of #{exp}', n); });
method(['instanceOf', 'instanceof'], function (C) { return this.assert(this._obj instanceof C, 'expected #{this} to be an instance of ' + (C && C.name), 'expected #{this} to not be an instance of ' + (C && C.name)); });
method(['satisfy', 'satisfies'], function (fn) { return this.assert(!!fn(this._obj), 'expected #{this} to satisfy ' + show(fn), 'expected #{this} to not satisfy ' + show(fn)); });
method(['keys', 'key'], function () {
  var wanted = Array.isArray(arguments[0]) ? arguments[0] : arguments[0] && typeof arguments[0] === 'object' ? Object.keys(arguments[0]) : Array.prototype.slice.call(arguments);
  var have = this._obj && typeof this._obj === 'object' ? Object.keys(this._obj) : [];
  var present = wanted.filter(function (k) { return have.indexOf(String(k)) !== -1; });
  var ok = this._flags.any ? present.length > 0 : present.length === wanted.length && (this._flags.contains || have.length === wanted.length);
  return this.assert(ok, 'expected #{this} to have ' + (this._flags.any ? 'any of ' : '') + 'keys #{exp}', 'expected #{this} to not have keys #{exp}', wanted);
});
method(['members'], function (list) {
  var self = this, subject = this._obj || [];
  var has = function (arr, x) { return arr.some(function (y) { return same(self._flags, x, y); }); };
  var ok = list.every(function (x) { return has(subject, x); }) && (this._flags.contains || (subject.length === list.length && subject.every(function (x) { return has(list, x); })));
  return this.assert(ok, 'expected #{this} to have the same members as #{exp}', 'expected #{this} to not have the same members as #{exp}', list);
});
method(['throw', 'throws', 'Throw'], function (expected) {
  var thrown = false, error;
  try { this._obj(); } catch (e) { thrown = true; error = e; }
  var ok = thrown && (expected === undefined || (typeof expected === 'string' ? String(error && error.message).indexOf(expected) !== -1 : isKind(expected, 'RegExp') ? expected.test(String(error && error.message)) : typeof expected === 'function' ? error instanceof expected : true));
  return this.assert(ok, 'expected [Function] to throw' + (expected === undefined ? ' an error' : ' ' + inspect(expected)), 'expected [Function] to not throw an error but ' + inspect(error) + ' was thrown');
});
getter(['ok'], function () { return this.assert(!!this._obj, 'expected #{this} to be truthy', 'expected #{this} to be falsy'); });
getter(['true'], function () { return this.assert(this._obj === true, 'expected #{this} to be true', 'expected #{this} to be false'); });
getter(['false'], function () { return this.assert(this._obj === false, 'expected #{this} to be false', 'expected #{this} to be true'); });
getter(['null'], function () { return this.assert(this._obj === null, 'expected #{this} to be null', 'expected #{this} not to be null'); });
getter(['undefined'], function () { return this.assert(this._obj === undefined, 'expected #{this} to be undefined', 'expected #{this} not to be undefined'); });
getter(['NaN'], function () { return this.assert(typeof this._obj === 'number' && isNaN(this._obj), 'expected #{this} to be NaN', 'expected #{this} not to be NaN'); });
getter(['exist', 'exists'], function () { return this.assert(this._obj !== null && this._obj !== undefined, 'expected #{this} to exist', 'expected #{this} to not exist'); });
getter(['empty'], function () {
  var v = this._obj, n = typeof v === 'string' || Array.isArray(v) ? v.length : v && typeof v === 'object' ? Object.keys(v).length : -1;
  return this.assert(n === 0, 'expected #{this} to be empty', 'expected #{this} not to be empty');
});

function expect(subject, message) { return new Assertion(subject, {}, message); }
expect.fail = function (message) { throw AssertionError(message || 'expect.fail()'); };
`;
