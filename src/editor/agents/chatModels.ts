// The user's LLM connections as VS Code chat models (vendor "api-workbench"), where the host has the
// finalized provider API (VS Code 1.104+). The engine floor's types (1.100) have none of it, so it is
// reached through the narrow shapes below and feature-detected: on older hosts nothing is registered.
// The connection side (listing, streaming) loads with the notebook bundle on first use.
import vscode from 'vscode';
import { errorText } from '../../core/errors';
import { parseJson } from '../../core/validate';
import type { BridgeMessage, BridgePart, ChatModelDescription } from '../../features/llm/chatModels';
import { estimateChatTokens } from '../../features/llm/chatModels';
import type { ToolDefinition } from '../../services/llm';
import { bundle } from '../bundles';
import type { Services } from '../services';
import type { ChatModelBackend } from './chatModelBackend';

/** package.json contributes.languageModelChatProviders[0].vendor */
export const CHAT_MODEL_VENDOR = 'api-workbench';

/** What VS Code passes as a message (LanguageModelChatRequestMessage). */
interface RequestMessage {
  readonly role: vscode.LanguageModelChatMessageRole;
  readonly content: readonly unknown[];
}

/** The provider as VS Code calls it (LanguageModelChatProvider). */
export interface ChatModelProvider {
  /** Fires when LLM connections change (the sandbox started, a connection added or removed): VS Code asks for the list again. */
  readonly onDidChangeLanguageModelChatInformation: vscode.Event<void>;
  provideLanguageModelChatInformation(options: { readonly silent: boolean }, token: vscode.CancellationToken): Promise<ChatModelDescription[]>;
  provideLanguageModelChatResponse(
    model: ChatModelDescription,
    messages: readonly RequestMessage[],
    options: { readonly tools?: readonly vscode.LanguageModelChatTool[] },
    progress: vscode.Progress<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart>,
    token: vscode.CancellationToken,
  ): Promise<void>;
  provideTokenCount(model: ChatModelDescription, text: string | RequestMessage, token: vscode.CancellationToken): Promise<number>;
}
interface ChatProviderApi {
  registerLanguageModelChatProvider(vendor: string, provider: ChatModelProvider): vscode.Disposable;
}

/** Registers the provider where the API exists; returns it (the in-editor tests call it directly) or undefined. */
export function registerChatModels(s: Services, disposables: vscode.Disposable[]): ChatModelProvider | undefined {
  const lm = vscode.lm as unknown as Partial<ChatProviderApi> | undefined;
  if (typeof lm?.registerLanguageModelChatProvider !== 'function') return undefined;
  let loaded: ChatModelBackend | undefined;
  const backend = (): ChatModelBackend => (loaded ??= bundle('notebook').chatModelBackendFor(s));
  disposables.push({ dispose: () => loaded?.dispose() });
  const changed = new vscode.EventEmitter<void>();
  disposables.push(
    changed,
    s.connections.onDidChange((service) => {
      if (service === 'llm') changed.fire();
    }),
  );
  const provider: ChatModelProvider = {
    onDidChangeLanguageModelChatInformation: changed.event,
    provideLanguageModelChatInformation: (options, token) => backend().models(options.silent, token),
    async provideLanguageModelChatResponse(model, messages, options, progress, token) {
      const tools: ToolDefinition[] = (options.tools ?? []).map((t) => ({
        name: t.name,
        description: t.description,
        parameters: t.inputSchema as Record<string, unknown> | undefined,
      }));
      const sink = {
        text: (value: string) => progress.report(new vscode.LanguageModelTextPart(value)),
        toolCall: (call: { id: string; name: string; arguments: string }) =>
          progress.report(new vscode.LanguageModelToolCallPart(call.id, call.name, parseArguments(call.arguments))),
      };
      try {
        await backend().answer(model.id, messages.map(toBridgeMessage), tools, sink, token);
      } catch (e) {
        if (token.isCancellationRequested) return;
        // errorText carries the status, the service's own words and the request id; keys never reach it (redacted).
        throw new vscode.LanguageModelError(`${model.name}: ${s.redactor.text(errorText(e))}`);
      }
    },
    provideTokenCount: (_model, text) => Promise.resolve(estimateChatTokens(typeof text === 'string' ? text : toBridgeMessage(text))),
  };
  try {
    disposables.push(lm.registerLanguageModelChatProvider(CHAT_MODEL_VENDOR, provider));
  } catch (e) {
    // A host whose provider API differs from the one this was written for: the tools still work.
    s.log.warn(`Agents: the chat models were not registered with VS Code: ${errorText(e)}`);
    return undefined;
  }
  return provider;
}

function toBridgeMessage(m: RequestMessage): BridgeMessage {
  const role = m.role === vscode.LanguageModelChatMessageRole.Assistant ? 'assistant' : m.role === vscode.LanguageModelChatMessageRole.User ? 'user' : 'system';
  const parts = m.content.flatMap((p): BridgePart[] => {
    if (p instanceof vscode.LanguageModelTextPart) return [{ kind: 'text', value: p.value }];
    if (p instanceof vscode.LanguageModelToolCallPart) return [{ kind: 'toolCall', callId: p.callId, name: p.name, input: p.input }];
    if (p instanceof vscode.LanguageModelToolResultPart) {
      const text = p.content.map((c) => (c instanceof vscode.LanguageModelTextPart ? c.value : '')).join('');
      return [{ kind: 'toolResult', callId: p.callId, text }];
    }
    return [];
  });
  return { role, parts };
}

/** A tool call's arguments as VS Code wants them (an object); text that is not a JSON object is passed under `input`. */
function parseArguments(text: string): object {
  const parsed = parseJson(text || '{}');
  if (!parsed.ok) return { input: text };
  const value = parsed.value;
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : { input: value };
}
