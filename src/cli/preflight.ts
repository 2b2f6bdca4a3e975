// Everything checked before the first request, so a run that cannot be made stops with exit 2 and
// sends nothing: every notebook reads cleanly, every cell's connection exists, every key variable
// those connections need is set.
import { quoteCut } from '../core/quote';
import { connectionId, type ServiceId } from '../core/connections';
import { parseNotebook, type NotebookCellData } from '../notebook/runApi';
import { cellStartLines } from '../notebook/runApi';
import { CliError } from './errors';
import { readTextFile } from './textFile';
import { errorText } from '../core/errors';

export interface LoadedNotebook {
  file: string;
  text: string;
  cells: NotebookCellData[];
}

/** Reads and parses each file; all problems of all files in one error, each as file:line: message. */
export function loadNotebooks(files: readonly string[]): LoadedNotebook[] {
  const problems: string[] = [];
  const out: LoadedNotebook[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readTextFile(file, 'notebook');
    } catch (e) {
      problems.push(errorText(e));
      continue;
    }
    const parsed = parseNotebook(text, file);
    for (const p of parsed.problems) problems.push(`${p.file}:${p.line}: ${p.message}`);
    out.push({ file, text, cells: parsed.cells });
  }
  if (problems.length) throw new CliError(problems.join('\n'));
  // A run that has nothing to run is a mistake (a wrong file, an empty file, a notebook written in
  // another format), not a pass: "0 passed" with exit 0 would turn a CI job green.
  if (!out.some((nb) => nb.cells.some((c) => c.kind === 'code' && (SERVICES.has(c.language) || c.language === 'http')))) {
    const names = out.map((nb) => nb.file).join(', ');
    throw new CliError(`${names}: no request cells to run (an API notebook has \`\`\`llm, \`\`\`maps, \`\`\`realtime or \`\`\`http cells)`);
  }
  return out;
}

export interface NamedConnection {
  service: ServiceId;
  name: string;
}

const SERVICES = new Set<string>(['llm', 'maps', 'realtime']);

/**
 * The connections the notebooks' cells use (the first of a service when a cell names none).
 * An unknown name, or a service with no connection at all, is an error naming file:line.
 */
export function usedConnections(notebooks: readonly LoadedNotebook[], available: readonly NamedConnection[], hint: string): NamedConnection[] {
  const used = new Map<string, NamedConnection>();
  const problems: string[] = [];
  for (const nb of notebooks) {
    const lines = cellStartLines(nb.cells);
    nb.cells.forEach((cell, i) => {
      if (cell.kind !== 'code' || !SERVICES.has(cell.language)) return;
      const service = cell.language as ServiceId;
      const ofService = available.filter((c) => c.service === service);
      const wanted = cell.metadata.attributes?.connection;
      const found = wanted === undefined ? ofService[0] : ofService.find((c) => c.name === wanted);
      if (found) {
        used.set(connectionId(found), found);
        return;
      }
      const where = `${nb.file}:${lines[i]}`;
      if (wanted === undefined) problems.push(`${where}: no ${service} connection: ${hint}`);
      else {
        const known = ofService.map((c) => `"${c.name}"`).join(', ');
        problems.push(`${where}: no ${service} connection is named "${quoteCut(wanted)}" (${known ? `there are: ${known}` : hint})`);
      }
    });
  }
  if (problems.length) throw new CliError(problems.join('\n'));
  return [...used.values()];
}
