// One MCP server over the agent tools, whichever transport carries it: `api-workbench mcp` on
// stdio and the editor's in-process server over Streamable HTTP list and call the same tools with
// the same instructions, through callTool (one validation, one set of rules, one redaction).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { AgentContext } from './context';
import { AGENT_TOOLS, callTool, inputJsonSchema } from './tools';

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
 * its own validator says so instead of bundling Ajv (esbuild.mjs stubs it out of the bundles).
 */
const noElicitation: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'API Workbench asks no questions over MCP (no elicitation)' }),
};

/** An MCP server answering tools/list and tools/call over `ctx`; connect it to a transport. */
export function agentMcpServer(ctx: AgentContext, version: string): Server {
  const server = new Server(
    { name: 'api-workbench', title: 'API Workbench', version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: noElicitation },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: mcpToolList() }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    const r = await callTool(ctx, req.params.name, req.params.arguments ?? {}, extra.signal);
    return { content: [{ type: 'text', text: r.text }], ...(r.structured ? { structuredContent: r.structured } : {}), isError: r.isError };
  });
  return server;
}
