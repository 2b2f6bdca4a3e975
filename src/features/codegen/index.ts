// Copy as Code: one cell of a notebook (or a request the editor sent) as code in a language; the
// front ends (editor, CLI) call this. Whole notebooks as programs: ./program.
import type { RealtimeConnection } from '../../core/connections';
import type { Redactor } from '../../core/redact';
import {
  analyseCell,
  cellRequest,
  fillVariables,
  type CurlVariables,
  type ExportOptions,
  type ExportedRequest,
  type KnownValue,
  type NotebookCellData,
} from '../../notebook/api';
import { asciiMarkers, hasMarker } from './envRefs';
import { CODE_LANGUAGES, type CodeLanguage } from './languages';
import { openAiCall, openAiSnippet } from './openaiSdk';
import { pusherJavaScript, pusherPython, type RealtimeCommand } from './pusherSdk';
import { httpSnippet } from './snippet';

export { CODE_LANGUAGES, codeLanguage, isCodeLanguage, type CodeLanguage, type CodeLanguageInfo } from './languages';

export interface CellCodeOptions {
  /** Where llm and maps requests go (the connections' base URLs and key placement). */
  targets?: ExportOptions;
  /** The notebook's vars. */
  vars?: CurlVariables;
  /** Earlier cells' answers the caller knows. */
  known?: KnownValue;
  /** The realtime cell's connection. */
  realtime?: RealtimeConnection;
  /** The variable its app secret is read from (a connections file's keyEnv); PUSHER_APP_SECRET when not given. */
  realtimeSecretVar?: string;
  redactor?: Redactor;
}

/** The languages a request can be written in: every plain one, and the SDK where the service has one for it. */
export function languagesForRequest(req: ExportedRequest): CodeLanguage[] {
  const plain = CODE_LANGUAGES.filter((l) => !l.id.endsWith('-sdk')).map((l) => l.id);
  return openAiCall(req) ? [...plain, 'python-sdk', 'javascript-sdk'] : plain;
}

/** A realtime cell's command, variables filled in; undefined for commands Copy as Code does not write. */
function realtimeCommand(cell: NotebookCellData, opts: CellCodeOptions): RealtimeCommand | undefined {
  const spec = analyseCell(cell, 1).spec;
  const fill = (t: string) => fillVariables(t, opts.vars ?? new Map(), opts.known);
  if (spec?.kind === 'publish') return { kind: 'publish', channel: fill(spec.channel), event: fill(spec.event), data: fill(spec.data) };
  if (spec?.kind === 'listen') return { kind: 'listen', channel: fill(spec.channel), durationMs: spec.durationMs };
  if (spec?.kind === 'realtimeRest' && spec.op === 'batch') return { kind: 'batch', body: fill(spec.body) };
  return undefined;
}

/** The languages a cell can be copied as (empty: none). */
export function languagesForCell(cell: NotebookCellData, opts: CellCodeOptions = {}): CodeLanguage[] {
  if (cell.kind === 'code' && cell.language === 'realtime') {
    const cmd = realtimeCommand(cell, opts);
    if (!cmd) return [];
    return cmd.kind === 'listen' ? ['javascript-sdk'] : ['python-sdk', 'javascript-sdk'];
  }
  const req = cellRequest(cell, opts.targets, opts.vars, opts.known);
  return req ? languagesForRequest(req) : [];
}

/** One request as code. */
export async function requestCode(req: ExportedRequest, language: CodeLanguage, redactor?: Redactor): Promise<string> {
  const text =
    language === 'python-sdk'
      ? openAiSnippet(req, 'python')
      : language === 'javascript-sdk'
        ? openAiSnippet(req, 'javascript')
        : await httpSnippet(req, language, redactor);
  return redactor ? redactor.text(text) : text;
}

/** One cell as code; throws a sentence saying why when the cell or the language cannot be written. */
export async function cellCode(cell: NotebookCellData, language: CodeLanguage, opts: CellCodeOptions = {}): Promise<string> {
  if (cell.kind === 'code' && cell.language === 'realtime') {
    const cmd = realtimeCommand(cell, opts);
    if (!cmd) throw new Error('Copy as Code writes PUBLISH, BATCH and LISTEN realtime cells; this command has no SDK code here.');
    if (!opts.realtime) throw new Error('No realtime connection is set up for this cell: add one (API Workbench: Connect…) or start the sandbox.');
    if (language !== 'python-sdk' && language !== 'javascript-sdk')
      throw new Error("Realtime messages are signed or sent over a socket: copy them as Pusher's SDK code (Python SDK or JavaScript SDK).");
    const text =
      language === 'python-sdk' ? pusherPython(opts.realtime, cmd, opts.realtimeSecretVar) : pusherJavaScript(opts.realtime, cmd, opts.realtimeSecretVar);
    if (hasMarker(asciiMarkers(text))) throw new Error('This cell reads an earlier answer not known yet: run the cells above it first.');
    return opts.redactor ? opts.redactor.text(text) : text;
  }
  const req = cellRequest(cell, opts.targets, opts.vars, opts.known);
  if (!req) throw new Error('This cell is not a request yet (it should start with a line such as "POST /chat/completions").');
  return requestCode(req, language, opts.redactor);
}
