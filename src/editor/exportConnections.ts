import vscode from 'vscode';
import { SERVICE_IDS } from '../core/connections';
import { connectionsFileFor } from '../core/connectionsFile';
import type { Services } from './services';

export interface ExportedConnections {
  uri: vscode.Uri;
  keyVariables: string[];
}

/**
 * "Export Connections for CI…": writes the file `api-workbench run --connections` reads, from the
 * user's connections: names, URLs and the names of the environment variables that will hold the
 * keys. No key is ever written; the user sets those variables in CI.
 * `arg.uri` (tests, other commands) skips the save dialog.
 */
export async function exportConnections(s: Services, arg?: { uri?: vscode.Uri }): Promise<ExportedConnections | undefined> {
  const all = SERVICE_IDS.flatMap((id) => s.connections.list(id));
  const { json, keyVariables } = connectionsFileFor(all);
  if (keyVariables.length === 0) {
    void vscode.window.showInformationMessage('There are no connections of your own to export yet (the local sandbox needs none: the CLI has --sandbox).');
    return undefined;
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const uri =
    arg?.uri ??
    (await vscode.window.showSaveDialog({
      title: 'Export Connections for CI',
      defaultUri: folder ? vscode.Uri.joinPath(folder, 'api-workbench.connections.json') : undefined,
      filters: { JSON: ['json'] },
    }));
  if (!uri) return undefined;
  await vscode.workspace.fs.writeFile(uri, Buffer.from(JSON.stringify(json, null, 2) + '\n', 'utf8'));
  s.log.info(`Exported ${keyVariables.length} connection(s) to ${uri.fsPath}; keys are read from ${keyVariables.join(', ')}.`);
  void vscode.window.showInformationMessage(
    `Exported your connections to ${vscode.workspace.asRelativePath(uri)}. It holds no key: in CI, set ${keyVariables.join(', ')} and run \`api-workbench run <notebooks> --connections ${vscode.workspace.asRelativePath(uri)}\`.`,
  );
  return { uri, keyVariables };
}
