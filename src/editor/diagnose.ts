// "Diagnose Connection…": the report of core/net/diagnose.ts for a connection of any service, in
// an untitled Markdown document the user can read and copy into a bug report (already redacted).
import vscode from 'vscode';
import { connectionId, SERVICE_IDS, SERVICE_LABELS, usesStoredKey, type Connection } from '../core/connections';
import type { AuthPlacement } from '../core/auth';
import { diagnoseConnection, type ProbeResult } from '../core/net/diagnose';
import { networkSettings } from '../core/net/network';
import { openAiErrorParser } from '../services/llm/errors';
import { connectionFromArg } from './connections';
import type { Services } from './services';
import type { CommandId } from '../features/commandIds';
import { showReport } from './reportDocuments';

export const DIAGNOSE_COMMAND = 'apiWorkbench.diagnoseConnection' satisfies CommandId;

function placementText(auth: AuthPlacement): string {
  switch (auth.placement) {
    case 'bearer':
      return 'as Authorization: Bearer';
    case 'header':
      return `in the ${auth.name} header`;
    case 'query':
      return `in the ?${auth.name}= query parameter`;
    case 'none':
      return 'none sent';
  }
}

async function authText(s: Services, conn: Connection): Promise<string> {
  if (conn.service === 'realtime')
    return `app key ${conn.key}; requests signed with the app secret (${(await s.secrets.has(conn)) ? 'stored in SecretStorage' : 'not stored'})`;
  if (conn.auth.placement === 'none') return 'none (a key-less server)';
  const how = s.guard.describeCredential(conn);
  if (how || !usesStoredKey(conn)) return `${how ?? 'token'}, ${placementText(conn.auth)}`;
  return `API key ${placementText(conn.auth)} (${(await s.secrets.has(conn)) ? 'stored in SecretStorage' : 'no key stored yet'})`;
}

/** The request that shows what becomes of the credentials; undefined (and why) where every request costs. */
function probeFor(s: Services, conn: Connection): { probe?: () => Promise<ProbeResult>; skipped?: string } {
  if (conn.service === 'realtime')
    return { skipped: 'realtime REST requests are signed one by one: list the channels in the Realtime view to check the secret' };
  if (conn.service === 'maps' && conn.listing !== 'resources')
    return { skipped: 'Google Maps has no free request to check a key with: run a search (a billed request) to check it' };
  const http =
    conn.service === 'llm'
      ? s.http.create(conn, { parseError: openAiErrorParser, history: false, retry: { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 0 } })
      : s.http.create(conn, { baseUrl: new URL(conn.baseUrl).origin, history: false });
  const path = conn.service === 'llm' ? 'models' : 'v1/resources';
  return {
    probe: async () => {
      const r = await http.json({ path });
      return { status: r.status, headers: r.headers, durationMs: r.durationMs, requestId: r.requestId };
    },
  };
}

async function pickAny(s: Services): Promise<Connection | undefined> {
  const all = SERVICE_IDS.flatMap((service) => s.connections.list(service));
  if (all.length <= 1) return all[0];
  const picked = await vscode.window.showQuickPick(
    all.map((c) => ({ label: c.name, description: SERVICE_LABELS[c.service], conn: c })),
    { title: 'Diagnose Connection', placeHolder: 'Which connection?' },
  );
  return picked?.conn;
}

/** Builds the report for the connection given (a tree node, a connection) or picked, and opens it. */
export async function diagnoseCommand(s: Services, arg?: unknown): Promise<vscode.TextDocument | undefined> {
  const conn = SERVICE_IDS.map((service) => connectionFromArg(s, service, arg)).find(Boolean) ?? (await pickAny(s));
  if (!conn) return undefined;
  const { probe, skipped } = probeFor(s, conn);
  const report = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Diagnosing "${conn.name}"…` }, async () =>
    diagnoseConnection({
      title: `${SERVICE_LABELS[conn.service]} (${conn.name})`,
      url: conn.service === 'realtime' ? conn.restBaseUrl : conn.baseUrl,
      auth: await authText(s, conn),
      settings: networkSettings(),
      redactor: s.redactor,
      probe,
      probeSkipped: skipped,
    }),
  );
  s.log.info(`Diagnosed ${connectionId(conn)}`);
  return showReport(`Diagnose ${conn.name}`, 'md', report);
}
