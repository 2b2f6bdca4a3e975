// The built-in sandbox as the default connections of `api-workbench run` and `api-workbench mcp`:
// one rule for both front ends. Its code is loaded only with --sandbox, its keys are taught to the
// redactor, and its connections come first (the first connection of a service is its default).
import type { Connection } from '../core/connections';
import type { Redactor } from '../core/redact';
import { SANDBOX_CONNECTION_NAME, sandboxConnections } from '../notebook/api';
import type { Sandbox } from '../sandbox/host';
import { CliError } from './errors';

export interface SandboxDefaults {
  sandbox?: Sandbox;
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

export async function withSandbox(
  enabled: boolean,
  modelMap: readonly string[],
  fileConnections: readonly Connection[],
  redactor: Redactor,
): Promise<SandboxDefaults> {
  if (!enabled) return { connections: [...fileConnections], key: () => undefined };
  // Loaded only for --sandbox: a run or a server against real services does not pay for the sandbox's code.
  const { startCliSandbox } = await import('./sandbox');
  const sandbox = await startCliSandbox(modelMap);
  const set = sandboxConnections(sandbox.info);
  for (const k of [sandbox.info.llm.apiKey, sandbox.info.maps.apiKey, sandbox.info.realtime.secret]) redactor.addSecret(k);
  return { sandbox, connections: [...set.connections, ...fileConnections], key: (c) => (c.source === 'sandbox' ? set.key(c) : undefined) };
}
