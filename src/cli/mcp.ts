// `api-workbench mcp`: the agent tools (src/agents) served over the Model Context Protocol on
// stdin/stdout with the official SDK. stdout carries protocol messages only; problems go to
// stderr, redacted. A malformed message is reported and skipped, never the end of the server.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { AGENT_TOOLS, callTool, inputJsonSchema } from '../agents/tools';
import { errorText } from '../core/errors';
import { Redactor } from '../core/redact';
import type { McpArgs } from './args';
import { setUpMcp } from './mcpSetup';
import { configureCliNetwork } from './network';

export interface McpStreams {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
}

const INSTRUCTIONS =
  "Tools over the user's own API connections (language models, maps, realtime) from API Workbench. Keys never appear in results. " +
  'Start with list_resources to see what a connection offers. realtime_publish reaches real subscribers: confirm with the user first.';

/** The tools as MCP lists them: stable names, JSON Schema generated from the zod schema that validates them. */
export function mcpToolList(): Tool[] {
  return AGENT_TOOLS.map((t) => ({
    name: t.name,
    title: t.annotations.title,
    description: t.description,
    inputSchema: inputJsonSchema(t) as Tool['inputSchema'],
    annotations: t.annotations,
  }));
}

/**
 * The server checks only elicitation answers against a JSON Schema, and this server never elicits:
 * its own validator says so instead of bundling Ajv (esbuild.mjs stubs it out of dist/cli.js).
 */
const noElicitation: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'api-workbench mcp asks no questions (no elicitation)' }),
};

/** Serves until stdin ends (the client went away); returns the exit code. */
export async function mcpCommand(args: McpArgs, io: McpStreams, version: string): Promise<number> {
  const redactor = new Redactor();
  configureCliNetwork(args, io.env, redactor);
  const setup = await setUpMcp(args, io.env, redactor);
  const server = new Server(
    { name: 'api-workbench', title: 'API Workbench', version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: noElicitation },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: mcpToolList() }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    const r = await callTool(setup.context, req.params.name, req.params.arguments ?? {}, extra.signal);
    return { content: [{ type: 'text', text: r.text }], ...(r.structured ? { structuredContent: r.structured } : {}), isError: r.isError };
  });
  // A line that is not JSON-RPC, or a request the SDK refuses: said on stderr, and the server goes on.
  server.onerror = (e) => io.stderr.write(`api-workbench mcp: ${redactor.text(errorText(e))}\n`);
  const transport = new StdioServerTransport(io.stdin as NodeJS.ReadStream, io.stdout as NodeJS.WriteStream);
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  io.stdin.once('end', () => void server.close());
  await server.connect(transport);
  const names = setup.connections.map((c) => `${c.service} "${c.name}"`).join(', ');
  io.stderr.write(`api-workbench mcp: serving ${AGENT_TOOLS.length} tools over stdio for ${names}; notebooks from ${setup.context.notebooks?.root}\n`);
  await closed;
  await setup.close();
  return 0;
}
