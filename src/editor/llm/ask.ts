import vscode from 'vscode';
import { CancelledError } from '../../core/cancellation';
import type { HttpConnection } from '../../core/connections';
import { errorText, isApiError, requestIdSuffix } from '../../core/errors';
import type { RetryNotice } from '../../core/http';
import type { ChatMessage, TokenUsage } from '../../services/llm';
import { reportError } from '../commands';
import type { RecordedRequest, RequestHistory } from '../curl';
import type { Services } from '../services';
import type { AnswerDocuments } from './answerDocuments';
import { llmClient } from '../../features/llm/clients';
import { estimateStoppedUsage } from '../../features/llm/costLedger';
import type { LlmCosts } from '../llmCosts';
import { answerStream } from '../../features/llm/llmStream';
import { answerHeader, cancelledNote, doneNote, errorNote, failureText, statsLine } from '../../features/llm/prompts';

export interface AskRequest {
  conn: HttpConnection;
  model: string;
  messages: ChatMessage[];
  /** What the user asked, as shown at the top of the answer. */
  prompt: string;
  /** What the prompt refers to, e.g. "12 lines of src/app.ts". */
  about?: string;
  /** Another way to cancel, besides the notification's Cancel button (callers, tests). */
  cancel?: vscode.CancellationToken;
  /** Prices the answer (shown beside its tokens) and adds it to today's total. */
  costs?: LlmCosts;
}

/** What an Ask command returns (to tests and other callers; the palette ignores it). */
export interface AskResult {
  /** The Answers document, shared by every answer in this window. */
  document: vscode.TextDocument;
  /** This answer's part of it as it ended: header, answer, closing note. */
  text: string;
  /** The answer text exactly as it arrived (no header or note). */
  answer: string;
  outcome: 'done' | 'cancelled' | 'failed';
  model: string;
  requestId?: string;
  usage?: TokenUsage;
  /** The cost as shown in the answer ("$0.0012", or why it is unknown); absent without a price table. */
  cost?: string;
  finishReason?: string;
  /** ApiError.describe() (or the message) when the outcome is "failed". */
  error?: string;
  errorKind?: string;
  /** Server-requested waits (ms) that were counted down before the request went through. */
  retryWaits: number[];
}

const PROGRESS_EVERY_MS = 250;

