// `--budget-usd`: LLM calls stop once what they cost reaches the budget. Each call is checked
// before it is sent with its upper-bound estimate (prompt size and max output tokens at the price
// table's rates), and counted after with what its usage says it cost.
import { formatUsd } from '../core/numbers';
import type { CostEstimate } from '../features/llm/costLedger';

export class SpendBudget {
  private spent = 0;

  constructor(
    readonly limitUsd: number,
    /** How the user raises it, e.g. "restart the server with a larger --budget-usd". */
    private readonly raiseHint: string,
  ) {}

  get spentUsd(): number {
    return this.spent;
  }

  /** Why a call estimated at `estimate` may not be sent, or undefined when it may. */
  refusal(estimate: CostEstimate): string | undefined {
    const upTo = estimate.usd ?? 0;
    if (this.spent < this.limitUsd && this.spent + upTo <= this.limitUsd) return undefined;
    const state = `LLM calls have cost ${formatUsd(this.spent)} of the ${formatUsd(this.limitUsd)} budget`;
    const what =
      this.spent >= this.limitUsd
        ? 'the budget is used up'
        : `this call may cost up to ${formatUsd(upTo)} (${estimate.model}: ~${estimate.promptTokens} tokens in, up to ${estimate.maxOutputTokens} out)`;
    return `not sent: ${what}; ${state}. Ask for fewer output tokens (maxTokens), use a cheaper model, or ${this.raiseHint}.`;
  }

  record(usd: number | undefined): void {
    if (usd !== undefined && Number.isFinite(usd) && usd > 0) this.spent += usd;
  }
}
