// Postman's `pm` over the shared state: pm.test/expect, pm.request (editable before the request),
// pm.response with its to.have/to.be assertions, variables at every scope (one store here: what a
// script sets is {{name}} to the cells below), pm.info, and the legacy globals (tests[…],
// responseBody, postman.*). What a script cannot do here is noted at its line.
export const PM = String.raw`
var editable = input.phase === 'pre';
function readOnly(what) { note(what + ' cannot be changed after the request was sent: change it in a pre-request script'); }
var request = {}, url = new Url(input.request.url), headers = new PropertyList(input.request.headers.slice()), method = input.request.method;
var body = { mode: 'raw', raw: input.request.body === undefined ? '' : input.request.body };
own(body, 'toString', function () { return body.raw; });
body.update = function (v) { if (!editable) return readOnly('pm.request.body'); body.raw = typeof v === 'string' ? v : v && v.raw !== undefined ? String(v.raw) : JSON.stringify(v); };
Object.defineProperty(request, 'url', { enumerable: true, get: function () { return url; }, set: function (v) { if (!editable) return readOnly('pm.request.url'); url = new Url(String(v)); } });
Object.defineProperty(request, 'method', { enumerable: true, get: function () { return method; }, set: function (v) { if (!editable) return readOnly('pm.request.method'); method = String(v).toUpperCase(); } });
Object.defineProperty(request, 'headers', { enumerable: true, get: function () { return headers; } });
Object.defineProperty(request, 'body', { enumerable: true, get: function () { return body; }, set: function (v) { body.update(v); } });
request.addHeader = function (h) { headers.add(h); };
request.removeHeader = function (k) { headers.remove(k); };
request.upsertHeader = function (h) { headers.upsert(h); };
request.toJSON = function () { return { method: method, url: url.toString(), header: headers._items, body: body.raw }; };

var response;
var res = input.response;
if (res) {
  var resHeaders = new PropertyList(res.headers.slice());
  var parsedJson = function () { return parseJson(res.body); };
  response = {
    code: res.code, status: REASONS[res.code] || '', headers: resHeaders, responseTime: res.responseTime, responseSize: res.size,
    text: function () { return res.body; }, json: parsedJson, reason: function () { return REASONS[res.code] || ''; },
    size: function () { return { body: res.size, header: 0, total: res.size }; },
  };
  response.to = new ResponseAssertions(response, res.body, false);
}

function scope(name) {
  return {
    name: name,
    get: getVar, has: hasVar, set: setVar, unset: unsetVar, replaceIn: replaceIn,
    clear: function () { Object.keys(vars).forEach(unsetVar); },
    toObject: function () { var o = newObject(); Object.keys(vars).forEach(function (k) { o[k] = vars[k]; }); return o; },
  };
}
var pm = {
  test: recordTest,
  expect: expect,
  request: request,
  response: response,
  environment: scope('environment'),
  collectionVariables: scope('collectionVariables'),
  variables: scope('variables'),
  globals: scope('globals'),
  iterationData: scope('iterationData'),
  info: { requestName: input.requestName, eventName: editable ? 'prerequest' : 'test', iteration: 0, iterationCount: 1, requestId: input.requestName },
  sendRequest: function () { note('pm.sendRequest sends nothing: scripts send nothing here; put that request in a cell of its own above this one'); },
  visualizer: { set: function () { note('pm.visualizer is not shown here: log what you want to see with console.log'); } },
  execution: { setNextRequest: function () { note('pm.execution.setNextRequest is not followed: cells run in order, top to bottom'); }, skipRequest: function () { note('pm.execution.skipRequest is not followed here: the request is sent'); } },
  cookies: { get: function () { return undefined; }, has: function () { return false; }, toObject: function () { return {}; } },
};
pm.test.skip = function () {};
g.pm = pm;

g.postman = {
  setNextRequest: function () { note('postman.setNextRequest is not followed: cells run in order, top to bottom'); },
  setEnvironmentVariable: setVar, getEnvironmentVariable: getVar, clearEnvironmentVariable: unsetVar,
  setGlobalVariable: setVar, getGlobalVariable: getVar, clearGlobalVariable: unsetVar,
};
var legacyTests = newObject();
g.tests = legacyTests;
g.environment = scope('environment').toObject();
g.globals = g.environment;
if (res) {
  g.responseBody = res.body;
  g.responseCode = { code: res.code, name: REASONS[res.code] || '', detail: REASONS[res.code] || '' };
  g.responseHeaders = resHeaders.toObject();
  g.responseTime = res.responseTime;
}
`;

