// The one permission for what an agent does that others see or that changes data, whichever way it
// asks: realtime_publish, and a notebook it runs (PUBLISH, BATCH, SEND_TO_USER, TERMINATE, and any
// request with a method other than GET, HEAD or OPTIONS: an http cell's POST to an allowed host may
// place an order or post to a chat webhook just as a publish reaches subscribers). Model calls and
// maps queries are POSTs that only read; what they cost is the budget's concern, not this one's.
import { operationsOf } from '../catalogue';
import type { SideEffect } from '../notebook/api';
import type { AgentContext } from './context';

/** Why the agent may not cause `effect`, or undefined when it may. */
export function sideEffectRefusal(ctx: AgentContext, effect: SideEffect): string | undefined {
  if (!ctx.publishRefusal) return undefined;
  if (effect.kind === 'realtime') {
    return effect.op === 'publish' || effect.op === 'batch'
      ? `not published: ${ctx.publishRefusal}`
      : `not done (${effect.what} on "${effect.connection}"): ${ctx.publishRefusal}`;
  }
  if (onlyReads(effect)) return undefined;
  return `not sent: ${effect.method} ${effect.url} may change data on the server; ${ctx.publishRefusal}`;
}

/** Model calls the catalogue does not list that answer without changing anything kept (they cost: the budget's concern). */
const MODEL_CALL_PATHS = ['/completions', '/moderations', '/images/generations', '/audio/speech', '/audio/transcriptions', '/audio/translations'];

/** A request that only reads: a read method, or a POST that is a known model call or maps query. */
function onlyReads(effect: Extract<SideEffect, { kind: 'request' }>): boolean {
  if (['GET', 'HEAD', 'OPTIONS'].includes(effect.method)) return true;
  if (effect.service === 'http') return false;
  const pathname = new URL(effect.url).pathname;
  // The catalogue's paths are relative to the connection's base URL (an llm one ends in /v1; Azure's
  // has deployments before): a known operation is one the request's path ends with.
  if (effect.service === 'llm' && MODEL_CALL_PATHS.some((p) => effect.method === 'POST' && pathname.endsWith(p))) return true;
  return operationsOf(effect.service).some((op) => op.method === effect.method && !op.path.includes('{') && pathname.endsWith(op.path));
}
