import * as assert from 'node:assert/strict';
import { ImportError, importCurl, importHttpFile, importPostman, parseNotebook, type ImportResult } from '../../../src/notebook/api';

// Keys written for this test; each must leave the notebook and the report, and come back in `secrets`.
const K = {
  authToken: 'xat-7f3e9c1d2b4a6f8e0d1c',
  apim: 'apim0f1e2d3c4b5a69788796a5b4',
  token: 'qtok-5b8e2f9a1c7d3e6b',
  apiKeyParam: 'qkey-9c4f1a7e2b8d5c3f',
  clientSecret: 'cs-1d9f4a8e2c7b3f6a5e',
  bodyKey: 'bkey-3e8a1f6c9d2b7e4a',
  named: 'nm-8f2c6e1a9d4b7f3c0e',
  refresh: 'rt-6a1e9c4f2d8b3a7e5c',
};

const SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

function assertTakenOut(result: ImportResult, keys: readonly string[]): void {
  for (const key of keys) {
    assert.ok(!result.text.includes(key), `${key} reached the notebook:\n${result.text}`);
    assert.ok(!result.report.join('\n').includes(key), `${key} reached the report:\n${result.report.join('\n')}`);
    assert.ok(
      result.secrets.some((s) => s.value === key),
      `${key} is not offered to store: ${JSON.stringify(result.secrets.map((s) => s.value))}`,
    );
  }
  assert.deepEqual(parseNotebook(result.text).problems, []);
}

describe('import: keys under every usual name are taken out and offered to store', () => {
  it('Postman: X-Auth-Token and Ocp-Apim-Subscription-Key headers, token / api-key / client_secret query parameters, a JSON api_key field, a request named after its key', () => {
    const collection = {
      info: { name: 'Keys', schema: SCHEMA },
      item: [
        {
          name: 'headers',
          request: {
            method: 'GET',
            url: 'https://api.example.com/items',
            header: [
              { key: 'X-Auth-Token', value: K.authToken },
              { key: 'Ocp-Apim-Subscription-Key', value: K.apim },
            ],
          },
        },
        {
          name: 'query',
          request: { method: 'GET', url: `https://api.example.com/q?token=${K.token}&api-key=${K.apiKeyParam}&client_secret=${K.clientSecret}&page_token=p2` },
        },
        {
          name: 'body',
          request: {
            method: 'POST',
            url: 'https://api.example.com/b',
            header: [{ key: 'Content-Type', value: 'application/json' }],
            body: { mode: 'raw', raw: `{\n  "api_key": "${K.bodyKey}",\n  "max_tokens": 5\n}` },
          },
        },
        { name: `Search with ${K.named}`, request: { method: 'GET', url: 'https://api.example.com/s', header: [{ key: 'X-Access-Token', value: K.named }] } },
      ],
    };
    const result = importPostman(JSON.stringify(collection));
    assertTakenOut(result, [K.authToken, K.apim, K.token, K.apiKeyParam, K.clientSecret, K.bodyKey, K.named]);
    assert.match(result.text, /X-Auth-Token: \{\{\$secret [\w]+\}\}/);
    assert.match(result.text, /page_token=p2/, 'a page token is not a key');
    assert.match(result.text, /"api_key": "\{\{\$secret [\w]+\}\}"/);
    assert.match(result.text, /"max_tokens": 5/);
  });

  it('cURL: --data-urlencode client_secret=… and refresh_token in a form body, --oauth2-bearer as an Authorization header', () => {
    const result = importCurl(
      `curl https://auth.example.com/oauth/token --data-urlencode client_secret=${K.clientSecret} -d grant_type=refresh_token -d refresh_token=${K.refresh} --oauth2-bearer ${K.authToken}`,
    );
    assertTakenOut(result, [K.clientSecret, K.refresh, K.authToken]);
    assert.match(result.text, /grant_type=refresh_token/);
    assert.match(result.text, /Authorization: Bearer \{\{\$secret [\w]+\}\}/);
  });

  it("cURL: --pass, --proxy-header and an unknown option's value are never quoted in an error or the report", () => {
    const pass = 'pp-9e2d7c4a1f8b3e6d';
    const proxy = 'Basic cHJveHk6c2VjcmV0LTEyMzQ1Ng==';
    const ok = importCurl(`curl https://api.example.com/x --pass ${pass} --proxy-header 'Proxy-Authorization: ${proxy}'`);
    for (const v of [pass, proxy]) assert.ok(!ok.text.includes(v) && !ok.report.join('\n').includes(v), v);
    for (const cmd of [
      `curl https://api.example.com/x --some-new-option ${K.token} `,
      `curl https://api.example.com/x -H '${K.token}'`,
      `${K.token}-curl https://api.example.com/x`,
    ]) {
      assert.throws(
        () => importCurl(cmd),
        (e: unknown) => e instanceof ImportError && !e.message.includes(K.token),
      );
    }
  });

  it('.http: X-Auth-Token and Private-Token headers and a JSON client_secret become {{$secret …}} references', () => {
    const result = importHttpFile(
      `POST https://api.example.com/t\nX-Auth-Token: ${K.authToken}\nPrivate-Token: ${K.apim}\nContent-Type: application/json\n\n{"client_secret": "${K.clientSecret}", "name": "x"}\n`,
    );
    assertTakenOut(result, [K.authToken, K.apim, K.clientSecret]);
    assert.match(result.text, /"name": "x"/);
  });

  it('a collection that is not JSON: the error does not quote the text around the fault', () => {
    assert.throws(
      () => importPostman(`{"info": ${K.token}}`),
      (e: unknown) => e instanceof ImportError && !e.message.includes(K.token.slice(0, 6)),
    );
  });
});
