// A paced publisher for benchmarks, run in a process of its own (fork this file with IPC): it has
// the sandbox publish `rate` events a second on one channel through the sandbox's burst endpoint,
// a small burst every TICK_MS, so the process that consumes them does none of the publishing work.
// Protocol: the parent sends one PublishPlan; this process answers with one PublishResult and exits.
import * as z from 'zod/mini';
import { signRestRequest } from '../../src/services/realtime/signing';
import { validate } from '../../src/core/validate';

const TICK_MS = 10;

const planSchema = z.object({
  host: z.string(),
  port: z.number(),
  appId: z.string(),
  key: z.string(),
  secret: z.string(),
  channel: z.string(),
  event: z.string(),
  data: z.record(z.string(), z.unknown()),
  rate: z.number(),
  seconds: z.number(),
  /** Publishing stops here even if the consumer's back-pressure kept the total from going out. */
  maxSeconds: z.number(),
});
export type PublishPlan = z.infer<typeof planSchema>;

export const publishResultSchema = z.object({
  /** Events the sandbox sent to subscribers (its count, not ours). */
  published: z.number(),
  /** From the first request to the last answer. */
  elapsedMs: z.number(),
  requests: z.number(),
  error: z.optional(z.string()),
});
export type PublishResult = z.infer<typeof publishResultSchema>;

async function burst(plan: PublishPlan, count: number): Promise<number> {
  const body = JSON.stringify({ channel: plan.channel, name: plan.event, count, data: plan.data });
  const p = `/apps/${plan.appId}/sandbox/burst`;
  const q = signRestRequest(plan, { method: 'POST', path: p, body, timestamp: Math.floor(Date.now() / 1000) });
  const res = await fetch(`http://${plan.host}:${plan.port}${p}?${new URLSearchParams(q)}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`burst failed: ${res.status} ${text}`);
  const sent = validate(z.object({ sent: z.number() }), JSON.parse(text));
  if (!sent.ok) throw new Error(`burst answered ${text}`);
  return sent.value.sent;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Keeps the total requested on the line rate × elapsed time: each tick asks for what is due, so a
 * slow answer is made up at the next tick rather than lowering the rate.
 */
async function publish(plan: PublishPlan): Promise<PublishResult> {
  const total = Math.round(plan.rate * plan.seconds);
  const start = performance.now();
  let requested = 0;
  let published = 0;
  let requests = 0;
  try {
    while (requested < total) {
      const elapsed = performance.now() - start;
      if (elapsed > plan.maxSeconds * 1000) break;
      const due = Math.min(total, Math.floor((elapsed / 1000) * plan.rate)) - requested;
      if (due <= 0) {
        await sleep(TICK_MS);
        continue;
      }
      requested += due;
      requests++;
      published += await burst(plan, due);
    }
    return { published, elapsedMs: performance.now() - start, requests };
  } catch (e) {
    return { published, elapsedMs: performance.now() - start, requests, error: e instanceof Error ? e.message : String(e) };
  }
}

process.once('message', (m) => {
  const plan = validate(planSchema, m);
  const done = plan.ok ? publish(plan.value) : Promise.resolve<PublishResult>({ published: 0, elapsedMs: 0, requests: 0, error: `bad plan: ${plan.problem}` });
  void done.then((result) => process.send?.(result, undefined, undefined, () => process.exit(0)));
});
