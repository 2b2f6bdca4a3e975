import vscode from 'vscode';
import type { Cost } from '../services/llm/pricing';
import type { ChatMessage, TokenUsage } from '../services/llm';
import type { Services } from './services';
import {
  budgetDecision,
  costText,
  CostLedger,
  estimateCost,
  formatUsd,
  parseBudget,
  parsePriceSetting,
  todayText,
  type PriceTable,
} from '../features/llm/costLedger';

/** One request about to be sent, as the budget check sees it. */
export interface PlannedRequest {
  model: string;
  messages: readonly Pick<ChatMessage, 'content'>[];
  maxTokens?: number;
}

/**
 * The cost API every language-model feature uses (Ask, Compare, the playground): the price table
 * from settings, the budget question before a request, the record of what it cost after.
 * Prices and budget are read from the user's settings only, so a workspace cannot lower a price
 * or lift the budget behind the user's back.
 */
export class LlmCosts {
  private readonly reported = new Set<string>();

  constructor(
    private readonly s: Services,
    readonly ledger: CostLedger,
  ) {}

  prices(): PriceTable {
    const { table, problems } = parsePriceSetting(this.s.config.get('llm.prices'));
    for (const p of problems) this.report(p);
    return table;
  }

  budget(): number | undefined {
    const { budget, problem } = parseBudget(this.s.config.get('llm.dailyBudget'));
    if (problem) this.report(problem);
    return budget;
  }

  /**
   * True when the requests may be sent: no budget, within it, or the user said so. Asked with a
   * modal question because the money is real; "Send Anyway" applies to these requests only.
   */
  async confirm(requests: readonly PlannedRequest[]): Promise<boolean> {
    const budget = this.budget();
    if (budget === undefined) return true;
    const prices = this.prices();
    const decision = budgetDecision(
      budget,
      this.ledger.today().usd,
      requests.map((r) => estimateCost(r.model, r.messages, r.maxTokens, prices)),
    );
    if (decision.kind === 'ok') return true;
    const choice = await vscode.window.showWarningMessage(
      'This may pass your daily language-model budget.',
      { modal: true, detail: decision.message },
      'Send Anyway',
    );
    if (choice !== 'Send Anyway')
      this.s.log.info(`LLM: not sent (daily budget ${formatUsd(budget)}, spent ${formatUsd(decision.spent)}, estimate up to ${formatUsd(decision.estimate)}).`);
    return choice === 'Send Anyway';
  }

  /** Adds a finished request to today's total; returns its cost (undefined: unpriced or no usage). */
  record(model: string, usage: TokenUsage | undefined): Promise<Cost | undefined> {
    return this.ledger.record(model, usage, this.prices());
  }

  /** "$0.0012", or why it is unknown: shown wherever the request's tokens are shown. */
  text(model: string, usage: TokenUsage | undefined): string {
    return costText(model, usage, this.prices());
  }

  /** Today's line for the status bar tooltip. */
  todayLine(): string {
    return todayText(this.ledger.today(), this.budget());
  }

  private report(problem: string): void {
    if (this.reported.has(problem)) return;
    this.reported.add(problem);
    this.s.log.warn(problem);
    void vscode.window.showWarningMessage(problem, 'Open Settings').then((c) => {
      if (c)
        void vscode.commands.executeCommand(
          'workbench.action.openSettings',
          problem.includes('dailyBudget') ? 'apiWorkbench.llm.dailyBudget' : 'apiWorkbench.llm.prices',
        );
    });
  }
}
