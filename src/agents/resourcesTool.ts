// list_resources: what a connection offers. Language models list their models, realtime its
// occupied channels, maps the APIs the connection speaks; a connection set to the uniform listing
// (`listing: "resources"`, GET /v1/resources) lists through that instead, as the editor's views do.
import { CAPABILITIES } from '../features/maps/results';
import { llmClient } from '../features/llm/clients';
import { realtimeRestFor } from '../features/realtime/restClient';
import { pickConnection, type AgentContext } from './context';
import type { ToolOutput } from './result';
import type { ListResourcesInput } from './schemas';

/** Entries listed at most; more are counted, not shown. */
export const MAX_LISTED = 200;

interface Listed {
  id: string;
  detail?: string;
}

export async function listResources(ctx: AgentContext, input: ListResourcesInput, signal?: AbortSignal): Promise<ToolOutput> {
  const conn = pickConnection(ctx, input.service, input.connection);
  let all: Listed[];
  if (conn.listing === 'resources') {
    all = (await ctx.clients.http.resources(conn).list(signal)).map((r) => ({ id: r.id, detail: [r.kind, r.name, r.detail].filter(Boolean).join(': ') }));
  } else if (conn.service === 'llm') {
    all = (await llmClient(ctx.clients, conn).listModels(signal)).map((m) => ({ id: m.id, ...(m.owned_by ? { detail: `owned by ${m.owned_by}` } : {}) }));
  } else if (conn.service === 'realtime') {
    const channels = await realtimeRestFor(ctx.clients, conn).channels({ info: ['subscription_count'] }, signal);
    all = Object.entries(channels).map(([id, a]) => ({
      id,
      ...(a.subscription_count !== undefined ? { detail: `${a.subscription_count} subscription(s)` } : {}),
    }));
  } else {
    all = CAPABILITIES.map((c) => ({ id: c.id, detail: c.label }));
  }
  const shown = all.slice(0, MAX_LISTED);
  const what = { llm: 'model', maps: 'maps API', realtime: 'occupied channel' }[input.service];
  const more = all.length > shown.length ? `\n… and ${all.length - shown.length} more (only the first ${MAX_LISTED} are listed)` : '';
  const text = all.length
    ? `${all.length} ${what}(s) on "${conn.name}":\n${shown.map((r) => `- ${r.id}${r.detail ? ` (${r.detail})` : ''}`).join('\n')}${more}`
    : `No ${what}s on "${conn.name}".`;
  return { text, structured: { service: input.service, connection: conn.name, total: all.length, resources: shown } };
}
