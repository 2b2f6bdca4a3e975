// What activation wires for agents, without loading the tools themselves: the seven
// language-model tools (Copilot agent mode calls them with the user's stored connections; the
// tools run from the notebook bundle on first call) and, where VS Code has the API (1.101+), the
// same tools as an MCP server, offered only where there are no language-model tools or when
// apiWorkbench.agents.mcpServer is on (else agent mode lists every tool twice; other MCP clients
// use `api-workbench mcp`), so no one writes an mcp.json by hand:
// served from this extension host over HTTP on 127.0.0.1 (src/agents/mcpHttp.ts), so it uses the
// stored connections and their keys never leave the process, and needs no CLI on PATH.
import vscode from 'vscode';
import { TOOL_NAMES } from '../../agents/names';
import { errorText } from '../../core/errors';
import { bundle } from '../bundles';
import type { Services } from '../services';
import type { McpHttpServer } from '../../agents/mcpHttp';
import type { EditorAgentTools } from './tools';
import { registerChatModels, type ChatModelProvider } from './chatModels';

/** package.json contributes.mcpServerDefinitionProviders[0].id */
export const MCP_PROVIDER_ID = 'apiWorkbench.mcpServer';

export interface AgentToolsRegistration {
  readonly disposables: vscode.Disposable[];
  /** The tools' implementations as VS Code calls them (the in-editor tests ask prepareInvocation directly). */
  readonly tools: ReadonlyMap<string, vscode.LanguageModelTool<object>>;
  /** The MCP server definition provider as registered (VS Code 1.101+); undefined where the host has no such API. */
  readonly mcpProvider?: McpDefinitionProvider;
  /** The LLM connections' chat-model provider as registered (VS Code 1.104+); undefined where the host has no such API. */
  readonly chatModels?: ChatModelProvider;
}

/** The server's name in VS Code's MCP views. */
export const MCP_SERVER_LABEL = 'API Workbench';

// The MCP API is newer than the engine floor (^1.100) and its types: reached through these narrow shapes.
export interface McpHttpDefinition {
  readonly label: string;
  uri: vscode.Uri;
  headers: Record<string, string>;
}
interface McpHttpDefinitionCtor {
  new (label: string, uri: vscode.Uri, headers?: Record<string, string>, version?: string): McpHttpDefinition;
}
export interface McpDefinitionProvider {
  readonly onDidChangeMcpServerDefinitions?: vscode.Event<void>;
  provideMcpServerDefinitions(): McpHttpDefinition[];
  resolveMcpServerDefinition(definition: McpHttpDefinition): Promise<McpHttpDefinition>;
}
interface McpApi {
  registerMcpServerDefinitionProvider(id: string, provider: McpDefinitionProvider): vscode.Disposable;
}

export function registerAgentTools(s: Services): AgentToolsRegistration {
  const disposables: vscode.Disposable[] = [];
  const tools = new Map<string, vscode.LanguageModelTool<object>>();
  let loaded: EditorAgentTools | undefined;
  const agentTools = (): EditorAgentTools => {
    if (!loaded) {
      const make: (services: Services) => EditorAgentTools = bundle('notebook').agentToolsFor;
      loaded = make(s);
    }
    return loaded;
  };
  disposables.push({
    dispose: () => {
      loaded?.dispose();
    },
  });

  if (typeof vscode.lm?.registerTool === 'function') {
    for (const name of TOOL_NAMES) {
      const tool: vscode.LanguageModelTool<object> = {
        async invoke(options, token) {
          const result = await agentTools().invoke(name, options.input, token);
          return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(result.text)]);
        },
        prepareInvocation(options) {
          const asked = agentTools().confirmation(name, options.input);
          if (!asked) return { invocationMessage: `API Workbench: ${name}` };
          return { invocationMessage: `API Workbench: ${name}`, confirmationMessages: { title: asked.title, message: asked.message } };
        },
      };
      tools.set(name, tool);
      disposables.push(vscode.lm.registerTool(name, tool));
    }
  }
  // One set of tools in agent mode: with language-model tools registered, the MCP server (the same
  // tools again) is offered to VS Code only when apiWorkbench.agents.mcpServer asks for it.
  const offerMcp = () => tools.size === 0 || s.config.get('agents.mcpServer');
  const mcpProvider = registerMcpServer(s, disposables, agentTools, offerMcp);
  const chatModels = registerChatModels(s, disposables);
  return { disposables, tools, mcpProvider, chatModels };
}

function registerMcpServer(
  s: Services,
  disposables: vscode.Disposable[],
  agentTools: () => EditorAgentTools,
  offered: () => boolean,
): McpDefinitionProvider | undefined {
  const lm = vscode.lm as unknown as Partial<McpApi>;
  const Definition = (vscode as unknown as { McpHttpServerDefinition?: McpHttpDefinitionCtor }).McpHttpServerDefinition;
  // 1.100 has a proposed API of the same name that wants another contribution point; 1.101 finalized it.
  if (typeof lm.registerMcpServerDefinitionProvider !== 'function' || typeof Definition !== 'function' || !atLeast(vscode.version, 1, 101)) return undefined;
  const version = (s.context.extension.packageJSON as { version?: string }).version ?? '0.0.0';
  // Started when VS Code first resolves the definition (someone uses the server), then kept for the session.
  let started: Promise<McpHttpServer> | undefined;
  disposables.push({ dispose: () => void started?.then((server) => server.close()).catch(() => undefined) });
  const changed = new vscode.EventEmitter<void>();
  disposables.push(
    changed,
    s.config.onDidChange((e) => e.affectsConfiguration('apiWorkbench.agents.mcpServer') && changed.fire()),
  );
  const provider: McpDefinitionProvider = {
    onDidChangeMcpServerDefinitions: changed.event,
    // Where the server will listen is not known until it starts: resolve fills in the address and the token.
    provideMcpServerDefinitions: () => (offered() ? [new Definition(MCP_SERVER_LABEL, vscode.Uri.parse('http://127.0.0.1/mcp'), {}, version)] : []),
    resolveMcpServerDefinition: async (definition) => {
      started ??= agentTools().startMcpServer(version);
      const server = await started.catch((e: unknown) => {
        started = undefined;
        throw new Error(`API Workbench could not start its MCP server: ${errorText(e)}`);
      });
      definition.uri = vscode.Uri.parse(server.url);
      definition.headers = { ...server.headers };
      return definition;
    },
  };
  try {
    disposables.push(lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider));
  } catch (e) {
    // A host whose MCP API differs from the one this was written for: the tools above still work.
    s.log.warn(`Agents: the MCP server was not registered with VS Code: ${errorText(e)}`);
    return undefined;
  }
  return provider;
}

/** `1.101.0-insider` ≥ 1.101. */
function atLeast(version: string, major: number, minor: number): boolean {
  const [a, b] = version.split('.').map((n) => parseInt(n, 10));
  return a > major || (a === major && b >= minor);
}
