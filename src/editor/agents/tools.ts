// The agent tools (src/agents) over the editor's own services: the user's stored connections (the
// active one of each service first), keys released by the CredentialGuard (origin approval,
// restricted mode), the shared HTTP factory and its rate limits, the notebook host the notebook
// uses. Part of the notebook bundle (dist/notebook.js), which already carries the engine and the
// service clients these tools run on, so they add little to the package.
import vscode from 'vscode';
import type { Connection, ServiceId } from '../../core/connections';
import { errorText } from '../../core/errors';
import { confirmationFor, type Confirmation } from '../../agents/confirm';
import type { AgentContext } from '../../agents/context';
import { startMcpHttpServer, type McpHttpServer } from '../../agents/mcpHttp';
import { RecentMessages } from '../../agents/recentMessages';
import { DEFAULT_MAX_RESULT_CHARS, sandboxDefaultModel } from '../../agents/standalone';
import { callTool } from '../../agents/tools';
import type { ToolResult } from '../../agents/result';
import { CostLedger } from '../../features/llm/costLedger';
import { LlmCosts } from '../llmCosts';
import { editorNotebookHost } from '../notebookHost';
import type { Services } from '../services';

export interface EditorAgentTools extends vscode.Disposable {
  invoke(name: string, input: unknown, token?: vscode.CancellationToken): Promise<ToolResult>;
  /** What to ask before running this call; undefined: nothing (read-only, or within the cost threshold). */
  confirmation(name: string, input: unknown): Confirmation | undefined;
  /** The same tools over MCP on 127.0.0.1 (VS Code's MCP server definition points at it). */
  startMcpServer(version: string): Promise<McpHttpServer>;
}

function activeFirst(s: Services, service: ServiceId): Connection[] {
  const all = s.connections.list(service);
  const active = s.connections.active(service);
  return active ? [active, ...all.filter((c) => c !== active)] : all;
}

export function agentToolsFor(s: Services): EditorAgentTools {
  const costs = new LlmCosts(s, new CostLedger(s.context.globalState));
  const recent = new RecentMessages(s);
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  const ctx: AgentContext = {
    clients: s,
    connections: (service) => activeFirst(s, service),
    defaultModel: sandboxDefaultModel,
    get prices() {
      return costs.prices();
    },
    // What an agent's call cost lands in today's total, as Ask's and the playground's do.
    spent: (model, usage) =>
      void costs.record(model, usage).catch((e: unknown) => s.log.warn(`Agent tools: today's language-model cost total was not updated: ${errorText(e)}`)),
    recent,
    // Notebooks of the open folder, run as the notebook runs them (approvals, restricted mode, history).
    ...(root?.scheme === 'file' ? { notebooks: { root: root.fsPath, host: () => editorNotebookHost(s) } } : {}),
    maxResultChars: DEFAULT_MAX_RESULT_CHARS,
  };
  return {
    async invoke(name, input, token) {
      const stop = new AbortController();
      const cancelled = token?.onCancellationRequested(() => stop.abort());
      try {
        return await callTool(ctx, name, input, stop.signal);
      } finally {
        cancelled?.dispose();
      }
    },
    confirmation: (name, input) => confirmationFor(ctx, name, input),
    startMcpServer: (version) =>
      startMcpHttpServer(ctx, { version, onError: (e) => s.log.warn(`Agents: an MCP request failed: ${s.redactor.text(errorText(e))}`) }),
    dispose: () => recent.dispose(),
  };
}
