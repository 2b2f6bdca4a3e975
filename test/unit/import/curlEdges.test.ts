// cURL as real files write it: options that take a value the importer had no entry for, curl
// inside a command substitution, and a multi-line quoted body in a .http file. Inputs are written
// for these tests.
import * as assert from 'node:assert/strict';
import { detectFormat, importCurl, importHttpFile } from '../../../src/notebook/api';
import { CURL_OPTIONS_WITH_VALUE } from '../../../src/notebook/import/curlOptions';

describe('import: cURL edge cases', () => {
  it('every option curl documents with a value takes its value: --noproxy "*", --proto, --happy-eyeballs-timeout-ms, --expand-header', () => {
    for (const cmd of [
      `curl --noproxy '*' https://api.openai.com/v1/models`,
      `curl --proto '=https' --tlsv1.2 -sSf https://api.openai.com/v1/models`,
      `curl --happy-eyeballs-timeout-ms 200 --retry-all-errors --retry 3 https://api.openai.com/v1/models`,
      `curl -K ./curlrc -Q 'NOOP' https://api.openai.com/v1/models`,
      `curl --variable 'key@KEYFILE' --expand-header 'Authorization: Bearer {{key}}' https://api.openai.com/v1/models`,
    ]) {
      const r = importCurl(cmd);
      assert.match(r.text, /```llm\nGET \/models/, `${cmd}\n${r.text}`);
    }
    for (const opt of ['--noproxy', '--proto', '--connect-to', '--alt-svc', '--hsts', '--doh-url', '--proxy', '--ech', '--output-dir'])
      assert.ok(CURL_OPTIONS_WITH_VALUE.has(opt), opt);
  });

  it('VAR=$(curl …), `curl …` and export VAR="$(curl …)" are the curl inside', () => {
    for (const text of [
      `RESPONSE=$(curl -s https://api.openai.com/v1/chat/completions \\\n  -H "Authorization: Bearer $OPENAI_API_KEY" \\\n  -d '{"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Hi (there)"}]}')\n`,
      'OUT=`curl -s https://api.openai.com/v1/chat/completions -d \'{"model": "gpt-4o-mini", "messages": []}\'`',
      `export OUT="$(curl -s https://api.openai.com/v1/chat/completions -d '{"model": "gpt-4o-mini", "messages": []}')"`,
    ]) {
      assert.equal(detectFormat('snippet.sh', text), 'curl', text);
      const r = importCurl(text);
      assert.match(r.text, /```llm\nPOST \/chat\/completions/, r.text);
      assert.match(r.text, /"model": "gpt-4o-mini"/);
      assert.ok(
        r.report.some((l) => /command substitution around curl/.test(l)),
        r.report.join('\n'),
      );
    }
  });

  it('a .http file: a curl whose --data-raw spans lines (no backslashes) stays one request, and the next block still imports', () => {
    const file = [
      '### Ask',
      "curl https://api.openai.com/v1/chat/completions -H 'Content-Type: application/json' --data-raw '{",
      '  "model": "gpt-4o-mini",',
      '',
      '  "messages": [{"role": "user", "content": "a # is no comment here"}]',
      "}'",
      '',
      '### Models',
      'GET https://api.openai.com/v1/models',
    ].join('\n');
    const r = importHttpFile(file);
    // A curl pasted into a .http file is kept as a block (its own design); what matters is that it is whole.
    assert.equal((r.text.match(/Not imported/g) ?? []).length, 1, r.text);
    assert.match(
      r.text,
      /> POST https:\/\/api\.openai\.com\/v1\/chat\/completions\n> Content-Type: application\/json\n>\n> \{\n> {3}"model": "gpt-4o-mini",\n>\n> {3}"messages": \[\{"role": "user", "content": "a # is no comment here"\}\]\n> \}/,
    );
    assert.match(r.text, /```llm\nGET \/models\n```/);
  });
});
