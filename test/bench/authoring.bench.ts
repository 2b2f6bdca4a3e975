// Cells that write themselves (issue 28): on a 500-cell notebook, a completion and a hover as the
// editor makes them (the notebook's context built anew, then the cell's answer), the diagnostics
// of an edited cell, and `api-workbench check` over 100 notebooks as a whole process.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cellCompletions, cellDiagnostics, cellHover, notebookContext, type CellInput } from '../../src/catalogue';
import { parseNotebook, type CellResult, type NotebookCellData } from '../../src/notebook/api';
import { percentile, type BenchReporter } from './report';

const CELLS = 500;
const RUNS = 400;
const ROOT = path.resolve(__dirname, '../../..');
const CLI = path.join(ROOT, 'dist/cli.js');
const EXAMPLE = path.join(ROOT, 'examples/sandbox-tour.awb.md');

/** A notebook of `cells` request cells of every kind, referring to variables and to each other. */
function bigNotebook(cells: number): string {
  const out = ['# Big notebook\n', '```vars\ncity = Lisbon\nquestion = What to see in\n```\n', '```vars env=staging\ncity = Porto\n```\n'];
  for (let i = 0; i < cells; i++) {
    switch (i % 4) {
      case 0:
        out.push(`\`\`\`llm name=models${i}\nGET /models\n\n?? status == 200\n?? json.data[0].id exists\n\`\`\`\n`);
        break;
      case 1:
        out.push(
          `\`\`\`llm name=chat${i}\nPOST /chat/completions\nContent-Type: application/json\n\n{"model": "{{models${i - 1}.json.data[0].id}}", "messages": [{"role": "user", "content": "{{question}} {{city}}?"}]}\n\n?? status == 200\n\`\`\`\n`,
        );
        break;
      case 2:
        out.push(
          `\`\`\`maps name=place${i}\nPOST /v1/places:searchText\nX-Goog-FieldMask: places.id,places.displayName,places.rating\n\n{"textQuery": "{{city}}"}\n\n?? json.places[0].displayName.text contains {{city}}\n\`\`\`\n`,
        );
        break;
      default:
        out.push(`\`\`\`realtime name=listen${i}\nLISTEN demo-ticker 2s\n\n?? count >= 1\n\`\`\`\n`);
    }
  }
  return out.join('\n');
}

const offered = Array.from({ length: 50 }, (_, i) => ({ id: `model-${i}` }));

const models: CellResult = {
  file: 'big.awb.md',
  cellIndex: 0,
  line: 1,
  service: 'llm',
  startedAt: '2026-01-01T00:00:00Z',
  ok: true,
  assertions: [],
  durationMs: 1,
  response: {
    status: 200,
    headers: {},
    text: '',
    json: { data: offered },
    size: 0,
    truncated: false,
    durationMs: 1,
  },
};

function timed(fn: () => unknown): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

export default function authoringBench(r: BenchReporter): void {
  r.section('Writing cells (500-cell notebook)');
  const cells: NotebookCellData[] = parseNotebook(bigNotebook(CELLS)).cells;
  const context = () =>
    notebookContext(cells, {
      result: (name) => (name.startsWith('models') ? models : undefined),
      models: () => offered,
    });
  const chats = cells.map((c, index) => ({ c, index })).filter(({ c }) => c.metadata.attributes?.name?.startsWith('chat'));
  const input = (index: number): CellInput => ({
    index,
    language: cells[index].language,
    value: cells[index].value,
    attributes: cells[index].metadata.attributes ?? {},
  });

  // Each keystroke builds the context anew, as the editor's providers do.
  const completion: number[] = [];
  const hover: number[] = [];
  const diagnostics: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const { index } = chats[run % chats.length];
    const cell = input(index);
    const inPath = cell.value.indexOf('json.data[0].') + 'json.data[0].'.length;
    const inBody = cell.value.indexOf('"messages"') + 1;
    const onVariable = cell.value.indexOf('{{city}}') + 3;
    completion.push(timed(() => cellCompletions(cell, run % 2 ? inPath : inBody, context())));
    hover.push(timed(() => cellHover(cell, onVariable, context())));
    diagnostics.push(timed(() => cellDiagnostics(cell, context())));
  }
  r.metric('completion p99', percentile(completion, 99), ' ms', { atMost: 20 });
  r.metric('hover p99', percentile(hover, 99), ' ms', { atMost: 10 });
  r.metric('diagnostics of the edited cell p99 (after the debounce)', percentile(diagnostics, 99), ' ms', { atMost: 30 });

  r.section('api-workbench check');
  const dir = mkdtempSync(path.join(tmpdir(), 'awb-check-bench-'));
  const example = readFileSync(EXAMPLE, 'utf8');
  for (let i = 0; i < 100; i++) writeFileSync(path.join(dir, `notebook-${String(i).padStart(3, '0')}.awb.md`), example);
  const t0 = performance.now();
  const run = spawnSync(process.execPath, [CLI, 'check', dir], { encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (run.status !== 0 || !/100 notebooks checked: 0 errors/.test(run.stderr))
    throw new Error(`check did not pass the 100 notebooks:\n${run.stdout}${run.stderr}`);
  r.metric('check over 100 notebooks (whole process)', ms, ' ms', { atMost: 1000 });
}