/** Shows "… retrying in N s" in the progress notification, updated every second. */
class Countdown {
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly progress: vscode.Progress<{ message?: string }>,
    private readonly text: (seconds: number) => string,
    waitMs: number,
  ) {
    const until = Date.now() + waitMs;
    const tick = () => {
      const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
      this.progress.report({ message: this.text(left) });
      if (left === 0) this.stop();
    };
    tick();
    this.timer = setInterval(tick, 1000);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/**
 * Runs one chat request into a new answer at the end of the Answers document, under a cancellable progress
 * notification. The prompt is written first, so it survives any failure; the answer streams in as
 * it arrives; cancelling stops the request at once and keeps what arrived; a 429 is counted down
 * from Retry-After and then goes through; a failure mid-stream keeps the partial text and says why.
 */
export async function runAsk(s: Services, docs: AnswerDocuments, req: AskRequest, onSettled: () => void, history?: RequestHistory): Promise<AskResult> {
  const writer = await docs.open(answerHeader(req.model, req.conn.name, req.prompt, req.about));
  // The chat request as sent, for Copy as cURL (from the answer's title bar or the error message).
  let sent: RecordedRequest | undefined;
  const client = llmClient(
    s,
    req.conn,
    history &&
      ((r) => {
        sent = history.record(req.conn, r);
        writer.linkRequest(sent);
      }),
  );
  const retryWaits: number[] = [];
  let answer = '';
  const ended = (outcome: AskResult['outcome']) => ({ document: writer.document, text: writer.content, answer, outcome, model: req.model, retryWaits });

  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `${req.model} (${req.conn.name})`, cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      const cancel = () => abort.abort(new CancelledError());
      const subs = [token.onCancellationRequested(cancel), ...(req.cancel ? [req.cancel.onCancellationRequested(cancel)] : [])];
      if (req.cancel?.isCancellationRequested) cancel();
      let countdown: Countdown | undefined;
      const started = Date.now();
      let requestId: string | undefined;
      progress.report({ message: 'Sending…' });

      const onRetry = (n: RetryNotice) => {
        countdown?.stop();
        retryWaits.push(n.delayMs);
        const why =
          n.error.status === 429
            ? `Rate limited (HTTP 429) by ${req.conn.name}`
            : `${req.conn.name}: ${n.error.status ? `HTTP ${n.error.status}` : n.error.kind}`;
        s.log.warn(`LLM ${req.model}: ${why}, retrying in ${(n.delayMs / 1000).toFixed(1)} s (attempt ${n.attempt + 1})${requestIdSuffix(n.error.requestId)}`);
        countdown = new Countdown(progress, (sec) => `${why}: retrying in ${sec} s… Your prompt is kept.`, n.delayMs);
      };
      const onQueued = (waitMs: number) => {
        countdown?.stop();
        countdown = new Countdown(progress, (sec) => `Waiting for a free request slot (client-side limit): ${sec} s…`, waitMs);
      };

      try {
        let lastReport = 0;
        let tokens = 0;
        for await (const e of answerStream(
          client,
          req.conn.llmApi,
          { model: req.model, messages: req.messages },
          { cancel: abort.signal, onRetry, onQueued },
        )) {
          if (e.type === 'start') {
            countdown?.stop();
            requestId = e.requestId;
            progress.report({ message: 'Receiving…' });
          } else if (e.type === 'delta' && e.index === 0) {
            answer += e.text;
            writer.append(e.text);
            tokens++;
            if (Date.now() - lastReport > PROGRESS_EVERY_MS) {
              lastReport = Date.now();
              progress.report({ message: `Receiving… ${tokens} chunk${tokens === 1 ? '' : 's'}` });
            }
          } else if (e.type === 'done') {
            const cost = req.costs?.text(req.model, e.usage);
            if (req.costs)
              void req.costs.record(req.model, e.usage).catch((err: unknown) => s.log.warn(`LLM: today's cost total was not updated: ${errorText(err)}`));
            const stats = {
              model: e.model ?? req.model,
              usage: e.usage,
              latencyMs: e.timings.totalMs,
              firstTokenMs: e.timings.firstTokenMs,
              requestId: e.requestId,
              cost,
            };
            writer.append(doneNote(stats));
            s.log.info(`LLM answer: ${statsLine(stats)}${e.finishReason && e.finishReason !== 'stop' ? ` · finish reason ${e.finishReason}` : ''}`);
            return { ...ended('done'), requestId, usage: e.usage, cost, finishReason: e.finishReason };
          }
        }
        throw new Error('the stream ended without a result');
      } catch (e) {
        const elapsed = Date.now() - started;
        requestId ??= isApiError(e) ? e.requestId : undefined;
        if ((isApiError(e) && e.kind === 'cancelled') || abort.signal.aborted) {
          const usage = estimateStoppedUsage(req.messages, answer, requestId !== undefined);
          if (usage && req.costs)
            void req.costs.record(req.model, usage).catch((err: unknown) => s.log.warn(`LLM: today's cost total was not updated: ${errorText(err)}`));
          writer.append(cancelledNote(elapsed, requestId, usage && { usage, cost: req.costs?.text(req.model, usage) }));
          s.log.info(`LLM ${req.model}: cancelled after ${elapsed} ms with ${answer.length} characters received${requestIdSuffix(requestId)}`);
          return { ...ended('cancelled'), requestId };
        }
        const text = failureText(e, answer.length);
        writer.append(errorNote(text, answer.length > 0));
        s.log.error(`LLM ${req.model} failed after ${elapsed} ms${answer ? ` (${answer.length} characters kept)` : ''}: ${text}`);
        // Copied by id: the error may be answered after later requests were made.
        const failed = sent;
        const copy = failed ? 'Copy as cURL' : undefined;
        void vscode.window.showErrorMessage(text, 'Retry', ...(copy ? [copy] : []), 'Show Log').then((choice) => {
          if (choice === 'Retry') runAsk(s, docs, { ...req, cancel: undefined }, onSettled, history).catch((err: unknown) => reportError(err, s.log, 'Retry'));
          if (choice === copy && failed) void vscode.commands.executeCommand('apiWorkbench.llm.copyAsCurl', { id: failed.id });
          if (choice === 'Show Log') s.log.show();
        });
        return { ...ended('failed'), requestId, error: text, errorKind: isApiError(e) ? e.kind : undefined };
      } finally {
        countdown?.stop();
        for (const sub of subs) sub.dispose();
        await writer.finish();
        onSettled();
      }
    },
  );
}
