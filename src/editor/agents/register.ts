// What activation wires for agents, without loading the tools themselves: the seven
// language-model tools (Copilot agent mode calls them with the user's stored connections; the
// tools run from the notebook bundle on first call) and, where VS Code has the API (1.101+), the
// `api-workbench mcp` server for other MCP-aware features, so no one writes an mcp.json by hand.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TOOL_NAMES } from '../../agents/names';
import { errorText } from '../../core/errors';
import { bundle } from '../bundles';
import type { Services } from '../services';
import type { EditorAgentTools } from './tools';

/** package.json contributes.mcpServerDefinitionProviders[0].id */
export const MCP_PROVIDER_ID = 'apiWorkbench.mcpServer';

export interface AgentToolsRegistration {
  readonly disposables: vscode.Disposable[];
  /** The tools' implementations as VS Code calls them (the in-editor tests ask prepareInvocation directly). */
  readonly tools: ReadonlyMap<string, vscode.LanguageModelTool<object>>;
  /** True when the MCP server definition provider was registered (VS Code 1.101+ with the CLI beside the extension). */
  readonly mcpProvider: boolean;
}

// The MCP API is newer than the engine floor (^1.100) and its types: reached through these narrow shapes.
interface McpStdioDefinitionCtor {
  new (label: string, command: string, args?: string[], env?: Record<string, string | number | null>, version?: string): unknown;
}
interface McpApi {
  registerMcpServerDefinitionProvider(id: string, provider: { provideMcpServerDefinitions(): unknown[] }): vscode.Disposable;
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
  const mcpProvider = registerMcpServer(s, disposables);
  return { disposables, tools, mcpProvider };
}

function registerMcpServer(s: Services, disposables: vscode.Disposable[]): boolean {
  const lm = vscode.lm as unknown as Partial<McpApi>;
  const Definition = (vscode as unknown as { McpStdioServerDefinition?: McpStdioDefinitionCtor }).McpStdioServerDefinition;
  // 1.100 has a proposed API of the same name that wants another contribution point; 1.101 finalized it.
  if (typeof lm.registerMcpServerDefinitionProvider !== 'function' || typeof Definition !== 'function' || !atLeast(vscode.version, 1, 101)) return false;
  const command = mcpCommand(s.context.extensionPath);
  if (!command) return false;
  const version = (s.context.extension.packageJSON as { version?: string }).version;
  try {
    disposables.push(
      lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
        provideMcpServerDefinitions: () => {
          const root = vscode.workspace.workspaceFolders?.[0]?.uri;
          const rootArgs = root?.scheme === 'file' ? ['--root', root.fsPath] : [];
          return [new Definition('API Workbench (local sandbox)', command.command, [...command.args, 'mcp', '--sandbox', ...rootArgs], command.env, version)];
        },
      }),
    );
  } catch (e) {
    // A host whose MCP API differs from the one this was written for: the tools above still work.
    s.log.warn(`Agents: the MCP server was not registered with VS Code: ${errorText(e)}`);
    return false;
  }
  return true;
}

/**
 * How to start `api-workbench`: dist/cli.js beside the extension (a checkout; the .vsix leaves the
 * CLI out for its size budget) run by the extension host's own runtime (Electron's as Node,
 * code-server's Node as is), else the npm package's command on PATH; undefined when neither exists.
 */
function mcpCommand(extensionPath: string): { command: string; args: string[]; env: Record<string, string> } | undefined {
  const cli = path.join(extensionPath, 'dist', 'cli.js');
  if (existsSync(cli)) return { command: process.execPath, args: [cli], env: { ELECTRON_RUN_AS_NODE: '1' } };
  const names = process.platform === 'win32' ? ['api-workbench.cmd', 'api-workbench.exe'] : ['api-workbench'];
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    for (const name of names) if (existsSync(path.join(dir, name))) return { command: path.join(dir, name), args: [], env: {} };
  }
  return undefined;
}

/** `1.101.0-insider` ≥ 1.101. */
function atLeast(version: string, major: number, minor: number): boolean {
  const [a, b] = version.split('.').map((n) => parseInt(n, 10));
  return a > major || (a === major && b >= minor);
}
