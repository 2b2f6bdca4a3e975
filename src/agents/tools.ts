// The tools agents may call, under names that stay the same across versions (users' agent
// configurations name them). Both front ends, the MCP server and the editor's language-model
// tools, list them from here and call them through callTool: one validation, one set of rules,
// one redaction.
import * as z from 'zod/mini';
import { describeIssues, type Schema } from '../core/validate';
import type { AgentContext } from './context';
import { llmChat } from './llmTool';
import { computeRoute, searchPlaces } from './mapsTools';
import { runNotebookTool } from './notebookTool';
import { publish, recentMessages } from './realtimeTools';
import { listResources } from './resourcesTool';
import { failure, finish, type ToolOutput, type ToolResult } from './result';
import { computeRouteInput, listResourcesInput, llmChatInput, publishInput, recentMessagesInput, runNotebookInput, searchPlacesInput } from './schemas';
import { ToolRefusal } from './context';
import { TOOL_NAMES, type ToolName } from './names';

export { TOOL_NAMES, type ToolName } from './names';

/** MCP's tool annotations (hints to the client: what may need the user's confirmation). */
export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  /** Reaches outside this machine (a service the user has an account with). */
  openWorldHint: boolean;
}

export interface AgentTool<I = unknown> {
  name: ToolName;
  description: string;
  input: Schema<I>;
  annotations: ToolAnnotations;
  run(ctx: AgentContext, input: I, signal?: AbortSignal): Promise<ToolOutput>;
}

/** Each tool checked against its own input type, then listed with the others. */
function tool<I>(t: AgentTool<I>): AgentTool {
  return t;
}

const readOnly = (title: string): ToolAnnotations => ({ title, readOnlyHint: true, destructiveHint: false, openWorldHint: true });

export const AGENT_TOOLS: readonly AgentTool[] = [
  tool({
    name: 'list_resources',
    description:
      "Lists what one of the user's API connections offers: the models of a language-model connection, the APIs of a maps connection, or the occupied channels of a realtime connection.",
    input: listResourcesInput,
    annotations: readOnly('List models, maps APIs or channels'),
    run: listResources,
  }),
  tool({
    name: 'llm_chat',
    description:
      "Asks one of the user's language-model connections (OpenAI-compatible: OpenAI, Azure OpenAI, Ollama, the local sandbox) for one answer. Returns the answer text, the token usage and what the call cost. Calls stop once a spending budget is reached.",
    input: llmChatInput,
    annotations: readOnly('Ask a language model'),
    run: llmChat,
  }),
  tool({
    name: 'maps_search_places',
    description:
      "Finds places matching a text query with the user's maps connection (Places Text Search). Returns each place's name, address, latitude/longitude and place id.",
    input: searchPlacesInput,
    annotations: readOnly('Search places'),
    run: searchPlaces,
  }),
  tool({
    name: 'maps_compute_route',
    description:
      "Computes a route between two places with the user's maps connection (Routes API). Returns the distance in meters, the duration in seconds and the encoded polyline.",
    input: computeRouteInput,
    annotations: readOnly('Compute a route'),
    run: computeRoute,
  }),
  tool({
    name: 'realtime_publish',
    description:
      "Publishes an event to a channel of the user's realtime (Pusher-compatible) connection: everyone subscribed to the channel receives it. Returns whether it was delivered, or why not.",
    input: publishInput,
    annotations: { title: 'Publish a realtime event', readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    run: publish,
  }),
  tool({
    name: 'realtime_recent_messages',
    description:
      'Returns the messages seen lately on a realtime channel. The first call starts listening to the channel (nothing is kept before that); later calls return what arrived since, oldest first.',
    input: recentMessagesInput,
    annotations: readOnly('Read recent realtime messages'),
    run: recentMessages,
  }),
  tool({
    name: 'run_notebook',
    description:
      'Runs an API notebook (*.awb.md: requests with ?? checks) and returns each cell\'s result and "N passed, N failed". Cells may only send to their connections\' own hosts and to allowed hosts.',
    input: runNotebookInput,
    annotations: { title: 'Run an API notebook', readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    run: runNotebookTool,
  }),
];

export function agentTool(name: string): AgentTool | undefined {
  return AGENT_TOOLS.find((t) => t.name === name);
}

/** The JSON Schema an agent is shown for a tool's input (generated from the zod schema that validates it). */
export function inputJsonSchema(t: AgentTool): Record<string, unknown> {
  const schema = z.toJSONSchema(t.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

/** Validates `args` against the tool's schema; the problem in words when they do not fit. */
export function parseInput<I>(t: AgentTool<I>, args: unknown): { ok: true; value: I } | { ok: false; problem: string } {
  const r = t.input.safeParse(args ?? {});
  return r.success
    ? { ok: true, value: r.data }
    : { ok: false, problem: `${t.name}: the arguments do not fit its input schema (${describeIssues(r.error.issues)})` };
}

/**
 * Runs a tool as an agent asked for it. Never throws: a refusal, bad arguments or a failed request
 * is a result with isError and a sentence that says what to do. Everything returned is redacted.
 */
export async function callTool(ctx: AgentContext, name: string, args: unknown, signal?: AbortSignal): Promise<ToolResult> {
  const redactor = ctx.clients.redactor;
  const t = agentTool(name);
  if (!t) return failure(new ToolRefusal(`there is no tool "${name}": the tools are ${TOOL_NAMES.join(', ')}`), redactor, ctx.maxResultChars);
  const input = parseInput(t, args);
  if (!input.ok) return failure(new ToolRefusal(input.problem), redactor, ctx.maxResultChars);
  try {
    return finish(await t.run(ctx, input.value, signal), redactor, ctx.maxResultChars);
  } catch (e) {
    return failure(e, redactor, ctx.maxResultChars);
  }
}
