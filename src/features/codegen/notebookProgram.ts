// `api-workbench export --format python|javascript|python-sdk|javascript-sdk` and Export Notebook
// as Code…: a notebook as one program that runs its cells in order, passes answers between them as
// the notebook does, and checks each `??` line, exiting non-zero when one fails. Keys are read from
// the environment variables Export for CI names, never written. Loaded only when asked for.
import type { RealtimeConnection } from '../../core/connections';
import { PUSHER_SECRET_VAR } from '../../core/connectionsFile';
import type { Redactor } from '../../core/redact';
import { notebookVariables, parseNotebook, type ExportOptions } from '../../notebook/api';
import { codeLanguage, type CodeLanguage } from './languages';
import { skippedCall } from './programChecks';
import { cellCode, type ProgramContext } from './programCells';
import { JAVASCRIPT_LISTEN, JAVASCRIPT_OPENAI, JAVASCRIPT_PUSHER, JAVASCRIPT_RUNTIME, JAVASCRIPT_SEND } from './programRuntimeJavaScript';
import { PYTHON_OPENAI, PYTHON_PUSHER, PYTHON_RUNTIME, PYTHON_SEND } from './programRuntimePython';
import { References, type ProgramLanguage } from './programValues';
import { pusherJsClient, pusherJsListener, pusherPythonClient } from './pusherSdk';

export type ProgramFormat = Extract<CodeLanguage, 'python' | 'javascript' | 'python-sdk' | 'javascript-sdk'>;
export const PROGRAM_FORMATS: readonly ProgramFormat[] = ['python', 'javascript', 'python-sdk', 'javascript-sdk'];

/** What a program of each format may need (each program's first lines say what it does need). */
export const PROGRAM_NEEDS: Record<ProgramFormat, string> = {
  python: 'Python 3 and requests',
  javascript: 'Node 20+ (fetch)',
  'python-sdk': 'Python 3 and the official SDKs (openai, pusher; requests for the other services)',
  'javascript-sdk': 'Node 20+ and the official SDKs (openai, pusher, pusher-js)',
};

export interface ProgramOptions {
  /** Where llm and maps requests go (the connections' base URLs, key placement and key variables). */
  targets?: ExportOptions;
  /** The realtime connection PUBLISH, BATCH and LISTEN cells use (SDK formats). */
  realtime?: RealtimeConnection;
  /** The variable its app secret is read from (a connections file's keyEnv); PUSHER_APP_SECRET when not given. */
  realtimeSecretVar?: string;
  redactor?: Redactor;
}

export interface NotebookProgram {
  code: string;
  /** One line per cell the program leaves out, saying why (the program prints them as it runs). */
  skipped: string[];
}

const PYTHON_KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);
const JAVASCRIPT_KEYWORDS = new Set(
  'await break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof let new null return super switch this throw true try typeof var void while with yield'.split(
    ' ',
  ),
);
/** Names the program itself defines or imports: a cell's answer is never called one of them. */
const RUNTIME_NAMES = new Set(
  'json os re sys time requests openai pusher client listener later pusher_client pusherClient send sdk_call sdkCall pusher_call pusherCall listen check skipped finish part walk as_text asText assembled arguments args model_answer modelAnswer usage_of usageOf unquote number equals passes failed FAILED CHECKED MISSING checked OpenAI AzureOpenAI APIError Pusher PusherJs'.split(
    ' ',
  ),
);

/** The variable holding a cell's answer: its name where that is a fresh identifier. */
function variableFor(language: ProgramLanguage, name: string, taken: ReadonlySet<string>): string {
  let id = name.replace(/[^A-Za-z0-9_]+(.)?/g, (_m, c: string | undefined) => (language === 'python' ? `_${c ?? ''}` : (c ?? '').toUpperCase()));
  if (!/^[A-Za-z_]/.test(id)) id = `cell_${id}`;
  const keywords = language === 'python' ? PYTHON_KEYWORDS : JAVASCRIPT_KEYWORDS;
  if (keywords.has(id) || RUNTIME_NAMES.has(id)) id = `${id}_answer`;
  let unique = id;
  for (let n = 2; taken.has(unique); n++) unique = `${id}_${n}`;
  return unique;
}

function headerLines(format: ProgramFormat, ctx: ProgramContext, body: string, title: string | undefined): string[] {
  const py = ctx.language === 'python';
  const needs = py
    ? ['Python 3', ...(ctx.uses.has('send') ? ['requests'] : []), ...(ctx.uses.has('openai') ? ['openai'] : []), ...(ctx.uses.has('pusher') ? ['pusher'] : [])]
    : [
        'Node 20+ (fetch)',
        ...(ctx.uses.has('openai') ? ['openai'] : []),
        ...(ctx.uses.has('pusher') ? ['pusher'] : []),
        ...(ctx.uses.has('listen') ? ['pusher-js'] : []),
      ];
  const packages = needs.slice(1);
  const install = packages.length ? ` (${py ? 'pip install' : 'npm install'} ${packages.join(' ')})` : '';
  const reads = new Set([...ctx.implicitEnv, ...[...body.matchAll(py ? /os\.environ\["(\w+)"\]/g : /process\.env\.(\w+)/g)].map((m) => m[1])]);
  const lines = [
    `${title ? `"${title}" as` : 'A notebook as'} a ${codeLanguage(format).label} program: the cells in order, each \`??\` check printed.`,
    `It exits with status 1 when a check fails. Needs: ${needs.join(', ')}${install}.`,
  ];
  if (reads.size) lines.push(`Reads the environment variables ${[...reads].join(', ')}; no key is written here.`);
  const c = py ? '#' : '//';
  return lines.map((l) => `${c} ${l}`);
}

