// The importers behind one door: what a front end (CLI, editor) calls with a file's text.
import { insideSubstitution } from './curl';
import { importCurl } from './importCurl';
import { importHttpFile } from './httpFile';
import { importPostman } from './postman';
import type { ImportOptions, ImportResult } from './types';
import { looksLikeOpenApi } from '../openapi/load';

export type ImportFormat = 'curl' | 'http' | 'postman' | 'openapi';

/** The format of a file by its name, then its content (a curl line, a JSON object, else `.http`). */
export function detectFormat(fileName: string, text: string): ImportFormat {
  const lower = fileName.toLowerCase();
  // By content first: an OpenAPI document is .json or .yaml like many other files.
  if (looksLikeOpenApi(text) || lower.endsWith('.yaml') || lower.endsWith('.yml')) return 'openapi';
  if (lower.endsWith('.http') || lower.endsWith('.rest')) return 'http';
  if (lower.endsWith('.json')) return 'postman';
  // Comment lines (a snippet file's `# [START …]`), a prompt and a wrapper (`time`, `proxychains`) may come before curl.
  const start = text.replace(/^(\s*#[^\n]*\n)*/, '').trimStart();
  if (/^(\$\s+)?((time|proxychains4?|torsocks|sudo|noglob|[A-Za-z_]\w*=\S*)\s+)*curl\s/.test(start)) return 'curl';
  if (insideSubstitution(start)) return 'curl';
  if (start.startsWith('{')) return 'postman';
  return 'http';
}

/** The synchronous importers; an OpenAPI document (its `$ref`s read from files) goes through importOpenApi. */
export function importText(format: Exclude<ImportFormat, 'openapi'>, text: string, opts: ImportOptions = {}): ImportResult {
  if (format === 'curl') return importCurl(text, opts);
  if (format === 'postman') return importPostman(text, opts);
  return importHttpFile(text, opts);
}

export { importCurl, curlToPieces } from './importCurl';
export { knownConnectionsOf } from './classify';
export { importHttpFile, convertReference } from './httpFile';
export { importPostman } from './postman';
export { importOpenApi, type OpenApiImportOptions } from './openapi';
export {
  exportHttpFile,
  cellToCurl,
  cellRequest,
  variableNameOf,
  fillVariables,
  httpRequestToCurl,
  httpRequestsIn,
  notebookVariables,
  type CurlVariables,
  type ExportedRequest,
  type KnownValue,
  type ExportOptions,
  type ExportTarget,
} from './exportHttp';
export { ImportError, type ImportOptions, type ImportResult, type ImportedSecret, type KnownConnection } from './types';
