import vscode from 'vscode';
import { STATUS_BAR_IDS } from '../../features/ids';
import type { Services } from '../services';
import { asLlmConnection, requestsLeft } from '../../features/llm/clients';
import type { LlmCosts } from '../llmCosts';
import type { ModelState } from './modelState';
import { statusText, statusTooltip } from '../../features/llm/prompts';
import { Disposable } from '../disposable';

/**
 * The active model and how many requests may still start this minute under the client-side limit.
 * While the window is not full it re-reads every second, so slots coming free show up.
 */
export class LlmStatusBar extends Disposable {
  private readonly item = this.register(vscode.window.createStatusBarItem(STATUS_BAR_IDS.llm, vscode.StatusBarAlignment.Right, 100));
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly s: Services,
    private readonly state: ModelState,
    /** Today's spend goes into the tooltip (and updates as requests finish). */
    private readonly costs?: LlmCosts,
  ) {
    super();
    this.item.name = 'API Workbench: Language Model';
    this.item.command = 'apiWorkbench.llm.ask';
    this.register(s.connections.onDidChange((svc) => svc === 'llm' && this.update()));
    this.register(state.onDidChange(() => this.update()));
    if (costs) this.register(costs.ledger.onDidChange(() => this.update()));
    // Requests sent elsewhere (notebook cells, re-runs) use up the same limit and add to today's cost.
    this.register(s.history.onDidChange(() => this.update()));
    this.update();
  }

  /** The text shown now (tests read it; the item itself is not observable through the API). */
  get text(): string {
    return this.item.text;
  }

  /** The tooltip shown now (tests read it). */
  get tooltip(): string {
    return typeof this.item.tooltip === 'string' ? this.item.tooltip : (this.item.tooltip?.value ?? '');
  }

  update(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const conn = asLlmConnection(this.s.connections.active('llm'));
    if (!conn) {
      this.item.hide();
      return;
    }
    const model = this.state.activeModel(conn);
    const { left, limit, modelLimited } = requestsLeft(this.s, conn, model);
    this.item.text = statusText(model, left, limit);
    this.item.tooltip = statusTooltip(conn.name, model, left, limit, modelLimited, this.costs?.todayLine());
    this.item.show();
    if (left < limit) this.timer = setTimeout(() => this.update(), 1000);
  }

  override dispose(): void {
    clearTimeout(this.timer);
    super.dispose();
  }
}
