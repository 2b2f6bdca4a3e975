import vscode from 'vscode';
import type { Redactor } from '../../core/redact';
import { RealtimeLogBatcher, type LogStats } from '../../services/realtime/logBatcher';
import { STATUS_BAR_IDS } from '../../features/ids';

const HISTORY_LINES = 50_000;

/**
 * The realtime message log users read: its own output channel (separate from the diagnostics log),
 * fed through the batcher so a flood of messages costs at most ~20 appends a second, and a status
 * bar counter of messages received vs written. Text is redacted per batch, not per line.
 */
export class RealtimeLog implements vscode.Disposable {
  private readonly channel = vscode.window.createOutputChannel('API Workbench: Realtime');
  private readonly status = vscode.window.createStatusBarItem(STATUS_BAR_IDS.realtimeLog, vscode.StatusBarAlignment.Right, 90);
  private readonly batcher: RealtimeLogBatcher;
  /** Lines ever written; the saved history keeps only the last HISTORY_LINES. */
  private linesWritten = 0;
  private lastStatus = '';

  constructor(private readonly redactor: Redactor) {
    this.status.name = 'API Workbench: Realtime Log';
    this.status.command = 'apiWorkbench.realtime.showLog';
    this.batcher = new RealtimeLogBatcher({
      sink: (text) => {
        this.channel.append(this.redactor.text(text));
        for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.linesWritten++;
      },
      historyLines: HISTORY_LINES,
      onStats: (s) => this.showStats(s),
    });
  }

  get stats(): LogStats {
    return this.batcher.stats;
  }

  message(channel: string | undefined, event: string, data: unknown, userId?: string): void {
    this.batcher.message(channel, event, data, userId);
  }

  note(text: string): void {
    this.batcher.note(text);
  }

  show(): void {
    this.batcher.flush();
    this.channel.show(true);
  }

  /** Everything kept for saving, redacted, with a first line saying if older lines were let go. */
  text(): string {
    this.batcher.flush();
    const kept = this.redactor.text(this.batcher.text());
    const dropped = this.linesWritten - HISTORY_LINES;
    return dropped > 0
      ? `(the first ${dropped.toLocaleString('en-US')} lines are not kept; the last ${HISTORY_LINES.toLocaleString('en-US')} follow)\n${kept}`
      : kept;
  }

  private showStats(s: LogStats): void {
    const text = `$(broadcast) ${s.received.toLocaleString('en-US')} / ${s.written.toLocaleString('en-US')}`;
    if (text === this.lastStatus) return;
    this.lastStatus = text;
    this.status.text = text;
    this.status.tooltip = `Realtime log: ${s.received.toLocaleString('en-US')} messages received, ${s.written.toLocaleString('en-US')} written${s.pending ? `, ${s.pending} waiting for the next write` : ''}. Click to show the log.`;
    this.status.show();
  }

  dispose(): void {
    this.batcher.dispose();
    this.status.dispose();
    this.channel.dispose();
  }
}
