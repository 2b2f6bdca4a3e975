// Realtime cells as Pusher's official SDKs write them: PUBLISH and BATCH through the server SDK
// (`pusher` for Node and Python), LISTEN through `pusher-js`. The app secret is read from
// the connection's keyEnv in a connections file, else PUSHER_APP_SECRET (the name Export Connections
// for CI gives the first), never written.
import type { RealtimeConnection } from '../../core/connections';
import { PUSHER_SECRET_VAR } from '../../core/connectionsFile';
import { Code, jsCall, pyCall } from './literals';
import { headerLines } from './snippet';

/** A realtime cell's command with its variables filled in. */
export type RealtimeCommand =
  { kind: 'publish'; channel: string; event: string; data: string } | { kind: 'batch'; body: string } | { kind: 'listen'; channel: string; durationMs: number };

/** The data as the SDK sends it: parsed JSON when it is JSON (the notebook sends it as written either way). */
function dataValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Where the REST API is: a Pusher cluster, or a host and port (the sandbox, a self-hosted server). */
function restTarget(conn: RealtimeConnection): { cluster: string } | { host: string; port: number; useTLS: boolean } {
  const url = new URL(conn.restBaseUrl);
  const cluster = /^api-([a-z0-9-]+)\.pusher\.com$/.exec(url.hostname)?.[1];
  if (cluster) return { cluster };
  const useTLS = url.protocol === 'https:';
  return { host: url.hostname, port: Number(url.port || (useTLS ? 443 : 80)), useTLS };
}

const secretHeader = (secretVar: string) => [`The app secret is read from the environment variable ${secretVar}; it is never written here.`];

/** `pusher.Pusher(…)`, the server SDK's client in Python, assigned to `variable`. */
export function pusherPythonClient(conn: RealtimeConnection, variable: string, secretVar = PUSHER_SECRET_VAR): string {
  const t = restTarget(conn);
  const where: Array<[string, unknown]> =
    'cluster' in t
      ? [['cluster', t.cluster]]
      : [
          ['host', t.host],
          ['port', t.port],
          ['ssl', t.useTLS],
        ];
  const args: Array<[string, unknown]> = [['app_id', conn.appId], ['key', conn.key], ['secret', new Code(`os.environ["${secretVar}"]`)], ...where];
  return `${variable} = ${pyCall('pusher.Pusher', args, 0, variable.length + 3)}`;
}

export function pusherPython(conn: RealtimeConnection, cmd: RealtimeCommand, secretVar = PUSHER_SECRET_VAR): string {
  if (cmd.kind === 'listen') throw new Error('Pusher has no Python client for subscribing: copy this LISTEN as JavaScript SDK (pusher-js).');
  const call =
    cmd.kind === 'publish'
      ? `response = ${pyCall(
          'client.trigger',
          [
            ['channels', cmd.channel],
            ['event_name', cmd.event],
            ['data', dataValue(cmd.data)],
          ],
          0,
          11,
        )}`
      : `response = ${pyCall('client.trigger_batch', [['batch', dataValue(cmd.body)]], 0, 11)}`;
  const header = headerLines('python-sdk', { auth: { placement: 'none' }, envVar: secretVar }, secretHeader(secretVar));
  return [...header, 'import os', '', 'import pusher', '', pusherPythonClient(conn, 'client', secretVar), call, 'print(response)'].join('\n') + '\n';
}

/** `new Pusher(…)`, the server SDK's client in JavaScript, assigned to `variable`. */
export function pusherJsClient(conn: RealtimeConnection, variable: string, secretVar = PUSHER_SECRET_VAR): string {
  const t = restTarget(conn);
  const opts: Record<string, unknown> = { appId: conn.appId, key: conn.key, secret: new Code(`process.env.${secretVar}`), ...t };
  if ('port' in t) opts.port = String(t.port);
  const lead = `const ${variable} = `.length;
  return `const ${variable} = ${jsCall('new Pusher', opts, 0, lead, 1)};`;
}

/** `new <cls>(key, {…})`, pusher-js's client (it subscribes), assigned to `variable`. */
export function pusherJsListener(conn: RealtimeConnection, variable: string, cls: string): string {
  const ws = new URL(conn.wsUrl.replace(/^ws/, 'http'));
  const cluster = /^ws-([a-z0-9-]+)\.pusher\.com$/.exec(ws.hostname)?.[1];
  const opts: Record<string, unknown> = cluster
    ? { cluster }
    : { cluster: '', wsHost: ws.hostname, wsPort: Number(ws.port || (conn.useTLS ? 443 : 80)), forceTLS: conn.useTLS, enabledTransports: ['ws'] };
  const head = `const ${variable} = new ${cls}(`;
  return `${head}${JSON.stringify(conn.key)}, ${jsCall('', opts, 0, head.length + conn.key.length + 4, 2).slice(1, -1)});`;
}

export function pusherJavaScript(conn: RealtimeConnection, cmd: RealtimeCommand, secretVar = PUSHER_SECRET_VAR): string {
  if (cmd.kind === 'listen') {
    const header = headerLines('javascript-sdk', { auth: { placement: 'none' }, envVar: secretVar });
    return (
      [
        ...header,
        'import Pusher from "pusher-js";',
        '',
        pusherJsListener(conn, 'pusher', 'Pusher'),
        `const channel = pusher.subscribe(${JSON.stringify(cmd.channel)});`,
        'channel.bind_global((event, data) => console.log(event, JSON.stringify(data)));',
        `setTimeout(() => pusher.disconnect(), ${cmd.durationMs});`,
      ].join('\n') + '\n'
    );
  }
  const call =
    cmd.kind === 'publish'
      ? `const response = await pusher.trigger(${JSON.stringify(cmd.channel)}, ${JSON.stringify(cmd.event)}, ${JSON.stringify(dataValue(cmd.data))});`
      : `const response = await ${jsCall('pusher.triggerBatch', {}, 0).replace('({})', `(${JSON.stringify(dataValue(cmd.body))})`)};`;
  const header = headerLines('javascript-sdk', { auth: { placement: 'none' }, envVar: secretVar }, secretHeader(secretVar));
  return (
    [...header, 'import Pusher from "pusher";', '', pusherJsClient(conn, 'pusher', secretVar), '', call, 'console.log(response.status);'].join('\n') + '\n'
  );
}
