// Collects unhandled promise rejections and uncaught exceptions in the extension host while the
// in-editor suite runs. A test can pass while a command it started rejects in the background (the
// editor only logs it); the suite fails on them instead, in one named failure listing each, with
// the secrets the suite declared masked (the message goes to the driver's console and results file).
import { Redactor } from '../../../src/core/redact';
import { readSecretsFile } from './secretScan';
import { ENV } from './protocol';

export const HOST_ERRORS_TITLE = 'extension host: no unhandled rejection or uncaught exception during the suite';

/** At most this many are listed; the count says how many there were. */
const MAX_LISTED = 10;

export interface HostErrorCollector {
  /** Stops collecting; returns one line per error, secrets masked (empty when there were none). */
  stop(): string[];
}

function describe(kind: string, reason: unknown): string {
  const text = reason instanceof Error ? (reason.stack ?? `${reason.name}: ${reason.message}`) : String(reason);
  return `${kind}: ${text.split('\n').slice(0, 6).join('\n')}`;
}

export function collectHostErrors(): HostErrorCollector {
  const seen: string[] = [];
  // Mocha re-emits a rejection that is not its own on process, so the same reason can arrive twice.
  const reasons = new Set<unknown>();
  const note = (kind: string, reason: unknown) => {
    if (reasons.has(reason)) return;
    reasons.add(reason);
    seen.push(describe(kind, reason));
  };
  const onRejection = (reason: unknown) => note('unhandled rejection', reason);
  const onException = (error: unknown) => note('uncaught exception', error);
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return {
    stop() {
      process.off('unhandledRejection', onRejection);
      process.off('uncaughtException', onException);
      const redactor = new Redactor();
      const secretsFile = process.env[ENV.secrets];
      if (secretsFile) for (const s of readSecretsFile(secretsFile)) redactor.addSecret(s);
      return seen.map((e) => redactor.text(e));
    },
  };
}

/** The failure message for the results file: the count and the first few, each on its own lines. */
export function hostErrorsMessage(errors: readonly string[]): string {
  const listed = errors.slice(0, MAX_LISTED).map((e, i) => `${i + 1}. ${e}`);
  const more = errors.length > MAX_LISTED ? [`… and ${errors.length - MAX_LISTED} more`] : [];
  return [`${errors.length} unhandled rejection(s) / uncaught exception(s) in the extension host:`, ...listed, ...more].join('\n');
}
