// The public face of the API-notebook engine (`*.awb.md`): what the VS Code notebook
// (src/editor/notebook) and the CLI (src/cli) call. Nothing here or below imports vscode or
// src/editor; a front end hands the engine a NotebookHost instead. Keep changes additive.
export * from './runApi';
export * from './cassetteApi';
export { hasScriptBlock } from './scripts/cellScripts';
export { foreignTarget, withRelativeTarget, type ForeignTarget } from './retarget';
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
// The OpenAPI document a notebook names (`spec = ./openapi.yaml`): read for spec-aware http cells (src/catalogue).
export { SPEC_VARIABLE, loadSpecFile, specFileVersion } from './openapi/specFile';
export { specModel, deref, type SpecModel } from './openapi/model';
export type { LoadedSpec } from './openapi/load';
export { hasReference } from './variables';
