import vscode from 'vscode';
import type { RequestLogEntry } from '../core/http';
import type { Redactor } from '../core/redact';
import { errorText, requestIdSuffix } from '../core/errors';

/**
 * The extension's own diagnostics (one LogOutputChannel; users pick its level). Everything written
 * passes through the Redactor, so a key cannot reach the log by any path.
 */
export class DiagnosticsLog implements vscode.Disposable {
  private readonly channel: vscode.LogOutputChannel;

  constructor(private readonly redactor: Redactor) {
    this.channel = vscode.window.createOutputChannel('API Workbench', { log: true });
  }

  info(message: string): void {
    this.channel.info(this.redactor.text(message));
  }

  warn(message: string): void {
    this.channel.warn(this.redactor.text(message));
  }

  error(message: string, error?: unknown): void {
    const detail = error === undefined ? '' : ` — ${errorText(error)}`;
    this.channel.error(this.redactor.text(message + detail));
  }

  debug(message: string): void {
    this.channel.debug(this.redactor.text(message));
  }

  /** `POST https://…/v1/chat/completions → 200 in 123 ms (request id req_…)`; the URL is already redacted. */
  request(e: RequestLogEntry): void {
    const outcome = e.status !== undefined ? String(e.status) : (e.error ?? 'failed');
    const retry = e.attempt > 0 ? ` [retry ${e.attempt}]` : '';
    const line = `${e.method} ${e.url} → ${outcome} in ${Math.round(e.durationMs)} ms${requestIdSuffix(e.requestId)}${retry}`;
    if (e.status !== undefined && e.status < 400) this.info(line);
    else this.warn(line);
  }

  /** Masks secrets in text meant for the user (notifications), the same way as log lines. */
  redact(text: string): string {
    return this.redactor.text(text);
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
