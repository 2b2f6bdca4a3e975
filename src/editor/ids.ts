// Ids other than commands that the code and package.json must agree on (notebook type, controller,
// renderer, mime type, languages). vscode-free so the unit suite can check them against the manifest
// (test/unit/foundation/manifest.test.ts).
import { CODE_LANGUAGES, type CodeLanguage } from '../notebook/api';
import { RESULT_MIME } from '../webview/result/protocol';

/** `<publisher>.<name>` of package.json. */
export const EXTENSION_ID = 'api-workbench.api-workbench';
export const NOTEBOOK_TYPE = 'api-workbench-notebook';
export const NOTEBOOK_FILE_PATTERN = '*.awb.md';
export const NOTEBOOK_CONTROLLER_ID = 'api-workbench-notebook-controller';
export const RESULT_RENDERER_ID = 'api-workbench.result-viewer';
export { RESULT_MIME };
/** The language ids of code cells: the fence languages themselves. */
export const NOTEBOOK_LANGUAGES: readonly CodeLanguage[] = CODE_LANGUAGES;
/** Context key: the active notebook is an API notebook with environments to pick from. */
export const CONTEXT_HAS_ENVIRONMENTS = 'apiWorkbench.notebook.hasEnvironments';
