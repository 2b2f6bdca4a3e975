// What language-model requests cost: the user's price table (defaults plus the
// `apiWorkbench.llm.prices` setting), the estimate of a request before it is sent, the daily
// budget decision, and the per-day ledger of what was spent. No `vscode` import: the unit suite
// tests exactly this code, and the playground, Ask and Compare all go through it (see costs.ts).
import * as z from 'zod/mini';
import { costOf, PRICES, type Cost, type ModelPrice } from '../../services/llm/pricing';
import type { ChatMessage, ConversationMessage, TokenUsage } from '../../services/llm';
import { formatUsd } from '../../core/numbers';
import { once } from '../../core/once';
import { validate } from '../../core/validate';

export const PRICES_SETTING = 'apiWorkbench.llm.prices';
export const BUDGET_SETTING = 'apiWorkbench.llm.dailyBudget';
/** When a request sets no max tokens, its answer is assumed to be at most this long for the estimate. */
export const ASSUMED_MAX_OUTPUT_TOKENS = 1024;
/** Days of totals kept in globalState: enough for "this month", small enough to never matter. */
const KEEP_DAYS = 62;

export type PriceTable = Readonly<Record<string, ModelPrice>>;

export interface ParsedPrices {
  /** The defaults with the valid entries of the setting on top. */
  table: PriceTable;
  /** One sentence per malformed entry, naming the setting and the entry. */
  problems: string[];
}

const entrySchema = once(() => {
  const price = z.number().check(z.gte(0), z.lte(100_000));
  return z.object({ input: price, output: price });
});

/**
 * The setting is `{ "<model>": { "input": <USD per 1M>, "output": <USD per 1M> } }`. A malformed
 * entry is reported and skipped, so a typo in one entry never loses the others or the defaults.
 */
export function parsePriceSetting(raw: unknown, defaults: PriceTable = PRICES): ParsedPrices {
  const table: Record<string, ModelPrice> = { ...defaults };
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { table, problems };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push(
      `Setting ${PRICES_SETTING} must be an object like { "gpt-4o": { "input": 2.5, "output": 10 } } (USD per 1M tokens); using the default prices.`,
    );
    return { table, problems };
  }
  for (const [model, value] of Object.entries(raw as Record<string, unknown>)) {
    const id = model.trim().toLowerCase();
    const v = validate(entrySchema(), value);
    if (!id) problems.push(`Setting ${PRICES_SETTING} has an entry with an empty model name; it is ignored.`);
    else if (!v.ok)
      problems.push(
        `Setting ${PRICES_SETTING}, entry "${model}": ${v.problem} (expected { "input": USD per 1M tokens, "output": USD per 1M tokens }, numbers ≥ 0); ${Object.hasOwn(defaults, id) ? 'the default price is kept' : 'the entry is ignored'}.`,
      );
    else table[id] = { input: v.value.input, output: v.value.output };
  }
  return { table, problems };
}

/** The budget setting: a positive number of USD per day, or none (0, unset or invalid). */
export function parseBudget(raw: unknown): { budget?: number; problem?: string } {
  if (raw === undefined || raw === null || raw === 0) return {};
  if (typeof raw === 'number' && Number.isFinite(raw) && raw > 0) return { budget: raw };
  return { problem: `Setting ${BUDGET_SETTING} must be a positive number of US dollars per day (or 0 for no budget); no budget is applied.` };
}

/** A conversation as text the estimates can count: tool calls count by their name and arguments. */
export function countableMessages(messages: readonly ConversationMessage[]): Array<Pick<ChatMessage, 'content'>> {
  return messages.map((m) => ({ content: 'toolCalls' in m ? `${m.content ?? ''}${m.toolCalls.map((c) => `${c.name}(${c.arguments})`).join('')}` : m.content }));
}

/**
 * The usage of a stream stopped before the server reported it: the prompt estimated as before
 * sending, the output from the text that arrived. Once the server has answered (`answered`: its
 * request id came, or text did) it was generating and billing, so a stopped answer is priced as an
 * estimate rather than shown as free or unknown; before that, undefined (nothing to count).
 */
