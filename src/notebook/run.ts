// Runs notebook cells: one, or all in order, with variables flowing from cell to cell. Each run
// gives a CellResult whose every string has passed the host's Redactor.
import { quoteCut } from '../core/quote';
import { toAbortSignal, type Cancel } from '../core/cancellation';
import { connectionOrigins, type HttpConnection, type RealtimeConnection } from '../core/connections';
import { isApiError, errorText } from '../core/errors';
import { redactTree, redactTreeSliced } from '../core/redactTree';
import { parseJson } from '../core/validate';
import type {
  AssertionResult,
  CellRef,
  CellResult,
  ListenMessage,
  NotebookCellData,
  NotebookProblem,
  NotebookRunner,
  NotebookRunReport,
  RequestRecord,
  RunOptions,
} from './types';
import { checkAssertion } from './assertions';
import { SPEC_VARIABLE, checkModelAssertion, isModelCheck, type ModelCheckContext } from './assertionsModel';
import { llmSummaryOf } from './llmAnswer';
import { withRetiredModelAdvice } from './retiredModelHint';
import { analyseCell, type AnalysedCell, type HttpSpec } from './cells';
import { cellStartLines, parseNotebook } from './format';
import { absoluteOrigin, CONNECTION_WORD, resolveTarget, runHttpCell, type HttpTarget, type TargetFail } from './httpCell';
import { fillBaseVariable } from './baseVariable';
import { bodyLineOf, prepareOwnHttp, varsCellValues } from './ownHttpCell';
import { assembleBody } from './requestBody';
import { NotebookError, substitute, type VariableScope } from './variables';
import { ScriptSession } from './scripts/cellRun';
import { hasScriptBlock } from './scripts/cellScripts';

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

interface Outcome {
  request?: RequestRecord;
  response?: CellResult['response'];
  count?: number;
  error?: unknown;
  connection?: string;
  listen?: CellResult['listen'];
  waits?: CellResult['waits'];
}

class Runner implements NotebookRunner {
  private cells: NotebookCellData[] = [];
  private lines: number[] = [];
  private readonly results = new Map<string, CellResult>();
  private readonly running = new Set<AbortController>();
  private environment: string | undefined;
  /** The run's script engine and what scripts set (`{{name}}` for the cells below). */
  private readonly scripts: ScriptSession;

  constructor(
    cells: readonly NotebookCellData[],
    private readonly opts: RunOptions,
  ) {
    this.environment = opts.environment;
    this.scripts = new ScriptSession({ host: opts.host, file: opts.file, baseDir: opts.baseDir, limits: opts.scriptLimits });
    this.setCells(cells);
  }

  setEnvironment(name: string | undefined): void {
    if (name === this.environment) return;
    this.environment = name;
    // Results of the other environment were made with its variables (its host, its token): a later
    // cell must not send them on to this one.
    this.results.clear();
    this.scripts.clear();
  }

  setCells(cells: readonly NotebookCellData[]): void {
    this.cells = [...cells];
    this.lines = cellStartLines(this.cells);
    const names = new Set(this.cells.map((c) => c.metadata.attributes?.name));
    for (const name of [...this.results.keys()]) if (!names.has(name)) this.results.delete(name);
    // The engine's thread loads while the user reads the notebook or the run's first requests go out.
    if (this.cells.some((c) => c.kind === 'code' && hasScriptBlock(c.value))) this.scripts.warm();
  }

  lastResult(name: string): CellResult | undefined {
    return this.results.get(name);
  }

  async runAll(cancel?: Cancel): Promise<CellResult[]> {
    const bridge = toAbortSignal(cancel);
    const signal = bridge.signal;
    // A run of every cell starts from what the notebook says, not from what an earlier run's scripts set.
    this.scripts.clear();
    try {
      // A LISTEN goes on listening while the cells below it run (a PUBLISH meant for it among them).
      const pending: Array<Promise<CellResult>> = [];
      for (let i = 0; i < this.cells.length; i++) {
        if (this.cells[i].kind !== 'code') continue;
        if (signal?.aborted) break;
        const run = this.startCell(i, signal);
        pending.push(run.result);
        await run.ready;
      }
      return await Promise.all(pending);
    } finally {
      bridge.dispose();
    }
  }

