// The part of the chat-model provider that talks to the connections, loaded with the notebook bundle
// on first use (as the agent tools are), so activation stays light. Models come from a model catalog
// (GET /models once, reused for ten minutes and forgotten when a connection changes), so VS Code
// asking for the list again does not send a request each time.
import type * as vscode from 'vscode';
import { usesStoredKey, type HttpConnection } from '../../core/connections';
import { asLlmConnection, llmClient } from '../../features/llm/clients';
import {
  describeChatModels,
  findChatModel,
  streamChatAnswer,
  toConversation,
  type AnswerSink,
  type BridgeMessage,
  type ChatModelDescription,
} from '../../features/llm/chatModels';
import type { ToolDefinition } from '../../services/llm';
import { errorText } from '../../core/errors';
import { ModelCatalog } from '../modelCatalog';
import type { Services } from '../services';

export interface ChatModelBackend {
  /** The models of every stored LLM connection; `silent`: only connections that can answer without asking the user anything. */
  models(silent: boolean, token: vscode.CancellationToken): Promise<ChatModelDescription[]>;
  answer(
    modelId: string,
    messages: readonly BridgeMessage[],
    tools: readonly ToolDefinition[],
    sink: AnswerSink,
    token: vscode.CancellationToken,
  ): Promise<void>;
  dispose(): void;
}

export function chatModelBackendFor(s: Services): ChatModelBackend {
  const catalog = new ModelCatalog(s);
  const llmConnections = (): HttpConnection[] => s.connections.list('llm').flatMap((c) => asLlmConnection(c) ?? []);

  /** Listing would not prompt: no stored key is needed, or it is stored and approved for the base URL's origin. */
  const answersSilently = async (conn: HttpConnection): Promise<boolean> => {
    if (!usesStoredKey(conn)) return !conn.credential;
    const stored = await s.secrets.get(conn);
    return stored !== undefined && stored.origins.includes(new URL(conn.baseUrl).origin);
  };

  return {
    async models(silent, token) {
      const lists = await Promise.all(
        llmConnections().map(async (conn) => {
          if (silent && !(await answersSilently(conn))) return [];
          try {
            const models = await catalog.list(conn, { cancel: token });
            // Completion-only, embedding, audio and image models would fail every chat request: not offered.
            return describeChatModels(conn, models);
          } catch (e) {
            // One unreachable connection must not hide the others' models.
            s.log.warn(`Chat models: the models of "${conn.name}" could not be listed: ${errorText(e)}`);
            return [];
          }
        }),
      );
      return lists.flat();
    },
    async answer(modelId, messages, tools, sink, token) {
      const found = findChatModel(llmConnections(), modelId);
      if (!found) throw new Error(`The LLM connection of model "${modelId}" no longer exists. Pick another model.`);
      await streamChatAnswer(llmClient(s, found.conn), found.conn.llmApi, { model: found.model, messages: toConversation(messages), tools }, sink, token);
    },
    dispose: () => catalog.dispose(),
  };
}
