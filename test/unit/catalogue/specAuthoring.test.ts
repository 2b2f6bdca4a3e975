// Spec-aware http cells: a notebook whose vars cell names an OpenAPI document (`spec = ./shop.yaml`)
// gets completions, hover and diagnostics for its http cells from that document, and
// `api-workbench check` prints the same findings by file line. The spec is written for the test.
import * as assert from 'node:assert/strict';
import { utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  cellCompletions,
  cellDiagnostics,
  cellHover,
  notebookContext,
  SpecCatalogueCache,
  type AuthoringContext,
  type Diagnostic,
} from '../../../src/catalogue';
import { assertBuilt, lines, runCli, tempDir, write } from '../cli/cliKit';
import { at, code } from './authoringKit';

const SHOP = `openapi: 3.0.3
info: { title: Shop, version: '1' }
servers:
  - url: https://shop.example.com/api
paths:
  /orders:
    get:
      operationId: listOrders
      summary: List orders
      parameters:
        - { name: limit, in: query, required: true, description: How many orders at most., schema: { type: integer } }
        - { name: status, in: query, schema: { type: string, enum: [open, shipped] } }
        - { name: X-Shop, in: header, required: true, description: Which shop., schema: { type: string } }
      responses: { '200': { description: ok } }
    post:
      operationId: createOrder
      summary: Place an order
      description: Places an order for one item.
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: '#/components/schemas/NewOrder' }
      responses: { '201': { description: created } }
  /orders/{orderId}:
    parameters:
      - { name: orderId, in: path, required: true, schema: { type: integer } }
    get:
      operationId: getOrder
      summary: One order
      responses: { '200': { description: ok } }
    delete:
      operationId: cancelOrder
      summary: Cancel an order
      responses: { '204': { description: gone } }
components:
  schemas:
    NewOrder:
      type: object
      required: [item, quantity]
      properties:
        item: { type: string, description: What is ordered. }
        quantity: { type: integer, minimum: 1 }
        size: { type: string, enum: [S, M, L], nullable: true }
        express: { type: boolean }
        address: { $ref: '#/components/schemas/Address' }
    Address:
      type: object
      required: [street]
      properties:
        street: { type: string }
        city: { type: string }
`;

const VARS = 'spec = ./shop.yaml\nbaseUrl = https://shop.example.com/api\norderId = 7';

/** A folder holding shop.yaml, and a context whose spec has been read. */
async function shop(vars = VARS): Promise<{ dir: string; ctx: AuthoringContext; specs: SpecCatalogueCache }> {
  const dir = tempDir();
  write(dir, 'shop.yaml', SHOP);
  const specs = new SpecCatalogueCache();
  const ref = /spec = (\S+)/.exec(vars)?.[1];
  if (ref) await specs.load(ref, dir);
  const ctx = notebookContext([code('vars', vars)], { spec: (r) => specs.get(r, dir) });
  return { dir, ctx, specs };
}

function diagnose(ctx: AuthoringContext, text: string): Diagnostic[] {
  return cellDiagnostics({ index: 1, language: 'http', value: text, attributes: {} }, ctx);
}

const codes = (ds: readonly Diagnostic[]) => ds.map((d) => d.code).filter((c) => c.startsWith('spec-'));

