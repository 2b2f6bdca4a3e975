// The agent tools over MCP's Streamable HTTP transport, for the editor: served from the process
// that holds the user's connections and keys (the extension host), so the keys never leave it.
// Only this machine may call it (127.0.0.1, loopback peers only), only with the per-session bearer
// token VS Code is given in the server definition, and only with a Host/Origin of this server
// (a web page that rebinds a DNS name to 127.0.0.1 sends its own). Stateless: each POST gets its
// own server and transport (the tools' state, e.g. realtime subscriptions, lives in the context).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { AgentContext } from './context';
import { agentMcpServer } from './mcpServer';

/** The path the server answers on; anything else is 404. */
export const MCP_HTTP_PATH = '/mcp';
/** A request body larger than this is refused (413): tool arguments are small. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
const LOOPBACK_PEERS = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export interface McpHttpServer {
  /** http://127.0.0.1:<port>/mcp */
  readonly url: string;
  /** The headers every request must carry: `Authorization: Bearer <token>`. Never logged. */
  readonly headers: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

export interface McpHttpOptions {
  version: string;
  /** Told about a request that failed inside the server (redact before showing). */
  onError?(e: unknown): void;
}

/** Starts the server on a random port of 127.0.0.1 with a fresh token. */
export async function startMcpHttpServer(ctx: AgentContext, opts: McpHttpOptions): Promise<McpHttpServer> {
  const token = randomBytes(32).toString('base64url');
  const expected = Buffer.from(`Bearer ${token}`);
  ctx.clients.redactor.addSecret(token);
  let port = 0;
  const http = createServer((req, res) => {
    const refusal = refuse(req, port, expected);
    if (refusal) return reply(res, refusal.status, refusal.message, refusal.status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {});
    serve(ctx, opts.version, req, res).catch((e: unknown) => {
      opts.onError?.(e);
      if (!res.headersSent) reply(res, 500, 'the MCP request failed inside API Workbench: see its output');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
  port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${MCP_HTTP_PATH}`,
    headers: { Authorization: `Bearer ${token}` },
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/** Why this request is not answered, or undefined when it may be. */
function refuse(req: IncomingMessage, port: number, expected: Buffer): { status: number; message: string } | undefined {
  if (!LOOPBACK_PEERS.has(req.socket.remoteAddress ?? '')) return { status: 403, message: 'only this machine may call this server' };
  const own = [`127.0.0.1:${port}`, `localhost:${port}`];
  if (!own.includes(req.headers.host ?? '')) return { status: 403, message: 'the Host header does not name this server' };
  const origin = req.headers.origin;
  if (origin !== undefined && !own.some((h) => origin === `http://${h}`)) return { status: 403, message: 'requests from web pages are refused' };
  const given = Buffer.from(req.headers.authorization ?? '');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { status: 401, message: "the bearer token is missing or wrong: use the headers of VS Code's MCP server definition" };
  }
  if ((req.url ?? '').split('?')[0] !== MCP_HTTP_PATH) return { status: 404, message: `the MCP endpoint is ${MCP_HTTP_PATH}` };
  // Stateless: no standalone SSE stream to GET and no session to DELETE (the spec's answer is 405).
  if (req.method !== 'POST') return { status: 405, message: 'only POST is served' };
  return undefined;
}

async function serve(ctx: AgentContext, version: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBody(req);
  if (body === undefined) return reply(res, 413, `the request body is over ${MAX_BODY_BYTES} bytes`);
  const server = agentMcpServer(ctx, version);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  // The client went away before the answer: closing aborts the tool call (its signal).
  res.on('close', () => void server.close());
  await server.connect(transport);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  const answer = await transport.handleRequest(
    new Request(`http://127.0.0.1${req.url ?? MCP_HTTP_PATH}`, { method: 'POST', headers, body: new Uint8Array(body) }),
  );
  const answerHeaders: Record<string, string> = {};
  answer.headers.forEach((value, name) => (answerHeaders[name] = value));
  res.writeHead(answer.status, answerHeaders);
  res.end(Buffer.from(await answer.arrayBuffer()));
}

/** The whole body, or undefined when it is over MAX_BODY_BYTES. */
async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function reply(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `API Workbench MCP server: ${message}` }, id: null }));
}
