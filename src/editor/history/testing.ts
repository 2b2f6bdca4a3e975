// The assertions of `*.awb.md` notebooks in VS Code's Testing view: one test per request cell,
// grouped by file, run through the engine in file order (earlier cells feed later ones' variables),
// failures shown with the expected and actual value at the assertion's line.
import vscode from 'vscode';
import { createRunner, parseNotebook, serializeNotebook, type CellResult, type NotebookCellData, type ParsedNotebook } from '../../notebook/api';
import { editorNotebookHost } from '../notebookHost';
import type { Services } from '../services';
import { NOTEBOOK_TYPE } from '../../features/ids';
import { Disposable } from '../disposable';
import { SCRIPT_TEST_EXPECTED } from '../../core/scriptTests';

const GLOB = '**/*.awb.md';
const EXCLUDE = '**/node_modules/**';

/** 1-based line of each cell's first line (a code cell: its opening fence), from the parser's layout. */
function cellLines(nb: ParsedNotebook): number[] {
  const breaks = (t: string) => (t.match(/\r\n|\r|\n/g) ?? []).length;
  let line = 1;
  return nb.cells.map((c) => {
    const l = c.metadata.layout;
    const start = line + breaks(l?.before ?? '');
    line = start + breaks(l?.core ?? '') + breaks(l?.after ?? '');
    return start;
  });
}

function cellLabel(cell: NotebookCellData, index: number): string {
  const name = cell.metadata.attributes?.name;
  const first =
    cell.value
      .split(/\r\n|\r|\n/)
      .find((l) => l.trim() !== '' && !l.trim().startsWith('#'))
      ?.trim() ?? '';
  return name ? `${name}: ${first}` : first || `cell ${index + 1}`;
}

/** The cells of a notebook as the engine reads them (an open notebook's current cells, else the file). */
async function readNotebook(uri: vscode.Uri): Promise<ParsedNotebook> {
  const open = vscode.workspace.notebookDocuments.find((d) => d.notebookType === NOTEBOOK_TYPE && d.uri.toString() === uri.toString());
  const text = open
    ? serializeNotebook({
        cells: open.getCells().map((c) => ({
          kind: c.kind === vscode.NotebookCellKind.Code ? 'code' : 'markup',
          language: c.document.languageId,
          value: c.document.getText(),
          metadata: { ...(c.metadata as NotebookCellData['metadata']) },
        })),
      })
    : Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
  return parseNotebook(text, uri.fsPath || uri.toString());
}

export class NotebookTests extends Disposable {
  private watching = false;

  constructor(
    private readonly s: Services,
    private readonly controller: vscode.TestController,
  ) {
    super();
  }

  /** The Testing view asks for the files (item undefined), or a file's cells. */
  async resolve(item: vscode.TestItem | undefined): Promise<void> {
    if (item) return this.refreshFile(item.uri!);
    this.watch();
    const files = await vscode.workspace.findFiles(GLOB, EXCLUDE);
    for (const d of vscode.workspace.notebookDocuments)
      if (d.notebookType === NOTEBOOK_TYPE && !files.some((f) => f.toString() === d.uri.toString())) files.push(d.uri);
    await Promise.all(files.map((f) => this.refreshFile(f)));
  }

  /** (Re)reads a file's request cells into test items; a file without any disappears. */
  async refreshFile(uri: vscode.Uri): Promise<void> {
    const id = uri.toString();
    let nb: ParsedNotebook;
    try {
      nb = await readNotebook(uri);
    } catch {
      this.controller.items.delete(id);
      return;
    }
    const lines = cellLines(nb);
    const children: vscode.TestItem[] = [];
    nb.cells.forEach((cell, index) => {
      if (cell.kind !== 'code' || cell.language === 'vars') return;
      const child = this.controller.createTestItem(`${id}#${index}`, cellLabel(cell, index), uri);
      child.range = new vscode.Range(lines[index] - 1, 0, lines[index] - 1, 0);
      children.push(child);
    });
    if (!children.length) {
      this.controller.items.delete(id);
      return;
    }
    const file = this.controller.items.get(id) ?? this.controller.createTestItem(id, uri.path.split('/').pop() ?? id, uri);
    file.children.replace(children);
    file.error = nb.problems.length ? new vscode.MarkdownString().appendText(nb.problems.map((p) => `line ${p.line}: ${p.message}`).join('\n')) : undefined;
    this.controller.items.add(file);
  }