/**
 * What holds no state of a script (header and query lists, the URL, pm.response.to), defined once in
 * the prelude's realm and frozen there: each script's objects are instances over its own data.
 */
export const PM_SHARED = String.raw`
function PropertyList(items) { this._items = items; }
var PL = PropertyList.prototype;
function findIndex(list, key) { key = String(key).toLowerCase(); for (var i = 0; i < list._items.length; i++) if (list._items[i].key.toLowerCase() === key) return i; return -1; }
PL.get = function (key) { var i = findIndex(this, key); return i === -1 ? undefined : this._items[i].value; };
PL.has = function (key, value) { var i = findIndex(this, key); return i !== -1 && (arguments.length < 2 || this._items[i].value === value); };
PL.one = function (key) { var i = findIndex(this, key); return i === -1 ? undefined : this._items[i]; };
PL.add = function (item) { this._items.push({ key: String(item.key), value: stringOf(item.value) }); };
PL.upsert = function (item) { var i = findIndex(this, item.key); if (i === -1) this.add(item); else this._items[i].value = stringOf(item.value); };
PL.remove = function (key) { var k = typeof key === 'object' ? key.key : key; this._items = this._items.filter(function (h) { return h.key.toLowerCase() !== String(k).toLowerCase(); }); };
PL.all = function () { return this._items.slice(); };
PL.count = function () { return this._items.length; };
PL.each = PL.forEach = function (fn) { this._items.forEach(fn); };
PL.map = function (fn) { return this._items.map(fn); };
PL.filter = function (fn) { return this._items.filter(fn); };
PL.toObject = function () { var o = newObject(); this._items.forEach(function (h) { o[h.key] = h.value; }); return o; };
PL.toJSON = function () { return this._items.slice(); };

function parseUrl(text) {
  var m = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)?([^?#]*)(\?[^#]*)?(#.*)?$/i.exec(text) || [];
  var query = (m[3] || '').slice(1).split('&').filter(function (p) { return p !== ''; }).map(function (p) {
    var i = p.indexOf('='); return i === -1 ? { key: p, value: null } : { key: p.slice(0, i), value: p.slice(i + 1) };
  });
  return { origin: m[1] || '', path: m[2] || '', query: new PropertyList(query), hash: m[4] || '' };
}
function Url(text) { this.update(text); }
Url.prototype.update = function (text) { var p = parseUrl(String(text)); this._origin = p.origin; this._path = p.path; this.query = p.query; this._hash = p.hash; };
own(Url.prototype, 'toString', function () {
  var q = this.query._items.map(function (p) { return p.value === null ? p.key : p.key + '=' + p.value; }).join('&');
  return this._origin + this._path + (q ? '?' + q : '') + this._hash;
});
Url.prototype.getHost = function () { return this._origin.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/:\d+$/, ''); };
Url.prototype.getPath = function () { return this._path; };
Url.prototype.getQueryString = function () { return this.toString().split('?')[1] || ''; };
Url.prototype.addQueryParams = function (params) { var self = this; (Array.isArray(params) ? params : [params]).forEach(function (p) { self.query.add(p); }); };
Url.prototype.toJSON = function () { return this.toString(); };

var REASONS = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 301: 'Moved Permanently', 302: 'Found', 304: 'Not Modified', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 409: 'Conflict', 415: 'Unsupported Media Type', 422: 'Unprocessable Entity', 429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout' };

function ResponseAssertions(r, body, negate) { this._r = r; this._body = body; this._negate = negate; }
var RA = ResponseAssertions.prototype;
function check(self, ok, positive, negative) { if (self._negate ? ok : !ok) throw AssertionError(self._negate ? negative : positive); }
function bodyJson(self) { try { return { ok: true, value: parseJson(self._body) }; } catch (e) { return { ok: false }; } }
function raGetter(name, get) { Object.defineProperty(RA, name, { get: get }); }
['have', 'be', 'to', 'a', 'an', 'that', 'and', 'is'].forEach(function (w) { raGetter(w, function () { return this; }); });
raGetter('not', function () { return new ResponseAssertions(this._r, this._body, !this._negate); });
RA.status = function (s) {
  var r = this._r;
  if (typeof s === 'number') check(this, r.code === s, 'expected response to have status code ' + s + ' but got ' + r.code, 'expected response to not have status code ' + s);
  else check(this, r.status === s, "expected response to have status reason '" + s + "' but got '" + r.status + "'", "expected response to not have status reason '" + s + "'");
  return this;
};
RA.header = function (key, value) {
  var has = this._r.headers.has(key), actual = this._r.headers.get(key);
  if (arguments.length < 2) check(this, has, "expected response to have header with key '" + key + "'", "expected response to not have header with key '" + key + "'");
  else check(this, has && actual === String(value), "expected '" + key + "' response header to be '" + value + "' but got '" + actual + "'", "expected '" + key + "' response header to not be '" + value + "'");
  return this;
};
RA.body = function (expected) {
  var body = this._body;
  if (arguments.length === 0) check(this, body.length > 0, 'expected response to have content in body', 'expected response to not have content in body');
  else if (isKind(expected, 'RegExp')) check(this, expected.test(body), 'expected response body to match ' + expected, 'expected response body to not match ' + expected);
  else if (typeof expected === 'string') check(this, body === expected, 'expected response body to equal ' + inspect(expected), 'expected response body to not equal ' + inspect(expected));
  else { var j = bodyJson(this); check(this, j.ok && deepEqual(j.value, expected), 'expected response body json to equal ' + inspect(expected), 'expected response body json to not equal ' + inspect(expected)); }
  return this;
};
RA.jsonBody = function (path, value) {
  var j = bodyJson(this);
  if (arguments.length === 0) check(this, j.ok, 'expected response body to be a valid json', 'expected response body to not be a valid json');
  else if (typeof path === 'object') check(this, j.ok && deepEqual(j.value, path), 'expected response body json to equal ' + inspect(path), 'expected response body json to not equal ' + inspect(path));
  else {
    var p = j.ok ? pathValue(j.value, path) : { found: false };
    if (arguments.length < 2) check(this, p.found, "expected response body json to have path '" + path + "'", "expected response body json to not have path '" + path + "'");
    else check(this, p.found && deepEqual(p.value, value), "expected response body json at '" + path + "' to contain " + inspect(value) + ' but got ' + inspect(p.value), "expected response body json at '" + path + "' to not contain " + inspect(value));
  }
  return this;
};
raGetter('responseTime', function () {
  var self = this, ms = this._r.responseTime;
  return { below: function (limit) { check(self, ms < limit, 'expected response time ' + ms + ' ms to be below ' + limit, 'expected response time to not be below ' + limit); return self; } };
});
function classGetter(name, test, word) { raGetter(name, function () { var c = this._r.code; check(this, test(c), 'expected response code to be ' + word + ' but found ' + c, 'expected response code to not be ' + word + ' but found ' + c); return this; }); }
classGetter('ok', function (c) { return c >= 200 && c < 300; }, '2XX');
classGetter('success', function (c) { return c >= 200 && c < 300; }, '2XX');
classGetter('info', function (c) { return c >= 100 && c < 200; }, '1XX');
classGetter('redirection', function (c) { return c >= 300 && c < 400; }, '3XX');
classGetter('clientError', function (c) { return c >= 400 && c < 500; }, '4XX');
classGetter('serverError', function (c) { return c >= 500; }, '5XX');
classGetter('error', function (c) { return c >= 400; }, '4XX or 5XX');
classGetter('notFound', function (c) { return c === 404; }, '404');
classGetter('unauthorized', function (c) { return c === 401; }, '401');
classGetter('badRequest', function (c) { return c === 400; }, '400');
raGetter('json', function () { check(this, bodyJson(this).ok, 'expected response body to be a valid json', 'expected response body to not be a valid json'); return this; });
raGetter('withBody', function () { check(this, this._body.length > 0, 'expected response to have content in body', 'expected response to not have content in body'); return this; });
`;
