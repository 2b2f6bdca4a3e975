/**
 * The shape of a VS Code CancellationToken, declared here so vscode-free code can honour one
 * without importing `vscode`.
 */
export interface CancellationLike {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => unknown): { dispose(): unknown };
}

export type Cancel = AbortSignal | CancellationLike | undefined;

/** Turns an AbortSignal or CancellationToken into one AbortSignal (plus a disposer for the bridge). */
export function toAbortSignal(cancel: Cancel): { signal: AbortSignal | undefined; dispose: () => void } {
  if (!cancel) return { signal: undefined, dispose: () => undefined };
  if (cancel instanceof AbortSignal) return { signal: cancel, dispose: () => undefined };
  const controller = new AbortController();
  if (cancel.isCancellationRequested) {
    controller.abort(new CancelledError());
    return { signal: controller.signal, dispose: () => undefined };
  }
  const sub = cancel.onCancellationRequested(() => controller.abort(new CancelledError()));
  return { signal: controller.signal, dispose: () => sub.dispose() };
}

/** Raised (as an abort reason) when the user cancels. Distinct from a timeout. */
export class CancelledError extends Error {
  constructor() {
    super('Cancelled');
    this.name = 'CancelledError';
  }
}
