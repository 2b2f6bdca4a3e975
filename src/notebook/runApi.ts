// The part of the engine's public face (api.ts re-exports all of it) that parsing and running a
// notebook needs: what `api-workbench run` imports. It leaves out the importers and the OpenAPI
// loader behind them (swagger-parser, ajv, js-yaml, ~600 KB), which api.ts adds: a CLI run that
// imported api.ts parsed them at every start without using them (issue 39). Keep changes additive.
export * from './types';
export { parseNotebook, serializeNotebook, cellStartLines, notebookProblems } from './format';
export { createRunner, runNotebook } from './run';
export { countsAsCell } from './cellCount';
export { describeWaits } from './waits';
export {
  defaultHttpClient,
  connectionsHost,
  envRefusal,
  hostAllowed,
  secretEnvName,
  sandboxConnections,
  SANDBOX_CONNECTION_NAME,
  type ConnectionsHostOptions,
  type EnvPolicy,
  type SandboxEndpoints,
} from './hosts';
export { httpCellNeeds, type HttpCellNeeds } from './ownHttpCell';
export { connectionLabel, CredentialOwners } from './credentialTaint';
