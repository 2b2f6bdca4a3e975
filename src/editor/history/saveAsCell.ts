// The "Save as Notebook Cell" action on a command's result notification: the request the command
// just sent (the newest history entry) becomes a request cell through the history's own command.
import vscode from 'vscode';
import { HISTORY_COMMANDS } from '../../features/ids';
import type { Services } from '../services';

const SAVE_AS_CELL = 'Save as Notebook Cell…';

/**
 * Shows `message` with the action. Call right after the request finished: its entry is the newest
 * one then (recorded before the client's call returns). Not awaited: the command finishes at once.
 */
export function offerSaveAsCell(s: Services, message: string): void {
  const entry = s.history.last();
  if (!entry) return;
  void vscode.window.showInformationMessage(message, SAVE_AS_CELL).then((choice) => {
    if (choice === SAVE_AS_CELL) void vscode.commands.executeCommand(HISTORY_COMMANDS.saveAsCell, { id: entry.id });
  });
}