  runCell(index: number, cancel?: Cancel): Promise<CellResult> {
    return this.startCell(index, cancel).result;
  }

  startCell(index: number, cancel?: Cancel): { ready: Promise<void>; result: Promise<CellResult> } {
    let subscribed!: () => void;
    const listening = new Promise<void>((resolve) => (subscribed = resolve));
    const result = this.run(index, cancel, subscribed);
    // A cell that fails or ends before subscribing lets the run go on too.
    const ready = Promise.race([
      listening,
      result.then(
        () => undefined,
        () => undefined,
      ),
    ]);
    return { ready, result };
  }

  private async run(index: number, cancel: Cancel | undefined, onSubscribed: () => void): Promise<CellResult> {
    const cell = this.cells[index];
    if (!cell || cell.kind !== 'code') throw new Error(`cell ${index} is not a code cell`);
    const bridge = toAbortSignal(cancel);
    const outer = bridge.signal;
    const controller = new AbortController();
    const onAbort = () => controller.abort(outer?.reason);
    if (outer?.aborted) controller.abort(outer.reason);
    outer?.addEventListener('abort', onAbort, { once: true });
    this.running.add(controller);
    try {
      const result = await this.execute(index, cell, controller.signal, onSubscribed);
      const redacted = await this.redact(result);
      if (redacted.name !== undefined && !redacted.skipped) this.results.set(redacted.name, redacted);
      try {
        this.opts.host.onResult?.(redacted);
      } catch {
        // A history bug must not fail the run it records.
      }
      return redacted;
    } finally {
      outer?.removeEventListener('abort', onAbort);
      this.running.delete(controller);
      bridge.dispose();
    }
  }

  dispose(): void {
    for (const c of this.running) c.abort();
    this.running.clear();
    this.scripts.dispose();
  }

  // --- one cell ----------------------------------------------------------------------------------

