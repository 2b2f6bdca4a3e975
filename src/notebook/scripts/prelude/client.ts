// IntelliJ's and httpYac's handler API: client.test/assert/log/global, response.status/body/
// headers/contentType, request.variables/environment. Same store and tests as pm.
export const CLIENT = String.raw`
var clientGlobal = {
  set: setVar, get: getVar, clear: unsetVar, isEmpty: function () { return Object.keys(vars).length === 0; },
  clearAll: function () { Object.keys(vars).forEach(unsetVar); },
};
g.client = {
  test: recordTest,
  assert: function (condition, message) { if (!condition) throw AssertionError(message === undefined ? 'Assertion failed' : String(message)); },
  log: log,
  global: clientGlobal,
  exit: function () { note('client.exit is not followed here: the script runs to its end'); },
};
function substituted(text) { return { tryGetSubstituted: function () { return replaceIn(text); }, getRaw: function () { return text; }, toString: function () { return text; } }; }
var legacyHeaders = newObject();
input.request.headers.forEach(function (h) { legacyHeaders[h.key] = h.value; });
g.request = {
  method: input.request.method,
  url: substituted(input.request.url),
  body: substituted(input.request.body === undefined ? '' : input.request.body),
  headers: {
    all: function () { return input.request.headers.map(function (h) { return { name: h.key, value: function () { return h.value; }, getRawValue: function () { return h.value; } }; }); },
    findByName: function (name) { var h = input.request.headers.filter(function (x) { return x.key.toLowerCase() === String(name).toLowerCase(); })[0]; return h ? { name: h.key, value: function () { return h.value; }, getRawValue: function () { return h.value; } } : null; },
  },
  data: input.request.body,
  variables: { set: setVar, get: getVar },
  environment: { get: getVar },
};
Object.keys(legacyHeaders).forEach(function (k) { if (!(k in g.request.headers)) g.request.headers[k] = legacyHeaders[k]; });
if (res) {
  var contentType = res.headers.filter(function (h) { return h.key.toLowerCase() === 'content-type'; }).map(function (h) { return h.value; })[0] || '';
  // Parsed when a script first reads it (most scripts are pm's, which parse with pm.response.json()).
  var parsed, bodyRead = false;
  function clientBody() {
    if (bodyRead) return parsed;
    bodyRead = true;
    try { parsed = /json/i.test(contentType) || /^\s*[{[]/.test(res.body) ? parseJson(res.body) : res.body; } catch (e) { parsed = res.body; }
    return parsed;
  }
  g.response = {
    status: res.code,
    headers: {
      valueOf: function (name) { var v = resHeaders.get(name); return v === undefined ? null : v; },
      valuesOf: function (name) { return resHeaders.filter(function (h) { return h.key.toLowerCase() === String(name).toLowerCase(); }).map(function (h) { return h.value; }); },
      all: function () { return resHeaders.toObject(); },
    },
    contentType: { mimeType: contentType.split(';')[0].trim(), charset: (/charset=([^;]+)/i.exec(contentType) || [])[1] || 'utf-8' },
  };
  Object.defineProperty(g.response, 'body', { enumerable: true, configurable: true, get: clientBody, set: function (v) { bodyRead = true; parsed = v; } });
}
`;
