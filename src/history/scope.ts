// Which command a piece of async work belongs to. The History records the requests the user asked
// for (a command, a notebook cell), not a view's background loads (model lists, channel listings
// each time a tree renders): registerCommands runs every handler inside runInCommand, and the
// recorder asks currentCommand() when a request starts.
import { AsyncLocalStorage } from 'node:async_hooks';

interface CommandScope {
  command: string;
}

// One store per process, not per bundle: extension.js and the lazily loaded bundles each carry a
// copy of this module, and a command registered by one runs code of another.
const KEY = Symbol.for('apiWorkbench.commandScope');

function storage(): AsyncLocalStorage<CommandScope> {
  const g = globalThis as { [KEY]?: AsyncLocalStorage<CommandScope> };
  return (g[KEY] ??= new AsyncLocalStorage<CommandScope>());
}

export function runInCommand<T>(command: string, fn: () => T): T {
  return storage().run({ command }, fn);
}

/**
 * Runs `fn` outside any command: a listing made to offer choices (the channels a picker suggests)
 * is not a request the user asked for, even when a command's picker asks for it.
 */
export function runInBackground<T>(fn: () => T): T {
  return storage().exit(fn);
}

/** The id of the command whose work is running, if any. */
export function currentCommand(): string | undefined {
  return storage().getStore()?.command;
}