  private async execute(index: number, cell: NotebookCellData, signal: AbortSignal, onSubscribed: () => void): Promise<CellResult> {
    const t0 = performance.now();
    const line = this.lines[index];
    const analysed = analyseCell(cell, line);
    const ref: CellRef = { file: this.opts.file, cellIndex: index, line, name: analysed.attributes.name };
    const base: CellResult = {
      ...ref,
      service: cell.language as CellResult['service'],
      startedAt: new Date().toISOString(),
      ok: false,
      assertions: [],
      durationMs: 0,
    };
    const done = (r: CellResult): CellResult => ({ ...r, durationMs: performance.now() - t0 });
    if (analysed.problems.length) {
      return done({ ...base, error: analysed.problems.map((p) => `${this.opts.file}:${p.line}: ${p.message}`).join('\n') });
    }
    if (analysed.spec?.kind === 'vars') {
      const env = analysed.attributes.env;
      if (env !== undefined && env !== this.environment) return done({ ...base, ok: true, skipped: `applies to the environment "${quoteCut(env)}" only` });
      const variables = Object.fromEntries(analysed.spec.entries.map((e) => [e.name, e.value]));
      return done({ ...base, ok: true, variables });
    }

    let scope: VariableScope;
    let outcome: Outcome;
    const spec = analysed.spec;
    const scripted =
      analysed.scripts.length > 0 && spec?.kind === 'http' ? { ref, ownHeaders: analysed.language === 'http', scope: () => this.scope() } : undefined;
    const scriptChecks: AssertionResult[] = [];
    const logs: string[] = [];
    try {
      let toSend = analysed;
      if (scripted && spec?.kind === 'http') {
        const pre = await this.scripts.runPhase('pre', analysed.scripts, { ...scripted, spec });
        scriptChecks.push(...pre.tests);
        logs.push(...pre.logs);
        if (pre.error) return done({ ...base, error: pre.error, assertions: scriptChecks, ...(logs.length && { logs }) });
        if (pre.spec) toSend = { ...analysed, spec: pre.spec };
      }
      scope = this.scope();
      outcome = await this.send(ref, toSend, scope, signal, onSubscribed);
    } catch (e) {
      const needsConnection = e instanceof NotebookError ? e.needsConnection : undefined;
      return done({
        ...base,
        error: describe(e),
        ...(needsConnection && { needsConnection }),
        ...(scriptChecks.length && { assertions: scriptChecks }),
        ...(logs.length && { logs }),
      });
    }
    const result: CellResult = { ...base, connection: outcome.connection, request: outcome.request, response: outcome.response, count: outcome.count };
    if (outcome.listen) result.listen = outcome.listen;
    if (outcome.waits) result.waits = outcome.waits;
    const error = outcome.error;
    if (error !== undefined) {
      result.error = describe(error);
      if (isApiError(error) && error.kind === 'cancelled') result.cancelled = true;
      // An HTTP error answer is still an answer: its status can be asserted on.
      if (!result.response && isApiError(error) && error.status !== undefined && (error.kind === 'http' || error.kind === 'rate-limited')) {
        // Its body and headers as the server sent them (redacted with the rest of the result), so
        // `json` and `header` checks read a documented error answer; the service's words otherwise.
        const text = error.answer?.text ?? error.serviceMessage ?? '';
        result.response = {
          status: error.status,
          headers: error.answer ? this.opts.host.redactor.headers(error.answer.headers) : {},
          text,
          size: Buffer.byteLength(text),
          truncated: false,
          durationMs: performance.now() - t0,
          requestId: error.requestId,
        };
        const json = error.answer ? parseJson(text) : undefined;
        if (json?.ok) result.response.json = json.value;
      }
      if (analysed.language === 'llm') result.error = withRetiredModelAdvice(result.error, result.response, result.request?.body);
    }
    if (analysed.language === 'llm') {
      const llm = llmSummaryOf(result.response, result.request?.body);
      if (llm) result.llm = llm;
    }
    let scriptError: string | undefined;
    if (scripted && spec?.kind === 'http' && result.response && !result.cancelled) {
      const post = await this.scripts.runPhase('post', analysed.scripts, { ...scripted, spec, request: result.request, response: result.response });
      scriptChecks.push(...post.tests);
      logs.push(...post.logs);
      scriptError = post.error;
      // `??` lines below may read what the script set.
      scope = { ...scope, variables: this.scope().variables };
    }
    result.assertions.push(...scriptChecks);
    if (logs.length) result.logs = logs;
    for (const a of analysed.assertions) {
      try {
        // A schema file's path is taken as written: an earlier answer must not choose which file is read.
        const value = a.operator === 'matches schema' ? a.value : substitute(a.value, a.line, scope);
        if (!isModelCheck(a)) result.assertions.push(checkAssertion(a, value, result));
        else {
          const spec = a.subject.kind === 'similar' ? { ...a, subject: { ...a.subject, expected: substitute(a.subject.expected, a.line, scope) } } : a;
          result.assertions.push(await checkModelAssertion(spec, value, result, this.modelCheckContext(analysed, scope, signal)));
        }
      } catch (e) {
        result.assertions.push({ source: a.source, line: a.line, passed: false, expected: a.value, actual: describe(e) });
      }
    }
    const answered = result.response !== undefined && !result.cancelled;
    const statusAsserted = analysed.assertions.some((a) => a.subject.kind === 'status');
    const statusOk = result.response !== undefined && result.response.status < 400;
    const completed = answered && (statusOk ? !result.error : statusAsserted);
    if (scriptError) result.error = result.error ? `${result.error}\n${scriptError}` : scriptError;
    result.ok = completed && !scriptError && result.assertions.every((a) => a.passed);
    return done(result);
  }

