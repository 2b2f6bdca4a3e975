// What `api-workbench mcp` serves: the connections of --connections and --sandbox with their keys,
// read and checked at start (exit 2 with one line per problem), every key registered with the
// server's redactor, the agent context built over them.
import path from 'node:path';
import { connectionId, type Connection } from '../core/connections';
import type { Redactor } from '../core/redact';
import { SpendBudget } from '../agents/budget';
import { sandboxDefaultModel, standaloneContext, type StandaloneContext } from '../agents/standalone';
import type { Sandbox } from '../sandbox/host';
import { PRICES } from '../services/llm';
import type { McpArgs } from './args';
import { loadConnectionsFile } from './connectionsFile';
import { prepareTokens } from './credentials';
import { keysFromEnv, runCredentials } from './envKeys';
import { refuseSandboxNameClash, withSandbox } from './sandboxConnections';
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
  if (args.sandbox) refuseSandboxNameClash(fileConnections, args.connectionsFile);
  const keys = keysFromEnv(fileConnections, file?.keyEnv ?? new Map<string, string>(), env, redactor);
  // Token commands and Entra ID run once now, so a server that cannot sign in says so at start (exit 2)
  // instead of failing every call; later calls renew the token near the expiry it reported.
  const tokens = await prepareTokens(fileConnections, env, redactor);

  const defaults = await withSandbox(args.sandbox, args.modelMap, fileConnections, redactor);
  const { sandbox, connections } = defaults;
  const key = (c: Connection) => (c.source === 'sandbox' ? defaults.key(c) : (tokens.token(c) ?? keys.get(connectionId(c))));
  const noFile = { connections: [], keyEnv: new Map<string, string>(), masterKeyEnv: new Map<string, string>(), env: [] };
  // Every connection's token was fetched above: asking for each key now has no side effect.
  const credentials = await runCredentials({ file: file ?? noFile, allowEnv: args.allowEnv, env, connections, key, ready: () => true });
  const context = standaloneContext({
    connections,
    key,
    envPolicy: credentials.envPolicy,
    knownCredentials: credentials.known,
    keyRefused: (c, key) => tokens.refused(c, key),
    redactor,
    root: path.resolve(args.root ?? '.'),
    allowedHosts: [...args.allowHosts, ...(file?.hosts ?? [])],
    env,
    publishRefusal: args.allowPublish
      ? undefined
      : 'agents may not publish or change data here: start the server with --allow-publish to let them (realtime publishing, and requests other than GET to your services and allowed hosts)',
    budget:
      args.budgetUsd === undefined
        ? undefined
        : new SpendBudget(
            args.budgetUsd,
            'restart the server with a larger --budget-usd',
            'start the server with --price <model>=<input>/<output> (US dollars per 1M tokens) to give it one',
          ),
    prices: { ...PRICES, ...args.prices },
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
