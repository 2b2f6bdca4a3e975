// The ids of the foundation's commands (src/editor/connectionCommands.ts), known without loading
// them: activation registers each with a stub that loads dist/foundation.js when it first runs.
import { SERVICE_IDS } from '../core/connections';
import type { CommandId } from './commandIds';
import { CONNECTION_COMMANDS } from './ids';

export const FOUNDATION_COMMAND_IDS: readonly CommandId[] = [
  ...SERVICE_IDS.flatMap((service) => Object.values(CONNECTION_COMMANDS[service])),
  'apiWorkbench.sandbox.start',
  'apiWorkbench.sandbox.stop',
  'apiWorkbench.showLog',
  'apiWorkbench.exportConnections',
  'apiWorkbench.diagnoseConnection',
];

/**
 * Where the list above and the table the bundle returns differ, a sentence naming the ids: an id
 * missing here would never be registered, one missing there would fail when run.
 */
export function foundationIdsMismatch(table: object): string | undefined {
  const listed = new Set<string>(FOUNDATION_COMMAND_IDS);
  const given = Object.keys(table);
  const unlisted = given.filter((id) => !listed.has(id));
  const missing = FOUNDATION_COMMAND_IDS.filter((id) => !given.includes(id));
  if (unlisted.length === 0 && missing.length === 0) return undefined;
  return `The foundation's commands and FOUNDATION_COMMAND_IDS (src/features/foundationCommandIds.ts) differ: not listed ${unlisted.join(', ') || 'none'}; listed but missing ${missing.join(', ') || 'none'}.`;
}
