// --record <dir>, --replay <dir> [--record-missing]: the run's cassette (notebook/cassette), one
// pretty JSON file per notebook under <dir>, at the notebook's path relative to the current folder
// (a notebook outside it by its file name), so `git diff` of the folder reads like the notebooks.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setExchangeHook } from '../core/httpExchange';
import type { Redactor } from '../core/redact';
import { Cassette, sandboxAliases, type CassetteMode, type CassetteStorage } from '../notebook/cassetteApi';
import type { SandboxEndpoints } from '../core/connections';
import { CliError } from './errors';
import { readInputFileIfExists } from './textFile';

export interface CassetteArgs {
  record?: string;
  replay?: string;
  recordMissing: boolean;
}

function fileFor(dir: string, notebook: string): string {
  const rel = path.relative(process.cwd(), path.resolve(notebook));
  const inside = rel && !rel.startsWith('..') && !path.isAbsolute(rel);
  return path.join(dir, `${inside ? rel : path.basename(notebook)}.json`);
}

function folderStorage(dir: string): CassetteStorage {
  return {
    read: (notebook) => readInputFileIfExists(fileFor(dir, notebook), 'recording (--replay)'),
    write: (notebook, text) => {
      const file = fileFor(dir, notebook);
      try {
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, text);
      } catch (e) {
        throw new CliError(`${file}: cannot write the recording (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
      }
    },
    where: (notebook) => fileFor(dir, notebook),
  };
}

/** The cassette this run asks for, with its hook set on every client; undefined without --record / --replay. */
export function openCassette(
  args: CassetteArgs,
  redactor: Redactor,
  sandbox: SandboxEndpoints | undefined,
): { cassette: Cassette; close: () => string[] } | undefined {
  const dir = args.record ?? args.replay;
  if (dir === undefined) return undefined;
  const mode: CassetteMode = args.record !== undefined ? 'record' : args.recordMissing ? 'record-missing' : 'replay';
  const cassette = new Cassette(mode, folderStorage(dir), redactor, sandboxAliases(sandbox));
  const unset = setExchangeHook(cassette.hook);
  return {
    cassette,
    close: () => {
      unset();
      return cassette.save();
    },
  };
}
