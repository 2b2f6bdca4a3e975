// What `api-workbench mcp` serves: the connections of --connections and --sandbox with their keys,
// read and checked at start (exit 2 with one line per problem), every key registered with the
// server's redactor, the agent context built over them.
import path from 'node:path';
import { connectionId, type Connection } from '../core/connections';
import type { Redactor } from '../core/redact';
import { SpendBudget } from '../agents/budget';
import { sandboxDefaultModel, standaloneContext, type StandaloneContext } from '../agents/standalone';
import { SANDBOX_CONNECTION_NAME, sandboxConnections } from '../notebook/api';
import type { Sandbox } from '../sandbox/host';
import type { McpArgs } from './args';
import { loadConnectionsFile } from './connectionsFile';
import { prepareTokens } from './credentials';
import { keysFromEnv } from './envKeys';
import { CliError } from './errors';

export interface McpSetup {
  context: StandaloneContext;
  connections: readonly Connection[];
  sandbox?: Sandbox;
  close(): Promise<void>;
}

export async function setUpMcp(args: McpArgs, env: NodeJS.ProcessEnv, redactor: Redactor): Promise<McpSetup> {
  const file = args.connectionsFile ? loadConnectionsFile(args.connectionsFile) : undefined;
  const fileConnections = file?.connections ?? [];
  if (!args.sandbox && fileConnections.length === 0) throw new CliError('mcp needs connections: use --sandbox, or give them in a --connections file');
  const clash = args.sandbox ? fileConnections.find((c) => c.name === SANDBOX_CONNECTION_NAME) : undefined;
  if (clash) throw new CliError(`${args.connectionsFile}: the ${clash.service} connection "${SANDBOX_CONNECTION_NAME}" has the sandbox's name: rename it`);
  const keys = keysFromEnv(fileConnections, file?.keyEnv ?? new Map<string, string>(), env, redactor);
  // Token commands and Entra ID run once now, so a server that cannot sign in says so at start (exit 2)
  // instead of failing every call; later calls renew the token near the expiry it reported.
  const tokens = await prepareTokens(fileConnections, env, redactor);

  let sandbox: Sandbox | undefined;
  let sandboxSet: ReturnType<typeof sandboxConnections> | undefined;
  if (args.sandbox) {
    // Loaded only for --sandbox: a server for real services does not pay for the sandbox's code.
    const { startCliSandbox } = await import('./sandbox');
    sandbox = await startCliSandbox(args.modelMap);
    sandboxSet = sandboxConnections(sandbox.info);
  }
  // The sandbox's come first: the first connection of a service is its default.
  const connections = [...(sandboxSet?.connections ?? []), ...fileConnections];
  const context = standaloneContext({
    connections,
    key: (c) => (c.source === 'sandbox' ? sandboxSet?.key(c) : (tokens.token(c) ?? keys.get(connectionId(c)))),
    redactor,
    root: path.resolve(args.root ?? '.'),
    allowedHosts: [...args.allowHosts, ...(file?.hosts ?? [])],
    env,
    publishRefusal: args.allowPublish ? undefined : 'publishing is off: start the server with --allow-publish to let agents publish',
    budget: args.budgetUsd === undefined ? undefined : new SpendBudget(args.budgetUsd, 'restart the server with a larger --budget-usd'),
    defaultModel: sandboxDefaultModel,
  });
  return {
    context,
    connections,
    sandbox,
    close: async () => {
      context.dispose();
      await sandbox?.close().catch(() => undefined);
    },
  };
}
