// `--budget-usd`: what LLM calls cost stays within the budget, however many run at once. Each call
// reserves its upper-bound estimate (prompt size and max output tokens at the price table's rates)
// before it is sent, and is refused when the reservation would pass the budget; when it ends the
// reservation is settled to what its usage says it cost. A model without a price is refused: its
// cost is unknown, not zero, until the user gives one.
import { ApiError } from '../core/errors';
import { formatUsd } from '../core/numbers';
import type { CostEstimate } from '../features/llm/costLedger';

/** A call's reserved cost, settled once when the call ends. */
export interface Reservation {
  /**
   * What the call cost: a number (0 when nothing was billed, e.g. refused with an HTTP error), or
   * undefined when it cannot be known (no usage reported, stopped mid-answer): then the whole
   * reservation counts as spent.
   */
  settle(actualUsd: number | undefined): void;
}

export type ReserveOutcome = { reservation: Reservation; refusal?: undefined } | { refusal: string; reservation?: undefined };

export class SpendBudget {
  private spent = 0;
  private reserved = 0;

  constructor(
    readonly limitUsd: number,
    /** How the user raises it, e.g. "restart the server with a larger --budget-usd". */
    private readonly raiseHint: string,
    /** How the user gives a model's price, e.g. "start the server with --price <model>=<input>/<output>". */
    private readonly priceHint = 'give its price (USD per 1M tokens in and out)',
  ) {}

  get spentUsd(): number {
    return this.spent;
  }

  /** What calls still running may cost at most. */
  get reservedUsd(): number {
    return this.reserved;
  }

  /** Reserves the call's upper-bound estimate, or says why it may not be sent. */
  reserve(estimate: CostEstimate): ReserveOutcome {
    const refusal = this.refusal(estimate);
    if (refusal) return { refusal };
    const upTo = estimate.usd ?? 0;
    this.reserved += upTo;
    let open = true;
    return {
      reservation: {
        settle: (actualUsd) => {
          if (!open) return;
          open = false;
          this.reserved = Math.max(0, this.reserved - upTo);
          this.spent += actualUsd !== undefined && Number.isFinite(actualUsd) && actualUsd >= 0 ? actualUsd : upTo;
        },
      },
    };
  }

  /** Why a call estimated at `estimate` may not be sent now, or undefined when it may. */
  refusal(estimate: CostEstimate): string | undefined {
    const state = `LLM calls have cost ${formatUsd(this.spent)} of the ${formatUsd(this.limitUsd)} budget${this.reserved > 0 ? ` (up to ${formatUsd(this.reserved)} more is reserved by calls still running)` : ''}`;
    if (estimate.usd === undefined) {
      return `not sent: no price is known for ${estimate.model}, so what it costs cannot be kept within the budget; ${this.priceHint}, or use a priced model. ${state}.`;
    }
    const upTo = estimate.usd;
    const committed = this.spent + this.reserved;
    if (this.spent < this.limitUsd && committed + upTo <= this.limitUsd) return undefined;
    const what =
      this.spent >= this.limitUsd
        ? 'the budget is used up'
        : `this call may cost up to ${formatUsd(upTo)} (${estimate.model}: ~${estimate.promptTokens} tokens in, up to ${estimate.maxOutputTokens} out)`;
    return `not sent: ${what}; ${state}. Ask for fewer output tokens (maxTokens), use a cheaper model, or ${this.raiseHint}.`;
  }
}

/**
 * True when a call that failed with `error` cannot have been billed: the service answered with an
 * error status, or was never reached. A timeout or a cancellation may have come while it was
 * generating, so its cost stays unknown.
 */
export function nothingBilled(error: unknown): boolean {
  return error instanceof ApiError && (error.kind === 'http' || error.kind === 'network' || error.kind === 'auth' || error.kind === 'rate-limited');
}
