// The budget for one run of a notebook by an agent: each language-model request of a cell (its own,
// a judge's, a `similar` check's embeddings) reserves its worst-case cost before it is sent, and
// what the cell's reservations hold is settled when the cell ends, to the cost its answer and its
// checks report. What cannot be known (no usage in the answer, a request stopped mid-answer) is
// counted at the reserved worst case.
import type { PriceTable } from '../features/llm/costLedger';
import { estimateCost } from '../features/llm/costLedger';
import type { CellResult } from '../notebook/api';
import { costOf } from '../services/llm';
import { plannedFromBody, usageFromAnswer } from '../services/llm/bodyCosts';
import type { Reservation, SpendBudget } from './budget';

export class NotebookSpending {
  /** Reservations of the cell running now, in the order its requests were sent. */
  private open: Reservation[] = [];

  constructor(
    private readonly budget: SpendBudget,
    private readonly prices: PriceTable,
  ) {}

  /** NotebookHost.beforeModelRequest: the refusal, or undefined once the request's cost is reserved. */
  beforeModelRequest(body: string | undefined): string | undefined {
    const planned = plannedFromBody(body);
    // A body that names no model (a file upload, a GET) is not a priced model call.
    if (!planned) return undefined;
    const outcome = this.budget.reserve(estimateCost(planned.model, planned.messages, planned.maxTokens, this.prices));
    if (outcome.refusal !== undefined) return outcome.refusal;
    this.open.push(outcome.reservation);
    return undefined;
  }

  /** NotebookHost.onResult: settles what the cell reserved to what it reports it cost. */
  cellEnded(result: CellResult): void {
    const reservations = this.open;
    this.open = [];
    if (reservations.length === 0) return;
    const known: number[] = result.assertions.flatMap((a) => (a.costUsd === undefined ? [] : [a.costUsd]));
    if (result.service === 'llm') {
      const used = usageFromAnswer(result.response?.json);
      const model = used?.model ?? plannedFromBody(result.request?.body)?.model;
      const cost = used && model ? costOf(model, used.usage, this.prices) : undefined;
      if (cost) known.push(cost.totalUsd);
    }
    const refusedByService = result.response !== undefined && result.response.status >= 400;
    if (known.length >= reservations.length || (known.length === 0 && refusedByService && reservations.length === 1)) {
      // Every request's cost is known (or the only one was refused, unbilled): the first carries the total.
      reservations.forEach((r, i) => r.settle(i === 0 ? known.reduce((a, b) => a + b, 0) : 0));
      return;
    }
    // Which request the unknown cost belongs to cannot be told: each counts at its worst case.
    for (const r of reservations) r.settle(undefined);
  }

  /** The run is over: a reservation no cell settled (the run stopped inside a cell) counts at its worst case. */
  runEnded(): void {
    for (const r of this.open) r.settle(undefined);
    this.open = [];
  }
}
