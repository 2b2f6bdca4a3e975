// Ids other than commands that the code and package.json must agree on (notebook type, controller,
// renderer, mime type, languages). vscode-free so the unit suite can check them against the manifest
// (test/unit/foundation/manifest.test.ts).
// Type-only imports: this file is in the activation bundle, which must not pull in the engine.
import type { CodeLanguage } from '../notebook/api';

/** `<publisher>.<name>` of package.json. */
export const EXTENSION_ID = 'api-workbench.api-workbench';
export const NOTEBOOK_TYPE = 'api-workbench-notebook';
export const NOTEBOOK_FILE_PATTERN = '*.awb.md';
export const NOTEBOOK_CONTROLLER_ID = 'api-workbench-notebook-controller';
export const RESULT_RENDERER_ID = 'api-workbench.result-viewer';
/** Same value as RESULT_MIME in src/webview/result/protocol.ts (the unit test checks both). */
export const RESULT_MIME = 'application/vnd.api-workbench.result+json';
/** The language ids of code cells: the fence languages themselves (the engine's CODE_LANGUAGES; checked by the unit test). */
export const NOTEBOOK_LANGUAGES = ['llm', 'maps', 'realtime', 'vars'] as const satisfies readonly CodeLanguage[];
/** Context key: the active notebook is an API notebook with environments to pick from. */
export const CONTEXT_HAS_ENVIRONMENTS = 'apiWorkbench.notebook.hasEnvironments';
