import vscode from 'vscode';
import { errorText, isApiError } from '../core/errors';
import { runInCommand } from '../history/scope';
import type { CommandId } from '../features/commandIds';
import type { DiagnosticsLog } from './log';

// Handlers receive whatever VS Code passes (tree nodes, URIs, or nothing from the palette).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CommandHandler = (...args: any[]) => unknown;
export type CommandTable = Partial<Record<CommandId, CommandHandler>>;

/**
 * Registers a table of commands. Each handler is wrapped so a failure becomes a clear message
 * (status, the service's own text, request id) and a log line — never an unhandled rejection.
 */
export function registerCommands(table: CommandTable, log: DiagnosticsLog): vscode.Disposable[] {
  return Object.entries(table).map(([id, handler]) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        // The scope lets the request history tell a command's requests from a view's background loads.
        return await runInCommand(id, () => handler(...args));
      } catch (e) {
        reportError(e, log, id);
        return undefined;
      }
    }),
  );
}

/**
 * Commands whose code lives in a bundle loaded on first use: each id runs `load().commands[id]`, so
 * the command that loads the bundle still runs (services, the notebook, the history).
 */
export function lazyCommandStubs(ids: readonly CommandId[], load: () => { commands: CommandTable }): CommandTable {
  const stubs: CommandTable = {};
  for (const id of ids) {
    stubs[id] = ((...args: unknown[]) => {
      const handler = load().commands[id];
      if (!handler) throw new Error(`The command ${id} is not available.`);
      return handler(...args);
    }) as CommandHandler;
  }
  return stubs;
}

/** Shows an error to the user the one consistent way: the ApiError's description, or the message. */
export function reportError(e: unknown, log: DiagnosticsLog, context?: string): void {
  if (isApiError(e) && e.kind === 'cancelled') return;
  const text = log.redact(errorText(e));
  log.error(context ? `${context} failed: ${text}` : text);
  void vscode.window.showErrorMessage(text, 'Show Log').then((choice) => {
    if (choice === 'Show Log') log.show();
  });
}
