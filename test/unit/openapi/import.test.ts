// `api-workbench import openapi.yaml` as a user runs it: the built CLI on documents written for the project.
import * as assert from 'node:assert/strict';
import path from 'node:path';
import { assertBuilt, read, runCli, tempDir, write } from '../cli/cliKit';
import { withFixtures } from './openapiKit';
import { parseNotebook, type NotebookCellData } from '../../../src/notebook/api';

const httpCells = (text: string) => parseNotebook(text).cells.filter((c: NotebookCellData) => c.kind === 'code' && c.language === 'http');

describe('OpenAPI import (api-workbench import)', function () {
  this.timeout(30_000);
  before(assertBuilt);

  it('a 3.0 document with $refs into a second file: a heading per tag, a cell per operation, servers as environments, credentials by reference', async () => {
    const dir = withFixtures('petstore.yaml', 'schemas.yaml');
    const r = await runCli(['import', 'petstore.yaml', '-o', 'pets.awb.md'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const text = read(path.join(dir, 'pets.awb.md'));
    assert.match(text, /```vars\nspec = \.\/petstore\.yaml\nbaseUrl = https:\/\/petstore\.example\.com\/v1\npetId = 1\norderId = 7\n```/);
    assert.match(text, /```vars env=local\nbaseUrl = http:\/\/127\.0\.0\.1:8089\/v1\n```/);
    assert.match(text, /## pets\n\nEverything about your pets\.[\s\S]*## store\n\nOrders and stock\./);
    assert.match(
      text,
      /```http name=listPets\nGET \{\{baseUrl\}\}\/pets\?limit=2\nX-Tenant: acme\nAuthorization: Bearer \{\{\$secret bearerAuth\}\}\n\n\?\? status == 200\n\?\? json matches spec\n```/,
    );
    // The body sampled from the schema in schemas.yaml: required fields, the enum's first value, the example.
    assert.match(
      text,
      /```http name=createPet\nPOST \{\{baseUrl\}\}\/pets\n[^`]*Content-Type: application\/json\n\n\{\n {2}"name": "Rex",\n {2}"kind": "cat",/,
    );
    assert.match(text, /```http name=getInventory\nGET \{\{baseUrl\}\}\/store\/inventory\nX-API-Key: \{\{\$secret apiKey\}\}\n/);
    assert.match(text, /GET \{\{baseUrl\}\}\/pets\/\{\{petId\}\}/);
    assert.equal(httpCells(text).length, 5);
    assert.match(r.stderr, /credentials are read as \{\{\$secret bearerAuth\}\}, \{\{\$secret apiKey\}\}/);
  });

  it('the Swagger 2.0 and OpenAPI 3.1 (JSON) versions of the same API import to the same cells', async () => {
    const dir = withFixtures('petstore.yaml', 'schemas.yaml', 'petstore-2.0.yaml', 'petstore-3.1.json');
    const texts: string[] = [];
    for (const f of ['petstore.yaml', 'petstore-2.0.yaml', 'petstore-3.1.json']) {
      const r = await runCli(['import', f, '-o', `${f}.awb.md`], { cwd: dir });
      assert.equal(r.code, 0, r.stderr);
      texts.push(read(path.join(dir, `${f}.awb.md`)));
    }
    const [v30, v20, v31] = texts.map(httpCells);
    assert.deepEqual(v20, v30);
    assert.deepEqual(v31, v30);
  });

  it('not an OpenAPI document, a broken $ref or a $ref out of the folder: exit 2 naming the line, the pointer or the file; nothing written', async () => {
    const dir = withFixtures('petstore.yaml', 'schemas.yaml');
    write(dir, 'other.yaml', 'name: not an api\nitems: [1, 2]\n');
    write(
      dir,
      'broken.yaml',
      'openapi: 3.0.3\ninfo: {title: x, version: "1"}\npaths:\n  /a:\n    get:\n      responses:\n        "200": { $ref: "#/components/responses/Nope" }\n',
    );
    write(dir, 'bad-syntax.yaml', 'openapi: 3.0.3\ninfo: {title: x\npaths: {}\n');
    write(dir, 'outside.yaml', read(path.join(dir, 'petstore.yaml')).replace(/schemas\.yaml#\/NewPet/, '../secret.yaml#/NewPet'));
    const other = await runCli(['import', 'other.yaml', '-o', 'o.awb.md'], { cwd: dir });
    assert.equal(other.code, 2);
    assert.match(other.stderr, /other\.yaml: line 1: not an OpenAPI document/);
    const broken = await runCli(['import', 'broken.yaml', '-o', 'o.awb.md'], { cwd: dir });
    assert.equal(broken.code, 2);
    assert.match(broken.stderr, /broken\.yaml: .*Missing \$ref pointer "#\/components\/responses\/Nope"/);
    const syntax = await runCli(['import', 'bad-syntax.yaml', '-o', 'o.awb.md'], { cwd: dir });
    assert.equal(syntax.code, 2);
    assert.match(syntax.stderr, /bad-syntax\.yaml: line \d: not readable as YAML or JSON/);
    const outside = await runCli(['import', 'outside.yaml', '-o', 'o.awb.md'], { cwd: dir });
    assert.equal(outside.code, 2);
    assert.match(outside.stderr, /\.\.\/secret\.yaml: only files in the spec's folder \(or below\) can be read by a \$ref/);
    assert.throws(() => read(path.join(dir, 'o.awb.md')));
  });

  it("an operation that cannot be a cell is kept as a block with a note; one on OpenAI's host becomes an llm cell", async () => {
    const dir = tempDir();
    write(
      dir,
      'mixed.yaml',
      [
        'openapi: 3.1.0',
        'info: {title: Mixed, version: "1"}',
        'servers: [{url: "https://api.openai.com/v1"}]',
        'paths:',
        '  /models:',
        '    get: {operationId: listModels, responses: {"200": {description: ok}}}',
        '    head: {operationId: probeModels, responses: {"200": {description: ok}}}',
      ].join('\n'),
    );
    const r = await runCli(['import', 'mixed.yaml', '-o', 'm.awb.md'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const text = read(path.join(dir, 'm.awb.md'));
    assert.match(text, /```llm name=listModels\nGET \/models\n```/);
    assert.match(text, /> \*\*Not imported as a cell:\*\* HEAD is not a method a cell sends[^\n]*\n>\n> ````?http\n> HEAD \{\{baseUrl\}\}\/models/);
    assert.match(r.stderr, /probeModels \(#\/paths\/~1models\/head\): kept as an http block/);
  });
});