  private async send(ref: CellRef, analysed: AnalysedCell, scope: VariableScope, signal: AbortSignal, onSubscribed: () => void): Promise<Outcome> {
    const spec = analysed.spec;
    const onRequest = (request: RequestRecord) => this.notifyRequest(ref, request);
    if (analysed.language === 'http' && spec?.kind === 'http') {
      // `{{baseUrl}}/pets`: only a vars cell's value may start the URL, filled in before the host is approved.
      const target = fillBaseVariable(spec.target, varsCellValues(this.cells, this.environment, this.lines), (detail) => {
        throw new NotebookError(ref.file, spec.line, detail);
      });
      const filled = { ...spec, target };
      const plan = await prepareOwnHttp(this.opts.host, ref, filled, analysed.assertions, signal);
      // Assertions read the same credentials: filled in after the request, from this scope.
      scope.system = plan.system;
      return this.sendHttp(ref, filled, undefined, plan.target, scope, signal, onRequest);
    }
    const service = analysed.language as 'llm' | 'maps' | 'realtime';
    const name = analysed.attributes.connection;
    const conn = this.opts.host.connection(service, name);
    const fail: TargetFail = (detail, needsConnection) => {
      throw new NotebookError(this.opts.file, spec && 'line' in spec ? spec.line : ref.line, detail, needsConnection);
    };
    if (!conn && name === undefined && spec?.kind === 'http' && service !== 'realtime') {
      // An absolute URL with no connection at all: the same refusal, naming the host it needs.
      const url = absoluteOrigin(spec.target, fail);
      if (url)
        return fail(
          `This request goes to ${url.host}; no ${CONNECTION_WORD[service]} connection is set up: add one (API Workbench: Connect…). Nothing was sent.`,
          { service, host: url.host },
        );
    }
    if (!conn || conn.service !== service) {
      const known = this.opts.host.connectionNames?.(service) ?? [];
      const detail =
        name === undefined
          ? `no ${service} connection is set up: add one (or start the sandbox)`
          : `no ${service} connection is named "${quoteCut(name)}"${known.length ? ` (there are: ${known.map((k) => `"${k}"`).join(', ')})` : ''}`;
      throw new NotebookError(this.opts.file, ref.line, detail);
    }
    if (spec?.kind === 'http') {
      const http = conn as HttpConnection;
      // The host is fixed here, from the text as written; substitution comes after.
      const target = resolveTarget(http, spec.target, fail, (origin) => this.connectionsWith(service, origin));
      return { connection: conn.name, ...(await this.sendHttp(ref, spec, http, target, scope, signal, onRequest)) };
    }
    // The realtime cells' modules (the Pusher protocol, ws, nacl) are imported by the first realtime
    // cell run, so a notebook of http cells does not load them (issue 39).
    const rt = { conn: conn as RealtimeConnection, host: this.opts.host, signal, onRequest };
    if (spec?.kind === 'publish') {
      const channel = substitute(spec.channel, spec.line, scope);
      const event = substitute(spec.event, spec.line, scope);
      const { runPublish } = await import('./realtimeCell');
      return { connection: conn.name, ...(await runPublish(rt, channel, event, substitute(spec.data, spec.line + 1, scope))) };
    }
    if (spec?.kind === 'listen') {
      const channel = substitute(spec.channel, spec.line, scope);
      const onMessage = (message: ListenMessage, count: number) => this.progress({ kind: 'message', cell: ref, message: this.redactValue(message), count });
      const { runListen } = await import('./realtimeCell');
      return {
        connection: conn.name,
        listen: { channel, windowMs: spec.durationMs },
        ...(await runListen(rt, channel, spec.durationMs, onMessage, onSubscribed)),
      };
    }
    if (spec?.kind === 'realtimeRest') {
      const args = spec.args.map((a) => substitute(a, spec.line, scope));
      const { runRealtimeRest } = await import('./realtimeRestCell');
      return { connection: conn.name, ...(await runRealtimeRest(rt, spec.op, args, substitute(spec.body, spec.line + 1, scope))) };
    }
    throw new NotebookError(this.opts.file, ref.line, 'the cell has nothing to run');
  }

  /** What judges, embeddings and schema files of a cell's checks are read through. */
  private modelCheckContext(analysed: AnalysedCell, scope: VariableScope, signal: AbortSignal): ModelCheckContext {
    const conn = analysed.language === 'llm' ? this.opts.host.connection('llm', analysed.attributes.connection) : undefined;
    return {
      host: this.opts.host,
      connection: conn?.service === 'llm' ? conn : undefined,
      baseDir: this.opts.baseDir,
      judgeModel: this.opts.judgeModel ?? scope.variables.get('judge'),
      embeddingModel: scope.variables.get('embedding'),
      signal,
      // Only as written in a vars cell: an answer or a script must not choose which file is read.
      specRef: varsCellValues(this.cells, this.environment, this.lines).get(SPEC_VARIABLE),
    };
  }

  /** Names of the service's connections that have `origin` (for a refusal that says which one to name). */
  private connectionsWith(service: 'llm' | 'maps' | 'realtime', origin: string): string[] {
    const host = this.opts.host;
    return (host.connectionNames?.(service) ?? []).filter((n) => {
      const c = host.connection(service, n);
      return c !== undefined && connectionOrigins(c).includes(origin);
    });
  }

