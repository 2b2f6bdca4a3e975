// The part of the prelude both APIs share: the input, what a script records, console, random
// bytes (crypto.getRandomValues, uuid v4), atob/btoa and require. Plain JavaScript evaluated inside
// QuickJS, one function body with the other parts (see ../prelude.ts); no template literals in it.
export const COMMON = String.raw`
var input = JSON.parse(g.__awb_input);
var hostLog = g.__awb_log, hostRandom = g.__awb_random, hostRequire = g.__awb_require;
delete g.__awb_input; delete g.__awb_log; delete g.__awb_random; delete g.__awb_require;
var out = { tests: [], variables: Object.create(null), notes: [] };
var vars = Object.create(null);
Object.keys(input.variables).forEach(function (k) { vars[k] = input.variables[k]; });

function callerLine() {
  var m = /\(script:(\d+)/.exec(new Error().stack || '');
  return m ? Number(m[1]) : undefined;
}
function note(message) {
  var line = callerLine();
  out.notes.push(line === undefined ? { message: message } : { line: line, message: message });
}
function log() { hostLog(Array.prototype.map.call(arguments, show).join(' ')); }
g.console = { log: log, info: log, warn: log, error: log, debug: log, trace: log };

function setVar(name, value) { name = String(name); vars[name] = value; out.variables[name] = stringOf(value); }
function unsetVar(name) { name = String(name); delete vars[name]; out.variables[name] = null; }
function getVar(name) { return Object.prototype.hasOwnProperty.call(vars, name) ? vars[name] : undefined; }
function hasVar(name) { return Object.prototype.hasOwnProperty.call(vars, name); }
function replaceIn(text) {
  return String(text).replace(/\{\{\s*([^{}]*?)\s*\}\}/g, function (whole, name) { return hasVar(name) ? stringOf(vars[name]) : whole; });
}

function randomBytes(n) {
  var hex = hostRandom(n), bytes = [];
  for (var i = 0; i < hex.length; i += 2) bytes.push(parseInt(hex.substr(i, 2), 16));
  return bytes;
}
function uuidv4() {
  var b = randomBytes(16), h = '';
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  for (var i = 0; i < 16; i++) {
    h += (b[i] < 16 ? '0' : '') + b[i].toString(16);
    if (i === 3 || i === 5 || i === 7 || i === 9) h += '-';
  }
  return h;
}
g.crypto = {
  getRandomValues: function (array) {
    var view = new Uint8Array(array.buffer, array.byteOffset, array.byteLength), bytes = randomBytes(view.length);
    for (var i = 0; i < view.length; i++) view[i] = bytes[i];
    return array;
  },
  randomUUID: uuidv4,
};

var B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
g.btoa = function (text) {
  text = String(text);
  var outText = '';
  for (var i = 0; i < text.length; i += 3) {
    var a = text.charCodeAt(i), b = text.charCodeAt(i + 1), c = text.charCodeAt(i + 2);
    if (a > 255 || b > 255 || c > 255) throw new ScriptError('btoa: the text has a character outside Latin-1');
    var n = (a << 16) | ((b || 0) << 8) | (c || 0);
    outText += B64[(n >> 18) & 63] + B64[(n >> 12) & 63] + (i + 1 < text.length ? B64[(n >> 6) & 63] : '=') + (i + 2 < text.length ? B64[n & 63] : '=');
  }
  return outText;
};
g.atob = function (text) {
  text = String(text).replace(/[\s=]/g, '');
  var outText = '', bits = 0, acc = 0;
  for (var i = 0; i < text.length; i++) {
    var v = B64.indexOf(text[i]);
    if (v < 0) throw new ScriptError('atob: "' + text[i] + '" is not a base64 character');
    acc = (acc << 6) | v; bits += 6;
    if (bits >= 8) { bits -= 8; outText += String.fromCharCode((acc >> bits) & 255); }
  }
  return outText;
};

var modules = {};
g.require = function (name) {
  if (name === 'uuid') return { v4: uuidv4 };
  if (name === 'crypto-js' || name === 'lodash') return modules[name] || (modules[name] = hostRequire(name));
  note('require("' + name + '") is not available in scripts: only crypto-js, lodash and uuid are');
  return undefined;
};
['setTimeout', 'setInterval'].forEach(function (name) {
  g[name] = function (fn) { note(name + ' has no timers here (a script ends when its code does): the function runs now'); if (typeof fn === 'function') fn(); return 0; };
});
g.clearTimeout = g.clearInterval = function () {};

function recordTest(name, fn) {
  var line = callerLine();
  var test = { name: String(name), passed: true };
  if (line !== undefined) test.line = line;
  try { if (typeof fn === 'function') fn(); } catch (e) { test.passed = false; test.message = e && e.message !== undefined ? String(e.message) : String(e); }
  out.tests.push(test);
}
`;

/**
 * What holds no state of a script, defined once in the prelude's realm (frozen there with it): how
 * values are told apart and shown. Kinds are read from the tag, which is the same in every realm.
 */
export const SHARED = String.raw`
function isKind(v, tag) { return v !== null && typeof v === 'object' && Object.prototype.toString.call(v) === '[object ' + tag + ']'; }
function isObjectPrototype(p) { return p !== null && Object.getPrototypeOf(p) === null && typeof p.hasOwnProperty === 'function'; }
function stringOf(v) { return typeof v === 'string' ? v : v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v); }
function own(o, name, value) { Object.defineProperty(o, name, { value: value, writable: true, enumerable: true, configurable: true }); }
function sameProto(a, b) { return a === b || (isObjectPrototype(a) && isObjectPrototype(b)) || (Array.isArray(a) && Array.isArray(b)); }
function show(v) {
  if (typeof v === 'string') return v;
  if (v === undefined) return 'undefined';
  if (typeof v === 'function') return '[Function' + (v.name ? ': ' + v.name : '') + ']';
  if (isKind(v, 'Error')) return v.name + ': ' + v.message;
  try { var s = JSON.stringify(v); return s === undefined ? String(v) : s; } catch (e) { return String(v); }
}
`;
