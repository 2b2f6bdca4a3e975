// The built-in playground tools' access to the user's maps and realtime connections: clients on the
// shared HTTP factory (quota, approved credentials, history, redaction) for the active connection
// of each service, a modal confirmation before anything is published, and user-defined tools'
// notebook cells run by the notebook engine with the editor's host (keys from connections only).
import vscode from 'vscode';
import { bundle } from '../bundles';
import type { Services } from '../services';
import type { ToolServices } from '../../features/llm/playgroundTools';

// The maps and realtime clients come from those services' own bundles (dist/maps.js,
// dist/realtime.js, beside this one), the same module instances their views use: bundling second
// copies here would add their weight (and realtime's encryption library) to the .vsix.
const mapsModule = () => bundle('maps');
const realtimeModule = () => bundle('realtime');
const notebookModule = () => bundle('notebook');

export function playgroundToolServices(s: Services): ToolServices {
  return {
    maps: () => {
      const conn = s.connections.active('maps');
      if (conn?.service !== 'maps') throw new Error('there is no active maps connection: connect one, or start the Local Sandbox.');
      // The model's calls spend like the palette's: into the same session cost.
      return { client: mapsModule().mapsClientFor(s.http, conn, { onAnswered: (call) => s.mapsCosts.recordAnswered(call) }), connection: conn.name };
    },
    realtime: () => {
      const conn = s.connections.active('realtime');
      if (conn?.service !== 'realtime') return Promise.reject(new Error('there is no active realtime connection: connect one, or start the Local Sandbox.'));
      const rest = realtimeModule().realtimeRestFor(s, conn);
      return Promise.resolve({ rest, connection: conn.name });
    },
    confirmPublish: async (channel, event, data) => {
      const conn = s.connections.active('realtime');
      const shown = data.length > 300 ? `${data.slice(0, 300)}…` : data;
      const choice = await vscode.window.showWarningMessage(
        `The model wants to publish "${event}" to channel "${channel}" on ${conn ? `"${conn.name}"` : 'your realtime connection'}.`,
        { modal: true, detail: `Data: ${shown}\n\nEveryone subscribed to the channel receives it.` },
        'Publish',
      );
      return choice === 'Publish';
    },
    runCell: (cell, args) => {
      const { cellToolRunner, editorNotebookHost, toolNotebookReader } = notebookModule();
      return cellToolRunner({ host: editorNotebookHost(s), readNotebook: toolNotebookReader(s) })(cell, args);
    },
  };
}