/** The notebook `text` as one program in `format`. */
export function notebookProgram(text: string, format: ProgramFormat, opts: ProgramOptions = {}): NotebookProgram {
  const { cells } = parseNotebook(text);
  const language: ProgramLanguage = format.startsWith('python') ? 'python' : 'javascript';
  const py = language === 'python';
  const variables = new Map<string, string>();
  const ctx: ProgramContext = {
    language,
    sdk: format.endsWith('-sdk'),
    vars: notebookVariables(cells),
    refs: new References(variables),
    targets: opts.targets ?? {},
    realtime: opts.realtime,
    variables,
    skippedCells: new Set(),
    listens: new Map(),
    uses: new Set(),
    clients: new Map(),
    implicitEnv: new Set(),
  };
  const c = py ? '#' : '//';
  const sections: string[] = [];
  const skipped: string[] = [];
  const taken = new Set<string>();
  cells.forEach((cell, i) => {
    if (cell.kind !== 'code' || cell.language === 'vars') return;
    const name = cell.metadata.attributes?.name;
    const label = name ?? `cell ${i + 1}`;
    const variable = variableFor(language, name ?? `cell_${i + 1}`, taken);
    const heading = `${c} ${cell.language} cell ${name ? `"${name}"` : i + 1}: ${cell.value.split(/\r?\n/)[0].trim()}`;
    const written = cellCode(ctx, cell, label, variable);
    if ('skipped' in written) {
      if (name) ctx.skippedCells.add(name);
      skipped.push(`${label}: ${written.skipped}`);
      sections.push([heading, `${c} Skipped: ${written.skipped}.`, skippedCall(language, label, written.skipped)].join('\n'));
      return;
    }
    taken.add(variable);
    if (name) variables.set(name, variable);
    sections.push([heading, ...written.lines].join('\n'));
  });
  const secretVar = opts.realtimeSecretVar ?? PUSHER_SECRET_VAR;
  const setup = [
    ...[...ctx.clients.values()].map((cl) => cl.line),
    ...(ctx.uses.has('pusher') && ctx.realtime
      ? [py ? pusherPythonClient(ctx.realtime, 'pusher_client', secretVar) : pusherJsClient(ctx.realtime, 'pusherClient', secretVar)]
      : []),
    ...(ctx.uses.has('listen') && ctx.realtime ? [pusherJsListener(ctx.realtime, 'listener', 'PusherJs'), 'const later = [];'] : []),
  ];
  if (ctx.uses.has('pusher')) ctx.implicitEnv.add(secretVar);
  const main = [...(setup.length ? [setup.join('\n')] : []), ...sections].join('\n\n');
  const end = py ? ['finish()'] : [...(ctx.uses.has('listen') ? ['await Promise.all(later);', 'listener.disconnect();'] : []), 'finish();'];
  const code = py ? pythonProgram(ctx, main, end) : javascriptProgram(ctx, main, end);
  const title = /^#\s+(.+)$/m.exec(cells.find((cl) => cl.kind === 'markup')?.value ?? '')?.[1]?.trim();
  const out = `${headerLines(format, ctx, code, title).join('\n')}\n${code}`;
  return { code: opts.redactor ? opts.redactor.text(out) : out, skipped };
}

function pythonProgram(ctx: ProgramContext, main: string, end: string[]): string {
  const usesOs = /os\.environ\[/.test(main);
  const imports = ['import json', ...(usesOs ? ['import os'] : []), 'import re', 'import sys', 'import time'];
  const third = [
    ...(ctx.uses.has('openai') ? ['import openai'] : []),
    ...(ctx.uses.has('pusher') ? ['import pusher'] : []),
    ...(ctx.uses.has('send') ? ['import requests'] : []),
  ];
  const from = [...new Set([...ctx.clients.values()].map((cl) => (cl.azure ? 'AzureOpenAI' : 'OpenAI')))].sort();
  if (from.length) third.push(`from openai import ${from.join(', ')}`);
  const runtime = [
    PYTHON_RUNTIME,
    ...(ctx.uses.has('send') ? [PYTHON_SEND] : []),
    ...(ctx.uses.has('openai') ? [PYTHON_OPENAI] : []),
    ...(ctx.uses.has('pusher') ? [PYTHON_PUSHER] : []),
  ].map((t) => t.trimEnd());
  return (
    [imports.join('\n'), ...(third.length ? [third.join('\n')] : []), runtime.join('\n\n\n'), '', main, ...end].join('\n\n').replace(/\n{4,}/g, '\n\n\n') + '\n'
  );
}

function javascriptProgram(ctx: ProgramContext, main: string, end: string[]): string {
  const fromOpenAi = [...new Set([...ctx.clients.values()].map((cl) => (cl.azure ? 'AzureOpenAI' : 'OpenAI')))];
  const imports = [
    ...(ctx.uses.has('openai') ? [`import { ${['APIError', ...fromOpenAi].sort().join(', ')} } from "openai";`] : []),
    ...(ctx.uses.has('pusher') ? ['import Pusher from "pusher";'] : []),
    ...(ctx.uses.has('listen') ? ['import PusherJs from "pusher-js";'] : []),
  ];
  const runtime = [
    JAVASCRIPT_RUNTIME,
    ...(ctx.uses.has('send') ? [JAVASCRIPT_SEND] : []),
    ...(ctx.uses.has('openai') ? [JAVASCRIPT_OPENAI] : []),
    ...(ctx.uses.has('pusher') ? [JAVASCRIPT_PUSHER] : []),
    ...(ctx.uses.has('listen') ? [JAVASCRIPT_LISTEN] : []),
  ].map((t) => t.trimEnd());
  return [...(imports.length ? [imports.join('\n')] : []), runtime.join('\n\n'), main, end.join('\n')].join('\n\n') + '\n';
}