describe('Spec-aware http cells', function () {
  it('completes the operations on the request line, path parameters written as variables', async function () {
    const { ctx } = await shop();
    const { cell, offset } = at('http', 'GET ¦');
    const items = cellCompletions(cell, offset, ctx);
    const one = items.find((c) => c.label === '{{baseUrl}}/orders/{orderId}');
    assert.ok(one, `paths offered: ${items.map((c) => c.label).join(', ')}`);
    assert.equal(one.insertText, '{{baseUrl}}/orders/{{orderId}}');
    assert.equal(one.detail, 'One order');
    assert.ok(!items.some((c) => c.label.includes('POST') || c.detail === 'Place an order'), 'only GET operations after GET');

    const start = cellCompletions(at('http', 'PO¦').cell, 2, ctx);
    assert.ok(start.some((c) => c.label === 'POST {{baseUrl}}/orders' && c.documentation === 'Places an order for one item.'));
  });

  it('completes query parameters with their type and description, and their enum values', async function () {
    const { ctx } = await shop();
    const names = cellCompletions(...args(at('http', 'GET {{baseUrl}}/orders?¦')), ctx);
    assert.deepEqual(
      names.map((c) => [c.label, c.insertText, c.detail]),
      [
        ['limit', 'limit=', 'integer · required'],
        ['status', 'status=', 'string · one of: open, shipped'],
      ],
    );
    assert.equal(names[0].documentation, 'How many orders at most.');
    const values = cellCompletions(...args(at('http', 'GET {{baseUrl}}/orders?limit=2&status=¦')), ctx);
    assert.deepEqual(
      values.map((c) => c.label),
      ['open', 'shipped'],
    );
  });

  it('offers the operation’s header parameters first, then the common headers', async function () {
    const { ctx } = await shop();
    const items = cellCompletions(...args(at('http', 'GET {{baseUrl}}/orders?limit=1\nX-¦')), ctx);
    assert.equal(items[0].label, 'X-Shop');
    assert.equal(items[0].detail, 'string · required');
    assert.ok(
      items.some((c) => c.label === 'Accept'),
      'the common headers are still offered',
    );
  });

  it('completes body fields with types, enums and descriptions, nested ones too', async function () {
    const { ctx } = await shop();
    const keys = cellCompletions(...args(at('http', 'POST {{baseUrl}}/orders\nContent-Type: application/json\n\n{"¦')), ctx);
    const byName = new Map(keys.map((c) => [c.label, c]));
    assert.deepEqual([...byName.keys()].sort(), ['address', 'express', 'item', 'quantity', 'size']);
    assert.equal(byName.get('item')!.detail, 'string · required');
    assert.equal(byName.get('item')!.documentation, 'What is ordered.');
    assert.equal(byName.get('size')!.detail, 'string | null · one of: S, M, L');
    const sizes = cellCompletions(...args(at('http', 'POST {{baseUrl}}/orders\n\n{"size": ¦')), ctx);
    assert.deepEqual(
      sizes.map((c) => c.insertText),
      ['"S"', '"M"', '"L"'],
    );
    const nested = cellCompletions(...args(at('http', 'POST {{baseUrl}}/orders\n\n{"address": {"¦')), ctx);
    assert.deepEqual(
      nested.map((c) => [c.label, c.detail]),
      [
        ['street', 'string · required'],
        ['city', 'string'],
      ],
    );
  });

  it('shows the operation, a parameter or a body field on hover', async function () {
    const { ctx } = await shop();
    const text = 'POST {{baseUrl}}/orders\nContent-Type: application/json\n\n{"item": "tea", "quantity": 2}';
    const hover = (offset: number) => cellHover({ index: 1, language: 'http', value: text, attributes: {} }, offset, ctx)?.lines.join('\n');
    assert.match(
      hover(text.indexOf('/orders') + 2) ?? '',
      /\*\*POST \/orders\*\*: Place an order\nPlaces an order for one item\.\nfrom \.\/shop\.yaml \(Shop\)/,
    );
    assert.match(hover(text.indexOf('item') + 1) ?? '', /\*\*item\*\* string · required\nWhat is ordered\./);
    const get = 'GET {{baseUrl}}/orders?limit=2\nX-Shop: acme';
    const hoverGet = (offset: number) => cellHover({ index: 1, language: 'http', value: get, attributes: {} }, offset, ctx)?.lines.join('\n');
    assert.match(hoverGet(get.indexOf('limit') + 1) ?? '', /\*\*limit\*\* integer · required\nHow many orders at most\./);
    assert.match(hoverGet(get.indexOf('X-Shop') + 1) ?? '', /\*\*X-Shop\*\* string · required\nWhich shop\./);
  });

  it('flags an unknown path or method before anything is sent', async function () {
    const { ctx } = await shop();
    const path = diagnose(ctx, 'GET {{baseUrl}}/order?limit=1\nX-Shop: a');
    assert.deepEqual(codes(path), ['spec-unknown-path']);
    assert.equal(path.find((d) => d.code === 'spec-unknown-path')!.message, '"/order" is not a path in ./shop.yaml: did you mean "/orders"?');
    assert.deepEqual(path[0].range, { start: { line: 0, col: 15 }, end: { line: 0, col: 21 } });
    const method = diagnose(ctx, 'PATCH {{baseUrl}}/orders/{{orderId}}');
    assert.deepEqual(
      method.map((d) => [d.code, d.message]),
      [['spec-unknown-method', 'PATCH is not documented for /orders/{orderId} in ./shop.yaml: it takes GET, DELETE.']],
    );
    // Written out with the server's URL, the cell is the spec's too.
    assert.deepEqual(codes(diagnose(ctx, 'DELETE https://shop.example.com/api/orders/7')), []);
    assert.deepEqual(codes(diagnose(ctx, 'PUT https://shop.example.com/api/orders/7')), ['spec-unknown-method']);
  });

  it('flags a missing required parameter, an unknown one and a wrong type', async function () {
    const { ctx } = await shop();
    const found = diagnose(ctx, 'GET {{baseUrl}}/orders?limt=5&status=lost');
    assert.deepEqual(
      found.filter((d) => d.code.startsWith('spec-')).map((d) => [d.code, d.severity, d.message]),
      [
        ['spec-unknown-parameter', 'warning', '"limt" is not a query parameter of GET /orders in ./shop.yaml: did you mean "limit"?'],
        ['spec-not-in-enum', 'error', 'the query parameter "status" is one of open, shipped in GET /orders in ./shop.yaml, not "lost".'],
        ['spec-missing-parameter', 'error', 'the query parameter "limit" is required by GET /orders in ./shop.yaml: add &limit=… to the URL.'],
        ['spec-missing-parameter', 'error', 'the header X-Shop is required by GET /orders in ./shop.yaml: add a line "X-Shop: …" under the request line.'],
      ],
    );
    // Marked on the whole request line, where the parameter goes.
    const missing = diagnose(ctx, 'GET {{baseUrl}}/orders\nX-Shop: a').find((d) => d.code === 'spec-missing-parameter');
    assert.deepEqual(missing?.range, { start: { line: 0, col: 0 }, end: { line: 0, col: 22 } });
    const typed = diagnose(ctx, 'GET {{baseUrl}}/orders/seven');
    assert.deepEqual(
      typed.map((d) => d.message),
      ['the path parameter "orderId" is an integer in GET /orders/{orderId} in ./shop.yaml, not "seven".'],
    );
    assert.deepEqual(codes(diagnose(ctx, 'GET {{baseUrl}}/orders?limit=two\nX-Shop: a')), ['spec-wrong-type']);
    // Values from variables are known only when the cell runs.
    assert.deepEqual(codes(diagnose(ctx, 'GET {{baseUrl}}/orders?limit={{orderId}}&status={{orderId}}\nX-Shop: {{orderId}}')), []);
  });

  it('flags a missing required body field, an unknown one and a wrong type, at the field', async function () {
    const { ctx } = await shop();
    const text = [
      'POST {{baseUrl}}/orders',
      'Content-Type: application/json',
      '',
      '{',
      '  "item": "tea",',
      '  "quantity": "3",',
      '  "sise": "M",',
      '  "express": {{orderId}},',
      '  "size": "XL",',
      '  "address": {"city": "Lisbon"}',
      '}',
    ].join('\n');
    const found = diagnose(ctx, text).filter((d) => d.code.startsWith('spec-'));
    assert.deepEqual(
      found.map((d) => [d.code, d.range.start.line, d.message]),
      [
        ['spec-wrong-type', 5, 'the field "quantity" is an integer in POST /orders in ./shop.yaml, not "3".'],
        ['spec-unknown-field', 6, 'the field "sise" is not in the schema of POST /orders in ./shop.yaml: did you mean "size"?'],
        ['spec-not-in-enum', 8, 'the field "size" is one of "S", "M", "L" in POST /orders in ./shop.yaml, not "XL".'],
        ['spec-missing-field', 9, 'the field "address" lacks the required field "street" (POST /orders in ./shop.yaml).'],
      ],
    );
    assert.deepEqual(
      diagnose(ctx, 'POST {{baseUrl}}/orders\n\n{"item": "tea"}').map((d) => d.message),
      ['the body lacks the required field "quantity" (POST /orders in ./shop.yaml).'],
    );
    assert.deepEqual(codes(diagnose(ctx, 'POST {{baseUrl}}/orders')), ['spec-missing-body']);
    assert.deepEqual(codes(diagnose(ctx, 'POST {{baseUrl}}/orders\n\n{"item": "tea", "quantity": 2, "size": null}')), []);
  });

  it('leaves cells to other hosts, and notebooks without a spec, alone', async function () {
    const { ctx } = await shop();
    assert.deepEqual(codes(diagnose(ctx, 'GET https://elsewhere.example.org/order?x=1')), []);
    const plain = notebookContext([code('vars', 'baseUrl = https://shop.example.com/api')], {});
    assert.deepEqual(codes(diagnose(plain, 'GET {{baseUrl}}/nowhere')), []);
  });

  it('says on the vars line when the spec cannot be read', async function () {
    const { ctx } = await shop('spec = ../outside.yaml\nbaseUrl = https://shop.example.com/api');
    const found = cellDiagnostics({ index: 0, language: 'vars', value: 'spec = ../outside.yaml\nbaseUrl = https://shop.example.com/api', attributes: {} }, ctx);
    assert.deepEqual(
      found.map((d) => [d.code, d.range.start.line]),
      [['spec-unreadable', 0]],
    );
    assert.match(
      found[0].message,
      /^the spec "\.\.\/outside\.yaml" could not be read: only files in the notebook's folder \(or below\) can be read as the spec/,
    );
  });

  it('reads the spec again when the file changes', async function () {
    const { dir, specs } = await shop();
    const file = path.join(dir, 'shop.yaml');
    writeFileSync(file, SHOP.replace('/orders/{orderId}:', '/carts/{orderId}:'));
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const state = await specs.load('./shop.yaml', dir);
    assert.equal(state.kind, 'ready');
    assert.ok(state.kind === 'ready' && state.spec.operations.some((o) => o.path === '/carts/{orderId}'));
  });

  it('`api-workbench check` prints the same findings by file line', async function () {
    this.timeout(60_000);
    assertBuilt();
    const dir = tempDir();
    write(dir, 'shop.yaml', SHOP);
    write(
      dir,
      'shop.awb.md',
      ['# Shop', '', '```vars', VARS, '```', '', '```http name=place', 'POST {{baseUrl}}/orders', '', '{"item": "tea", "quantity": "3"}', '```', ''].join('\n'),
    );
    const run = await runCli(['check', 'shop.awb.md'], { cwd: dir });
    assert.equal(run.code, 1, run.stderr);
    assert.deepEqual(lines(run.stdout), ['shop.awb.md:12: error: the field "quantity" is an integer in POST /orders in ./shop.yaml, not "3".']);
  });
});

function args(x: { cell: Parameters<typeof cellCompletions>[0]; offset: number }): [Parameters<typeof cellCompletions>[0], number] {
  return [x.cell, x.offset];
}
