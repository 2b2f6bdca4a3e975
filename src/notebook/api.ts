// The public face of the API-notebook engine (`*.awb.md`): what the VS Code notebook
// (src/editor/notebook) and the CLI (src/cli) call. Nothing here or below imports vscode or
// src/editor; a front end hands the engine a NotebookHost instead. Keep changes additive.
export * from './types';
export { parseNotebook, serializeNotebook, cellStartLines, notebookProblems } from './format';
export { createRunner, runNotebook } from './run';
export { hasScriptBlock } from './scripts/cellScripts';
export { countsAsCell } from './cellCount';
export { foreignTarget, withRelativeTarget, type ForeignTarget } from './retarget';
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
export { NotebookError, walk, partOf } from './variables';
// What the editor's completions, hover and diagnostics and `api-workbench check` read (src/catalogue).
export { analyseCell, parseAssertion, parsePath, REALTIME_COMMANDS, type AnalysedCell, type AssertionSpec, type CellSpec, type HttpSpec } from './cells';
export { CHECK_SUBJECTS, CHECK_OPERATORS } from './assertions';
export { parseFenceInfo, formatAttributes } from './format';
export {
  detectFormat,
  importText,
  importCurl,
  curlToPieces,
  importHttpFile,
  importPostman,
  importOpenApi,
  type OpenApiImportOptions,
  exportHttpFile,
  cellToCurl,
  cellRequest,
  variableNameOf,
  fillVariables,
  httpRequestToCurl,
  httpRequestsIn,
  notebookVariables,
  knownConnectionsOf,
  ImportError,
  type ImportFormat,
  type ImportOptions,
  type ImportResult,
  type ImportedSecret,
  type KnownConnection,
  type ExportOptions,
  type ExportTarget,
  type CurlVariables,
  type ExportedRequest,
  type KnownValue,
} from './import';
export { connectionLabel, CredentialOwners } from './credentialTaint';
export { Cassette, type CassetteMode, type CassetteStorage } from './cassette/cassette';
export type { UrlAlias } from '../core/recording/requestKey';
export { sandboxAliases } from './cassette/aliases';
// The OpenAPI document a notebook names (`spec = ./openapi.yaml`): read for spec-aware http cells (src/catalogue).
export { SPEC_VARIABLE, loadSpecFile, specFileVersion } from './openapi/specFile';
export { specModel, deref, type SpecModel } from './openapi/model';
export type { LoadedSpec } from './openapi/load';
export { hasReference } from './variables';
