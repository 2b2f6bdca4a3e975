import * as assert from 'node:assert/strict';
import { exportHttpFile, importHttpFile, importPostman } from '../../../../src/notebook/import';
import { parseNotebook } from '../../../../src/notebook/format';

const exec = (code: string) => ({ exec: code.split('\n') });
const codeOf = (text: string) => parseNotebook(text).cells.filter((c) => c.kind === 'code' && c.language !== 'vars');

describe('import and export of scripts', () => {
  it("Postman: collection, folder and request scripts become the cell's blocks in Postman's order, with no note saying they do not run", () => {
    const r = importPostman(
      JSON.stringify({
        info: { name: 'c', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
        event: [
          { listen: 'prerequest', script: exec("console.log('collection pre')") },
          { listen: 'test', script: exec("pm.test('collection test', () => {})") },
        ],
        item: [
          {
            name: 'folder',
            event: [{ listen: 'prerequest', script: exec("console.log('folder pre')") }],
            item: [
              {
                name: 'login',
                event: [{ listen: 'test', script: exec("pm.environment.set('token', pm.response.json().token)") }],
                request: { method: 'POST', url: 'https://api.example.com/login' },
              },
            ],
          },
        ],
      }),
    );
    assert.equal(
      codeOf(r.text)[0].value,
      [
        "< {%\nconsole.log('collection pre')\n%}",
        "< {%\nconsole.log('folder pre')\n%}",
        'POST https://api.example.com/login',
        '',
        "> {%\npm.test('collection test', () => {})\n%}",
        '',
        "> {%\npm.environment.set('token', pm.response.json().token)\n%}",
      ].join('\n'),
    );
    assert.doesNotMatch(r.text, /not run|do not run/);
    assert.deepEqual(parseNotebook(r.text).problems, []);
  });

  it(".http export writes a service cell's scripts back as < {% %} / > {% %}; import reads them into the cell again", () => {
    const notebook =
      '```llm name=models\n< {%\npm.variables.set("n", 1);\n%}\nGET /models\n\n> {%\nclient.global.set("id", response.body.data[0].id);\n%}\n?? status == 200\n```\n';
    const http = exportHttpFile(notebook);
    assert.match(http, /< \{%\npm\.variables\.set\("n", 1\);\n%\}\nGET https:\/\/[^\n]*\/models\n/);
    assert.match(http, /\n\n> \{%\nclient\.global\.set\("id", response\.body\.data\[0\]\.id\);\n%\}/);
    const back = codeOf(importHttpFile(http).text)[0].value;
    assert.match(back, /^< \{%\npm\.variables\.set\("n", 1\);\n%\}\nGET \/models/);
    assert.match(back, /> \{%\nclient\.global\.set\("id", response\.body\.data\[0\]\.id\);\n%\}/);
  });
});
