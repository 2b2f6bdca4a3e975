// The built-in sandbox as the default connections of `api-workbench run` and `api-workbench mcp`:
// one rule for both front ends. Its code is loaded only with --sandbox, its keys are taught to the
// redactor, and its connections come first (the first connection of a service is its default).
import type { Connection, SandboxEndpoints } from '../core/connections';
import type { Redactor } from '../core/redact';
import { SANDBOX_CONNECTION_NAME, sandboxConnections } from '../notebook/runApi';
import type { Sandbox } from '../sandbox/host';
import { CliError } from './errors';

export interface SandboxDefaults {
  sandbox?: Sandbox;
  /** Where the sandbox's connections point (a started sandbox's, or the stand-in of a replay). */
  endpoints?: SandboxEndpoints;
  /** The sandbox's connections (when started) before the file's. */
  connections: Connection[];
  /** A sandbox connection's key; undefined for the others. */
  key(c: Connection): string | undefined;
}

/** A file connection named like the sandbox's would be ambiguous next to it: refused, naming the file. */
export function refuseSandboxNameClash(fileConnections: readonly Connection[], connectionsFile: string | undefined): void {
  const clash = fileConnections.find((c) => c.name === SANDBOX_CONNECTION_NAME);
  if (clash) throw new CliError(`${connectionsFile}: the ${clash.service} connection "${SANDBOX_CONNECTION_NAME}" has the sandbox's name: rename it`);
}

/**
 * `--sandbox --replay`: every answer comes from the recording, so no sandbox is started; its
 * connections point at a host that cannot resolve (a request that escaped the recording could not
 * be answered by anything). The recording names the sandbox's origins and app id, not these.
 */
// Its keys share no word with an answer: the redactor masks pieces of a known key wherever they appear.
const REPLAYED_SANDBOX: SandboxEndpoints = {
  llm: { baseUrl: 'http://sandbox.replay.invalid:1/v1', apiKey: 'rp-7f3a9c1e0b2d4a6f' },
  maps: { baseUrl: 'http://sandbox.replay.invalid:2', apiKey: 'rp-2c8e4f6a1d3b5c7e' },
  realtime: { host: 'sandbox.replay.invalid', port: 3, appId: '1', key: 'rp-9d1b3f5e7a2c4e6b', secret: 'rp-4a6c8e0f2b4d6f8a' },
};

export async function withSandbox(
  enabled: boolean,
  modelMap: readonly string[],
  fileConnections: readonly Connection[],
  redactor: Redactor,
  replayOnly = false,
): Promise<SandboxDefaults> {
  if (!enabled) return { connections: [...fileConnections], key: () => undefined };
  if (replayOnly) {
    const set = sandboxConnections(REPLAYED_SANDBOX);
    return {
      endpoints: REPLAYED_SANDBOX,
      connections: [...set.connections, ...fileConnections],
      key: (c) => (c.source === 'sandbox' ? set.key(c) : undefined),
    };
  }
  // Loaded only for --sandbox: a run or a server against real services does not pay for the sandbox's code.
  const { startCliSandbox } = await import('./sandbox');
  const sandbox = await startCliSandbox(modelMap);
  const set = sandboxConnections(sandbox.info);
  for (const k of [sandbox.info.llm.apiKey, sandbox.info.maps.apiKey, sandbox.info.realtime.secret]) redactor.addSecret(k);
  return {
    sandbox,
    endpoints: sandbox.info,
    connections: [...set.connections, ...fileConnections],
    key: (c) => (c.source === 'sandbox' ? set.key(c) : undefined),
  };
}