export function estimateStoppedUsage(messages: readonly ConversationMessage[], arrived: string, answered: boolean): TokenUsage | undefined {
  if (!answered && !arrived) return undefined;
  const prompt = estimatePromptTokens(countableMessages(messages));
  const completion = Math.ceil(arrived.length / 4);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** A rough token count of the prompt (about 4 characters a token, plus each message's framing). */
export function estimatePromptTokens(messages: readonly Pick<ChatMessage, 'content'>[]): number {
  return messages.reduce((n, m) => n + Math.ceil(m.content.length / 4) + 4, 0);
}

export interface CostEstimate {
  model: string;
  promptTokens: number;
  maxOutputTokens: number;
  /** Upper bound in USD; undefined when the model has no price. */
  usd?: number;
}

/** Before sending: prompt size × input price + max tokens × output price (an upper bound). */
export function estimateCost(model: string, messages: readonly Pick<ChatMessage, 'content'>[], maxTokens: number | undefined, table: PriceTable): CostEstimate {
  const promptTokens = estimatePromptTokens(messages);
  const maxOutputTokens = maxTokens ?? ASSUMED_MAX_OUTPUT_TOKENS;
  const cost = costOf(model, { prompt_tokens: promptTokens, completion_tokens: maxOutputTokens, total_tokens: promptTokens + maxOutputTokens }, table);
  return { model, promptTokens, maxOutputTokens, usd: cost?.totalUsd };
}

export type BudgetDecision =
  | { kind: 'ok' }
  /** The request(s) might take today's spend past the budget: ask the user first. */
  | { kind: 'ask'; budget: number; spent: number; estimate: number; unpriced: string[]; message: string };

/**
 * Whether requests estimated at `estimates` may go ahead without asking. Unpriced models count as
 * free (their cost is unknown, not zero: the question says so when it is asked for another reason).
 */
export function budgetDecision(budget: number | undefined, spentToday: number, estimates: readonly CostEstimate[]): BudgetDecision {
  if (budget === undefined) return { kind: 'ok' };
  const estimate = estimates.reduce((sum, e) => sum + (e.usd ?? 0), 0);
  if (spentToday + estimate <= budget) return { kind: 'ok' };
  const unpriced = estimates.filter((e) => e.usd === undefined).map((e) => e.model);
  const what = estimates.length === 1 ? 'This request' : `These ${estimates.length} requests`;
  const message =
    `${what} may cost up to ${formatUsd(estimate)} (${estimates.map((e) => `${e.model}: ~${e.promptTokens} tokens in, up to ${e.maxOutputTokens} out`).join('; ')}). ` +
    `Today's language-model spend is ${formatUsd(spentToday)} of your daily budget of ${formatUsd(budget)} (${BUDGET_SETTING}).` +
    (unpriced.length ? ` No price is known for ${unpriced.join(', ')}.` : '');
  return { kind: 'ask', budget, spent: spentToday, estimate, unpriced, message };
}

/** Re-exported: the LLM's texts and their callers format dollars as everything else does. */
export { formatUsd };

/** The cost as shown beside tokens: "$0.0012", or why it is unknown. */
export function costText(model: string, usage: TokenUsage | undefined, table: PriceTable): string {
  if (!usage) return 'cost unknown (no token usage reported)';
  const cost = costOf(model, usage, table);
  return cost ? formatUsd(cost.totalUsd) : `cost unknown (no price for ${model} in ${PRICES_SETTING})`;
}

/** The part of a Memento the ledger needs (vscode's globalState, or a Map in tests). */
export interface LedgerStore {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

export const LEDGER_KEY = 'apiWorkbench.llm.spendPerDay';
const daysSchema = once(() => z.record(z.string(), z.object({ usd: z.number(), requests: z.number(), unpriced: z.optional(z.number()) })));
export type DayTotal = z.infer<ReturnType<typeof daysSchema>>[string];

/** Today's spend as the status bar tooltip says it. */
export function todayText(t: DayTotal, budget: number | undefined): string {
  const unpriced = t.unpriced ? ` (${t.unpriced} without a known price)` : '';
  return `Today: ${formatUsd(t.usd)} over ${t.requests} request${t.requests === 1 ? '' : 's'}${unpriced}${budget !== undefined ? ` of a ${formatUsd(budget)} daily budget` : ''}.`;
}

/** The local calendar day, YYYY-MM-DD: "today" is the user's day, not UTC's. */
export function dayOf(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}`;
}

/** What was spent per day, persisted; every priced request is recorded once. */
export class CostLedger {
  private readonly listeners = new Set<() => void>();
  /** Writes are chained so concurrent requests (Compare's columns) never lose each other's totals. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: LedgerStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private days(): Record<string, DayTotal> {
    const v = validate(daysSchema(), this.store.get(LEDGER_KEY) ?? {});
    return v.ok ? v.value : {};
  }

  today(): DayTotal {
    return this.days()[dayOf(this.now())] ?? { usd: 0, requests: 0 };
  }

  /** Records one finished (or partly finished) request; returns its cost, undefined when unpriced. */
  async record(model: string, usage: TokenUsage | undefined, table: PriceTable): Promise<Cost | undefined> {
    const cost = usage ? costOf(model, usage, table) : undefined;
    const day = dayOf(this.now());
    const write = this.writing.then(async () => {
      const days = this.days();
      const t = days[day] ?? { usd: 0, requests: 0 };
      days[day] = { usd: t.usd + (cost?.totalUsd ?? 0), requests: t.requests + 1, unpriced: (t.unpriced ?? 0) + (cost ? 0 : 1) };
      const kept = Object.keys(days).sort().slice(-KEEP_DAYS);
      await this.store.update(LEDGER_KEY, Object.fromEntries(kept.map((k) => [k, days[k]])));
    });
    this.writing = write.catch(() => undefined);
    await write;
    for (const l of this.listeners) l();
    return cost;
  }
}