  private watch(): void {
    if (this.watching) return;
    this.watching = true;
    const watcher = vscode.workspace.createFileSystemWatcher(GLOB);
    for (const d of [
      watcher,
      watcher.onDidCreate((u) => void this.refreshFile(u)),
      watcher.onDidChange((u) => void this.refreshFile(u)),
      watcher.onDidDelete((u) => this.controller.items.delete(u.toString())),
      vscode.workspace.onDidOpenNotebookDocument((d) => d.notebookType === NOTEBOOK_TYPE && void this.refreshFile(d.uri)),
      vscode.workspace.onDidSaveNotebookDocument((d) => d.notebookType === NOTEBOOK_TYPE && void this.refreshFile(d.uri)),
    ])
      this.register(d);
  }

  /** Runs the requested cells; each file's cells run in order up to the last one asked for. */
  async run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const run = this.controller.createTestRun(request);
    try {
      if (!request.include) await this.resolve(undefined);
      const wanted = new Map<string, Set<string>>();
      const excluded = new Set((request.exclude ?? []).map((t) => t.id));
      for (const asked of request.include ?? [...this.collectRoots()]) {
        // A script's test (a cell's child) runs its cell.
        const item = asked.parent?.parent ? asked.parent : asked;
        const fileId = item.parent?.id ?? item.id;
        const set = wanted.get(fileId) ?? new Set<string>();
        if (item.parent) set.add(item.id);
        else item.children.forEach((c) => void set.add(c.id));
        wanted.set(fileId, set);
      }
      for (const [fileId, ids] of wanted) {
        if (token.isCancellationRequested) break;
        const file = this.controller.items.get(fileId);
        if (file?.uri) await this.runFile(run, file, new Set([...ids].filter((i) => !excluded.has(i))), token);
      }
    } finally {
      run.end();
    }
  }

  /**
   * Results of cells run in the notebook editor, shown as a run of their test items (a file the
   * Testing view has not listed yet is read first).
   */
  async reportNotebookRun(uri: vscode.Uri, results: readonly CellResult[]): Promise<void> {
    const itemOf = (r: CellResult) => this.controller.items.get(uri.toString())?.children.get(`${uri.toString()}#${r.cellIndex}`);
    if (results.some((r) => !itemOf(r))) await this.refreshFile(uri);
    const reported = results.map((r) => [r, itemOf(r)] as const).filter((x): x is readonly [CellResult, vscode.TestItem] => x[1] !== undefined);
    if (!reported.length) return;
    const run = this.controller.createTestRun(new vscode.TestRunRequest(reported.map(([, item]) => item)), 'Notebook run', false);
    try {
      for (const [r, item] of reported) this.report(run, item, uri, r);
    } finally {
      run.end();
    }
  }

  private *collectRoots(): Generator<vscode.TestItem> {
    for (const [, item] of this.controller.items) yield item;
  }

  private async runFile(run: vscode.TestRun, file: vscode.TestItem, ids: Set<string>, token: vscode.CancellationToken): Promise<void> {
    const uri = file.uri!;
    const nb = await readNotebook(uri);
    const items = new Map<number, vscode.TestItem>();
    file.children.forEach((c) => {
      if (ids.has(c.id)) items.set(Number(c.id.slice(c.id.lastIndexOf('#') + 1)), c);
    });
    for (const item of items.values()) run.enqueued(item);
    const last = Math.max(-1, ...items.keys());
    const host = editorNotebookHost(this.s);
    const runner = createRunner(nb.cells, { host, file: uri.fsPath || uri.toString() });
    const pending: Array<Promise<void>> = [];
    try {
      for (let i = 0; i <= last; i++) {
        if (nb.cells[i]?.kind !== 'code') continue;
        const item = items.get(i);
        if (token.isCancellationRequested) {
          if (item) run.skipped(item);
          continue;
        }
        if (item) run.started(item);
        // As under Run All: a LISTEN keeps listening while the cells below it run.
        const cell = runner.startCell(i, token);
        pending.push(cell.result.then((result) => item && this.report(run, item, uri, result)));
        await cell.ready;
      }
      await Promise.all(pending);
    } finally {
      runner.dispose();
    }
  }

  private report(run: vscode.TestRun, item: vscode.TestItem, uri: vscode.Uri, r: CellResult): void {
    const at = (line: number) => new vscode.Location(uri, new vscode.Position(Math.max(0, line - 1), 0));
    const summary = r.request
      ? `${r.request.method} ${r.request.url}${r.response ? ` → ${r.response.status} (${Math.round(r.response.durationMs)} ms)` : ''}`
      : '';
    if (summary) run.appendOutput(`${summary}\r\n`, at(r.line), item);
    // A judge's reason, pass or fail, at its check's line: a pass is only as good as why it passed.
    for (const a of r.assertions)
      if (a.reason !== undefined)
        run.appendOutput(`${a.source.trim()}: ${a.passed ? 'pass' : 'fail'} (judge ${a.judgeModel ?? ''}): ${a.reason}\r\n`, at(a.line), item);
    this.reportScriptTests(run, item, uri, r);
    if (r.skipped !== undefined || r.cancelled) return run.skipped(item);
    if (r.ok) return run.passed(item, r.durationMs);
    const failed = r.assertions.filter((a) => !a.passed);
    const messages = failed.map((a) => {
      // `== 200` against `404` reads best as 200 against 404; other operators keep theirs.
      const m =
        a.expected === SCRIPT_TEST_EXPECTED
          ? new vscode.TestMessage(`${a.source}: ${a.actual}`)
          : vscode.TestMessage.diff(`${a.source.trim()}: expected ${a.expected}, got ${a.actual}`, a.expected.replace(/^== /, ''), a.actual);
      m.location = at(a.line);
      return m;
    });
    if (r.error !== undefined) {
      const m = new vscode.TestMessage(r.error);
      m.location = at(r.line);
      return run.errored(item, [m, ...messages], r.durationMs);
    }
    if (!messages.length) {
      // An HTTP error status and no `?? status` line: the request itself failed.
      const m = new vscode.TestMessage(`${summary || 'The request'} did not succeed`);
      m.location = at(r.line);
      messages.push(m);
    }
    run.failed(item, messages, r.durationMs);
  }

  /**
   * A script's tests (pm.test, client.test) are known by name only once the cell ran: each becomes
   * a child of its cell's item with its own outcome, named as in JUnit (`<cell> › <test>`).
   */
  private reportScriptTests(run: vscode.TestRun, item: vscode.TestItem, uri: vscode.Uri, r: CellResult): void {
    const tests = r.assertions.filter((a) => a.expected === SCRIPT_TEST_EXPECTED);
    const children = tests.map((a) => {
      const child = item.children.get(`${item.id}/${a.source}`) ?? this.controller.createTestItem(`${item.id}/${a.source}`, a.source, uri);
      child.range = new vscode.Range(Math.max(0, a.line - 1), 0, Math.max(0, a.line - 1), 0);
      return child;
    });
    item.children.replace(children);
    tests.forEach((a, i) => {
      if (a.passed) return run.passed(children[i]);
      const m = new vscode.TestMessage(a.actual);
      m.location = new vscode.Location(uri, children[i].range!);
      run.failed(children[i], m);
    });
  }
}
