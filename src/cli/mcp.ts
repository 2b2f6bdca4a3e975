// `api-workbench mcp`: the agent tools (src/agents) served over the Model Context Protocol on
// stdin/stdout with the official SDK. stdout carries protocol messages only; problems go to
// stderr, redacted. A malformed or oversized message is reported and skipped, never the end of the server.
import { agentMcpServer } from '../agents/mcpServer';
import { AGENT_TOOLS } from '../agents/tools';
import { errorText } from '../core/errors';
import { Redactor } from '../core/redact';
import type { McpArgs } from './args';
import { setUpMcp } from './mcpSetup';
import { BoundedStdioTransport } from './mcpStdio';
import { configureCliNetwork } from './network';

export interface McpStreams {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
}

/** Serves until stdin ends (the client went away); returns the exit code. */
export async function mcpCommand(args: McpArgs, io: McpStreams, version: string): Promise<number> {
  const redactor = new Redactor();
  configureCliNetwork(args, io.env, redactor);
  const setup = await setUpMcp(args, io.env, redactor);
  const server = agentMcpServer(setup.context, version);
  // A line that is not JSON-RPC, or a request the SDK refuses: said on stderr, and the server goes on.
  server.onerror = (e) => io.stderr.write(`api-workbench mcp: ${redactor.text(errorText(e))}\n`);
  // A message over the size limit is answered with an error and skipped, as a malformed line is.
  const transport = new BoundedStdioTransport(io.stdin, io.stdout);
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  io.stdin.once('end', () => void server.close());
  await server.connect(transport);
  const names = setup.connections.map((c) => `${c.service} "${c.name}"`).join(', ');
  io.stderr.write(`api-workbench mcp: serving ${AGENT_TOOLS.length} tools over stdio for ${names}; notebooks from ${setup.context.notebooks?.root}\n`);
  await closed;
  await setup.close();
  return 0;
}
