// The check after adding a connection: its listing (models, resources, channels) is asked for
// now, and what came back is shown. "works" is said only after a request succeeded. The new
// connection becomes the active one only when the user says so: a notebook that ran against the
// sandbox a minute ago keeps running against it.
import vscode from 'vscode';
import { sentences } from '../core/sentences';
import { SERVICE_LABELS, usesStoredKey, type Connection } from '../core/connections';
import { errorText } from '../core/errors';
import { listingMakesRequest, type TreeNode } from './tree';
import type { Services } from './services';
import type { ServiceViews } from './serviceModule';
import { DIAGNOSE_COMMAND } from './diagnose';

export const MAKE_ACTIVE = 'Make Active';
export const DIAGNOSE = 'Diagnose Connection…';
const SHOWN_ITEMS = 4;

export type CheckOutcome = 'connected' | 'failed' | 'listed' | 'no key';

async function labelOf(node: TreeNode): Promise<string> {
  const label = (await node.toTreeItem()).label;
  return typeof label === 'string' ? label : (label?.label ?? '');
}

/** What a listing showed, in a few words: "3 models: a, b, c". */
async function summary(conn: Connection, nodes: readonly TreeNode[]): Promise<string> {
  const what = conn.service === 'llm' ? 'models' : conn.service === 'maps' ? 'capabilities' : 'channels';
  if (nodes.length === 0) return `no ${what} listed`;
  const labels = (await Promise.all(nodes.slice(0, SHOWN_ITEMS).map(labelOf))).filter(Boolean);
  const more = nodes.length - labels.length;
  return `${nodes.length} listed: ${labels.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/**
 * Checks `conn`, tells the user what came back, and offers to make it the active connection.
 * Returns what the check found (tests and callers read it).
 */
export async function checkNewConnection(services: Services, views: ServiceViews, conn: Connection, note = ''): Promise<CheckOutcome> {
  const active = services.connections.active(conn.service);
  const staying = active && active.name !== conn.name ? `"${active.name}" stays the active ${SERVICE_LABELS[conn.service]} connection until you choose` : '';
  const offer = async (shown: Thenable<string | undefined>) => {
    const choice = await shown;
    if (choice === MAKE_ACTIVE) await services.connections.setActive(conn.service, conn.name);
    if (choice === DIAGNOSE) await vscode.commands.executeCommand(DIAGNOSE_COMMAND, conn);
  };
  if (usesStoredKey(conn) && !(await services.secrets.has(conn))) {
    await offer(vscode.window.showInformationMessage(sentences(`Added "${conn.name}"`, 'Set its key to check it and use it', staying), MAKE_ACTIVE));
    return 'no key';
  }
  const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Checking "${conn.name}"…` }, () =>
    views[conn.service].provider.check(conn),
  );
  if (result.state === 'error') {
    await offer(
      vscode.window.showWarningMessage(
        sentences(`Added "${conn.name}", but checking it failed: ${services.redactor.text(errorText(result.error))}`, staying),
        DIAGNOSE,
        MAKE_ACTIVE,
      ),
    );
    return 'failed';
  }
  const nodes = result.state === 'done' ? result.nodes : [];
  const listed = await summary(conn, nodes);
  if (!listingMakesRequest(conn)) {
    await offer(
      vscode.window.showInformationMessage(
        sentences(`Added "${conn.name}" (${listed}; nothing is asked of the server until you send a request)`, note, staying),
        MAKE_ACTIVE,
      ),
    );
    return 'listed';
  }
  await offer(vscode.window.showInformationMessage(sentences(`"${conn.name}" works: ${listed}`, note, staying), MAKE_ACTIVE, DIAGNOSE));
  return 'connected';
}
