// A cell's scripts in a run: pre-request scripts before its request is built, post-response scripts
// on its answer. What they set becomes {{name}} for the cells below (ScriptSession.variables, read
// by the runner's scope); each pm.test / client.test becomes a check like a `??` line; logs and notes
// go to the cell's output. Everything a script gives back passes the run's redactor.
import path from 'node:path';
import { errorText } from '../../core/errors';
import type { HttpSpec } from '../cells';
import { readIncluded } from '../requestBody';
import type { AssertionResult, CellRef, NotebookHost, RequestRecord, ResponseRecord } from '../types';
import { SCRIPT_TEST_EXPECTED } from '../../core/scriptTests';
import type { VariableScope } from '../variables';
import type { CellScript } from './cellScripts';
import type { ScriptRun } from './engine';
import { limitSentence, type ScriptLimits } from '../../core/scriptLimits';
import type { ScriptInput, ScriptPhase } from './model';
import { applyRequestEdits, headersOf, requestViewOfRecord, requestViewOfSpec } from './requestEdit';
import { ScriptWorkerEngine } from './workerHost';

export interface ScriptSessionOptions {
  host: NotebookHost;
  /** The notebook's path as shown in errors. */
  file: string;
  /** The notebook's folder: `< ./script.js` files are read from it (or below). */
  baseDir?: string;
  limits?: Partial<ScriptLimits>;
}

export interface PhaseOutcome {
  tests: AssertionResult[];
  logs: string[];
  /** A pre-request phase: the cell's request after the scripts' edits. */
  spec?: HttpSpec;
  /** Why the cell fails (a script threw, hit a limit, or made a request that cannot be sent). */
  error?: string;
}

const PHASE_WORD: Record<ScriptPhase, string> = { pre: 'pre-request script', post: 'response script' };

export class ScriptSession {
  private engine: ScriptWorkerEngine | undefined;
  /** What scripts set in this run, by name (a value of null never lands here: unset deletes). */
  readonly variables = new Map<string, string>();

  constructor(private readonly opts: ScriptSessionOptions) {}

  clear(): void {
    this.variables.clear();
  }

  /** Loads the engine ahead of the first script (a notebook with scripts opened, or a run of one started). */
  warm(): void {
    // An untrusted workspace runs no script, so it starts no engine either.
    const refusal = this.opts.host.mayRunScripts?.();
    if (refusal !== undefined && refusal !== true) return;
    (this.engine ??= new ScriptWorkerEngine(this.opts.limits)).warm();
  }

  dispose(): void {
    this.engine?.dispose();
    this.engine = undefined;
  }

  /** Runs the cell's scripts of one phase in order; stops at the first that fails. */
  async runPhase(
    phase: ScriptPhase,
    scripts: readonly CellScript[],
    cell: { ref: CellRef; spec: HttpSpec; ownHeaders: boolean; scope: () => VariableScope; request?: RequestRecord; response?: ResponseRecord },
  ): Promise<PhaseOutcome> {
    const out: PhaseOutcome = { tests: [], logs: [] };
    const mine = scripts.filter((s) => s.phase === phase);
    if (mine.length === 0) return out;
    const refusal = this.opts.host.mayRunScripts?.();
    if (refusal !== undefined && refusal !== true) return { ...out, error: `${this.opts.file}:${mine[0].line}: ${refusal}` };
    const redactor = this.opts.host.redactor;
    let spec = cell.spec;
    for (const script of mine) {
      const where = (line: number | undefined) => this.location(script, line);
      let source: string;
      try {
        source = script.source ?? (await this.readScriptFile(script, cell.scope()));
      } catch (e) {
        return { ...out, error: errorText(e) };
      }
      const input: ScriptInput = {
        phase,
        requestName: cell.ref.name ?? `${path.basename(this.opts.file)}:${cell.spec.line}`,
        variables: Object.fromEntries(cell.scope().variables),
        request: phase === 'pre' ? requestViewOfSpec(spec) : requestViewOfRecord(cell.request, spec),
        ...(phase === 'post' && cell.response && { response: this.responseView(cell.response) }),
      };
      const engine = (this.engine ??= new ScriptWorkerEngine(this.opts.limits));
      let run: ScriptRun;
      try {
        run = await engine.run(source, input);
      } catch (e) {
        this.dispose();
        return { ...out, error: `${where(undefined)}: the ${PHASE_WORD[phase]} ${this.cellWords(cell.ref)}did not run: ${errorText(e)}` };
      }
      out.logs.push(...run.logs.map((l) => redactor.text(l)));
      const output = run.output;
      if (output) {
        for (const [name, value] of Object.entries(output.variables)) {
          if (value === null) this.variables.delete(name);
          else this.variables.set(name, redactor.maskSecrets(value));
        }
        for (const note of output.notes) out.logs.push(`${where(note.line)}: ${redactor.text(note.message)}`);
        for (const t of output.tests) {
          out.tests.push({
            source: redactor.text(t.name),
            line: this.fileLine(script, t.line),
            passed: t.passed,
            expected: SCRIPT_TEST_EXPECTED,
            actual: t.passed ? SCRIPT_TEST_EXPECTED : redactor.text(t.message ?? 'failed'),
          });
        }
        if (phase === 'pre' && output.request) {
          const edited = applyRequestEdits(spec, output.request, cell.ownHeaders);
          if (typeof edited === 'string')
            return {
              ...out,
              error: `${where(undefined)}: the ${PHASE_WORD[phase]} ${this.cellWords(cell.ref)}changed the request so that it cannot be sent: ${edited}`,
            };
          spec = edited;
        }
      }
      if (run.failure) {
        const f = run.failure;
        const what = `the ${PHASE_WORD[phase]} ${this.cellWords(cell.ref)}`;
        const error = f.limit
          ? `${where(f.line)}: ${what}was stopped: ${limitSentence(f.limit, engine.limits)}`
          : `${where(f.line)}: ${what}failed: ${redactor.text(f.message)}`;
        return { ...out, error };
      }
    }
    return phase === 'pre' ? { ...out, spec } : out;
  }

  private cellWords(ref: CellRef): string {
    return ref.name ? `of cell "${ref.name}" ` : `of the cell at line ${ref.line} `;
  }

  /** `tour.awb.md:14` for inline code, `scripts/check.js:3` for a script file. */
  private location(script: CellScript, line: number | undefined): string {
    if (script.file !== undefined) return line === undefined ? `${this.opts.file}:${script.line}` : `${script.file}:${line}`;
    return `${this.opts.file}:${this.fileLine(script, line)}`;
  }

  /** The notebook line of a script's line (a script file: the line naming it). */
  private fileLine(script: CellScript, line: number | undefined): number {
    return script.file !== undefined || line === undefined ? script.line : script.line + line - 1;
  }

  private async readScriptFile(script: CellScript, scope: VariableScope): Promise<string> {
    const bytes = await readIncluded(
      script.file!,
      { raw: undefined, line: script.line, contentType: undefined, scope, baseDir: this.opts.baseDir },
      script.line,
    );
    return Buffer.from(bytes).toString('utf8');
  }

  private responseView(response: ResponseRecord): NonNullable<ScriptInput['response']> {
    const redactor = this.opts.host.redactor;
    return {
      code: response.status,
      headers: headersOf(redactor.headers(response.headers)),
      body: redactor.maskSecrets(response.text),
      responseTime: Math.round(response.durationMs),
      size: response.size,
    };
  }
}