  private async sendHttp(
    ref: CellRef,
    spec: HttpSpec,
    conn: HttpConnection | undefined,
    target: HttpTarget,
    scope: VariableScope,
    signal: AbortSignal,
    onRequest: (r: RequestRecord) => void,
  ) {
    const headers: Record<string, string> = {};
    for (const h of spec.headers) headers[h.name.toLowerCase()] = substitute(h.value, h.line, scope);
    const body = await assembleBody({ raw: spec.body, line: bodyLineOf(spec), contentType: headers['content-type'], scope, baseDir: this.opts.baseDir });
    return runHttpCell({
      spec,
      conn,
      host: this.opts.host,
      target,
      path: substitute(spec.target, spec.line, scope),
      headers,
      body: body.body,
      bodyText: body.text,
      maxBodyBytes: this.opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      cellTimeoutMs: this.opts.cellTimeoutMs,
      signal,
      file: this.opts.file,
      onRequest,
      onText: (delta, text) => this.progress({ kind: 'text', cell: ref, delta: this.opts.host.redactor.text(delta), text: this.opts.host.redactor.text(text) }),
    });
  }

  /** Variables visible to cell `index`: vars cells of the notebook (plain, then the environment's), then extra ones. */
  private scope(): VariableScope {
    const plain = new Map<string, string>();
    const forEnv = new Map<string, string>();
    const cellNames = new Set<string>();
    this.cells.forEach((cell, i) => {
      if (cell.kind !== 'code') return;
      const name = cell.metadata.attributes?.name;
      if (name !== undefined && cell.language !== 'vars') cellNames.add(name);
      if (cell.language !== 'vars') return;
      const env = cell.metadata.attributes?.env;
      if (env !== undefined && env !== this.environment) return;
      const analysed = analyseCell(cell, this.lines[i]);
      if (analysed.spec?.kind !== 'vars') return;
      for (const e of analysed.spec.entries) {
        // A secret of the run, whole: not a piece of one (a zip code a random key ends in) nor a name like token=.
        if (this.opts.host.redactor.holdsSecret(e.value))
          throw new NotebookError(this.opts.file, e.line, `the value of "${e.name}" is a secret: secrets never go in vars`);
        (env === undefined ? plain : forEnv).set(e.name, e.value);
      }
    });
    // What scripts set is the newest value: it wins over the notebook's and the run's own.
    const variables = new Map([...plain, ...forEnv, ...Object.entries(this.opts.variables ?? {}), ...this.scripts.variables]);
    return { file: this.opts.file, variables, cellNames, result: (name) => this.results.get(name) };
  }

  private notifyRequest(cell: CellRef, request: RequestRecord): void {
    try {
      this.opts.host.onRequest?.(cell, request);
    } catch {
      // An observer's bug must not fail the request.
    }
    this.progress({ kind: 'request', cell, request });
  }

  private progress(p: Parameters<NonNullable<RunOptions['onProgress']>>[0]): void {
    try {
      this.opts.onProgress?.(p);
    } catch {
      // A display bug must not stop the run.
    }
  }

  /** Every string of the result through the Redactor, in slices: a 20 MB answer has millions. */
  private redact(result: CellResult): Promise<CellResult> {
    return redactTreeSliced(result, this.opts.host.redactor);
  }

  private redactValue<T>(value: T): T {
    return redactTree(value, this.opts.host.redactor);
  }
}

function describe(e: unknown): string {
  if (e instanceof NotebookError) return e.message;
  if (isApiError(e)) return e.describe();
  return errorText(e);
}

/** A runner over a notebook's cells (the editor keeps one per open notebook). */
export function createRunner(cells: readonly NotebookCellData[], opts: RunOptions): NotebookRunner {
  return new Runner(cells, opts);
}

/** Parses `text` and runs every code cell in order (the CLI). Parse problems fail the report. */
export async function runNotebook(text: string, opts: RunOptions, cancel?: Cancel): Promise<NotebookRunReport> {
  const parsed = parseNotebook(text, opts.file);
  const runner = createRunner(parsed.cells, opts);
  try {
    const results = await runner.runAll(cancel);
    const problems: NotebookProblem[] = parsed.problems;
    return { file: opts.file, ok: problems.length === 0 && results.every((r) => r.ok), problems, results };
  } finally {
    runner.dispose();
  }
}
