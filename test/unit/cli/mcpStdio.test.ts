// The MCP server's stdio line reader on its own, with a small limit: messages split across chunks
// arrive whole, an oversized one is answered with the request's id (wherever the client wrote it)
// or null, and the messages after it still arrive.
import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { BoundedStdioTransport } from '../../../src/cli/mcpStdio';

const LIMIT = 1_000;

async function exchange(chunks: string[]): Promise<{ received: JSONRPCMessage[]; answered: unknown[]; errors: string[] }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const transport = new BoundedStdioTransport(stdin, stdout, LIMIT);
  const received: JSONRPCMessage[] = [];
  const errors: string[] = [];
  let written = '';
  stdout.setEncoding('utf8').on('data', (d: string) => (written += d));
  transport.onmessage = (m) => received.push(m);
  transport.onerror = (e) => errors.push(e.message);
  await transport.start();
  for (const c of chunks) stdin.write(c);
  await new Promise((r) => setImmediate(r));
  await transport.close();
  return {
    received,
    answered: written
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as unknown),
    errors,
  };
}

describe('mcp stdio: messages over the size limit', () => {
  const big = 'x'.repeat(3 * LIMIT);
  const ping = (id: number | string) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });

  it('a message split across chunks arrives whole; a malformed line is reported and skipped', async () => {
    const line = `${ping(1)}\n`;
    const r = await exchange([line.slice(0, 10), line.slice(10), 'not json\n', `${ping(2)}\r\n`]);
    assert.deepEqual(
      r.received.map((m) => (m as { id: number }).id),
      [1, 2],
    );
    assert.equal(r.errors.length, 1);
    assert.deepEqual(r.answered, []);
  });

  it('answers an oversized request with its id (written first or last) or null, and goes on reading', async () => {
    const idFirst = `{"jsonrpc":"2.0","id":"first","method":"tools/call","params":{"p":"${big}"}}\n`;
    const idLast = `{"method":"tools/call","params":{"arguments":{"id":"nested","p":"${big}"}},"jsonrpc":"2.0","id":7}\n`;
    const noId = `{"jsonrpc":"2.0","method":"notifications/x","params":{"id":"nested","p":"${big}"}}\n`;
    // Fed in 100-byte chunks, as a pipe may deliver them.
    const all = idFirst + idLast + noId + `${ping(3)}\n`;
    const chunks = all.match(/[\s\S]{1,100}/g) ?? [];
    const r = await exchange(chunks);
    const error = (id: unknown, bytes: number) => ({
      jsonrpc: '2.0',
      id,
      error: { code: -32600, message: `message too large (${bytes} bytes; limit ${LIMIT})` },
    });
    assert.deepEqual(r.answered, [
      error('first', Buffer.byteLength(idFirst) - 1),
      error(7, Buffer.byteLength(idLast) - 1),
      error(null, Buffer.byteLength(noId) - 1),
    ]);
    assert.deepEqual(
      r.received.map((m) => (m as { id: number }).id),
      [3],
    );
    assert.equal(r.errors.length, 3);
  });
});
