// run_notebook: runs an API notebook through the engine with the front end's host (the same key
// release, host approval and refusals as `api-workbench run`), only from inside the served folder,
// its side effects (PUBLISH, requests that change data) allowed only as realtime_publish is.
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { FileRefusal, readFileInside } from '../core/fileGate';
import { countsAsCell, NOTEBOOK_EXTENSION, runNotebook } from '../notebook/api';
import { ToolRefusal, type AgentContext, type AgentNotebookHost } from './context';
import { clip, type ToolOutput } from './result';
import type { RunNotebookInput } from './schemas';
import { sideEffectRefusal } from './sideEffects';

/** Bytes of each response body the engine keeps for assertions (as `api-workbench run`). */
const MAX_BODY_BYTES = 1024 * 1024;
/** As the CLI's text inputs (cli/textFile.ts). */
const MAX_NOTEBOOK_BYTES = 64 * 1024 * 1024;
/** Characters of a failed check's expected/actual value and of a cell's error given to the agent. */
const DETAIL_CHARS = 500;

/** The notebook's real path when it lies inside `root` (links resolved); a ToolRefusal otherwise. */
export async function notebookInside(root: string, wanted: string): Promise<string> {
  const realRoot = await realpath(root);
  const full = path.resolve(realRoot, wanted);
  let real: string;
  try {
    real = await realpath(full);
  } catch {
    throw new ToolRefusal(`there is no file ${full}: give a notebook path relative to ${realRoot}`);
  }
  const rel = path.relative(realRoot, real);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) {
    throw new ToolRefusal(
      `refused: ${wanted} is outside the folder this server may run notebooks from (${realRoot}); start the server with --root set to a folder that holds it`,
    );
  }
  if (!real.endsWith(NOTEBOOK_EXTENSION)) throw new ToolRefusal(`${wanted} is not an API notebook (*${NOTEBOOK_EXTENSION})`);
  return real;
}

export async function runNotebookTool(ctx: AgentContext, input: RunNotebookInput, signal?: AbortSignal): Promise<ToolOutput> {
  if (!ctx.notebooks) throw new ToolRefusal('running notebooks is not available here: no folder to run them from');
  const file = await notebookInside(ctx.notebooks.root, input.path);
  let text: string;
  try {
    // Opened through the one file gate: what was checked is what is read, and a FIFO or device named *.awb.md is refused.
    const bytes = await readFileInside(path.relative(await realpath(ctx.notebooks.root), file), {
      folder: ctx.notebooks.root,
      folderName: 'the served folder',
      use: 'run',
      example: './notebooks/tour.awb.md',
      maxBytes: MAX_NOTEBOOK_BYTES,
    });
    text = bytes.toString('utf8');
  } catch (e) {
    if (e instanceof FileRefusal) throw new ToolRefusal(`${input.path}: ${e.message}`);
    throw e;
  }
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal?.addEventListener('abort', onAbort);
  const base = ctx.notebooks.host();
  // The notebook's side effects go through the same permission as the tools' own (realtime_publish).
  const host: AgentNotebookHost = {
    ...base,
    beforeSideEffect: async (effect) => (await base.beforeSideEffect?.(effect)) ?? sideEffectRefusal(ctx, effect),
  };
  let report;
  try {
    report = await runNotebook(text, { host, file, baseDir: path.dirname(file), maxBodyBytes: MAX_BODY_BYTES }, stop.signal);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    host.runEnded?.();
  }
  const cells = report.results.filter(countsAsCell).map((r) => ({
    line: r.line,
    name: r.name ?? null,
    service: r.service,
    ok: r.ok,
    status: r.response?.status ?? null,
    durationMs: Math.round(r.durationMs),
    ...(r.error ? { error: clip(r.error, DETAIL_CHARS).text } : {}),
    failedChecks: r.assertions
      .filter((a) => !a.passed)
      .map((a) => ({
        line: a.line,
        check: clip(a.source, DETAIL_CHARS).text,
        expected: clip(a.expected, DETAIL_CHARS).text,
        actual: clip(a.actual, DETAIL_CHARS).text,
      })),
  }));
  const passed = cells.filter((c) => c.ok).length;
  const failed = cells.length - passed;
  const lines = cells.map((c) => {
    const head = `${c.ok ? 'PASS' : 'FAIL'} line ${c.line}${c.name ? ` "${c.name}"` : ''} (${c.service}${c.status !== null ? ` ${c.status}` : ''}, ${c.durationMs} ms)`;
    const why = [...(c.error ? [`  ${c.error}`] : []), ...c.failedChecks.map((f) => `  ${f.check}: expected ${f.expected}, got ${f.actual}`)];
    return [head, ...why].join('\n');
  });
  const problems = report.problems.map((p) => `${p.file}:${p.line}: ${p.message}`);
  const summary = `${passed} passed, ${failed} failed`;
  return {
    text: [`${path.relative(ctx.notebooks.root, file) || file}: ${summary}`, ...problems, ...lines].join('\n'),
    structured: { file, passed, failed, summary, problems, cells },
  };
}
