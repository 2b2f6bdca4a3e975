// Record Run and Run from Recording: the CLI's --record / --replay (notebook/cassette) on the open
// notebook. The recording is the file the CLI reads: `recordings/<notebook path>.json` in the
// notebook's workspace folder, so `api-workbench run <notebook> --replay recordings`, run from that
// folder, replays what the editor recorded (and the other way round).
import { mkdir, realpath, rename, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import vscode from 'vscode';
import { FileRefusal, readFileInside } from '../../core/fileGate';
import { MAX_RECORDING_BYTES } from '../../core/recording/file';
import { Cassette, sandboxAliases, type CassetteMode, type CellResult } from '../../notebook/api';
import { inRecordedRun } from '../../features/notebook/recordingScope';
import type { CommandTable } from '../commands';
import type { Services } from '../services';
import type { NotebookRunController } from './controller';
import { notebookOf } from './environments';

/** The folder, in the notebook's workspace folder, that holds the recordings (the CLI's `--replay recordings`). */
export const RECORDINGS_FOLDER = 'recordings';

interface RecordingPlace {
  folder: string;
  /** The notebook's path in its workspace folder, as the cassette names it (and the CLI, run from that folder). */
  notebook: string;
  /** The recording, relative to the workspace folder: `recordings/tour.awb.md.json`. */
  relative: string;
  file: string;
}

function placeOf(doc: vscode.NotebookDocument): RecordingPlace {
  const folder = doc.uri.scheme === 'file' ? vscode.workspace.getWorkspaceFolder(doc.uri) : undefined;
  if (!folder || folder.uri.scheme !== 'file')
    throw new Error(`Save ${path.posix.basename(doc.uri.path)} in a workspace folder first: its recording is kept there, in ${RECORDINGS_FOLDER}/.`);
  const notebook = path.relative(folder.uri.fsPath, doc.uri.fsPath);
  const relative = path.join(RECORDINGS_FOLDER, `${notebook}.json`);
  return { folder: folder.uri.fsPath, notebook, relative, file: path.join(folder.uri.fsPath, relative) };
}

/** The recording's text, read through the file gate (a link in the workspace cannot lead out of it); undefined when there is none. */
async function readRecording(place: RecordingPlace): Promise<string | undefined> {
  try {
    const bytes = await readFileInside(place.relative, {
      folder: place.folder,
      folderName: 'the workspace folder',
      use: 'replayed',
      example: `./${RECORDINGS_FOLDER}/<notebook>.json`,
      maxBytes: MAX_RECORDING_BYTES,
    });
    return bytes.toString('utf8');
  } catch (e) {
    if (e instanceof FileRefusal && e.reason === 'missing') return undefined;
    throw new Error(`${place.relative}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

/**
 * Writes the recording inside the workspace folder only: the folder's real path is checked, and the
 * file is replaced by a rename (a link planted at its name is replaced, never written through).
 */
async function writeRecording(place: RecordingPlace, text: string): Promise<void> {
  const dir = path.dirname(place.file);
  await mkdir(dir, { recursive: true });
  const [realFolder, realDir] = await Promise.all([realpath(place.folder), realpath(dir)]);
  const rel = path.relative(realFolder, realDir);
  if (rel.startsWith('..') || path.isAbsolute(rel))
    throw new Error(`${path.dirname(place.relative)} leads out of the workspace folder through a link: the recording was not written.`);
  const temp = path.join(dir, `.${path.basename(place.file)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  await writeFile(temp, text, { flag: 'wx' });
  await rename(temp, place.file);
}

export interface RecordedRunSummary {
  mode: CassetteMode;
  results: CellResult[];
  /** Answers given from the recording, and requests sent and recorded. */
  replayed: number;
  recorded: number;
  /** The recording, relative to the workspace folder. */
  recording: string;
}

/** Runs `doc` recorded into, or answered from, `place`; `existing` is the recording the caller has read (replay and record-missing start from it). */
async function runRecorded(
  s: Services,
  controller: NotebookRunController,
  doc: vscode.NotebookDocument,
  place: RecordingPlace,
  mode: CassetteMode,
  existing: string | undefined,
): Promise<RecordedRunSummary> {
  let pendingWrite: Promise<void> = Promise.resolve();
  const cassette = new Cassette(
    mode,
    {
      read: () => existing,
      write: (_notebook, text) => {
        pendingWrite = writeRecording(place, text);
      },
      where: () => place.relative,
    },
    s.redactor,
    () => sandboxAliases(s.sandbox.info),
  );
  const results = await inRecordedRun(cassette, () => cassette.run(place.notebook, () => controller.runAll(doc)));
  cassette.save();
  await pendingWrite;
  return { mode, results, replayed: cassette.replayed, recorded: cassette.recordedCount, recording: place.relative };
}

function targetNotebook(target: unknown): vscode.NotebookDocument {
  const doc = notebookOf(target) ?? vscode.window.activeNotebookEditor?.notebook;
  if (!doc) throw new Error('Open an API notebook first.');
  return doc;
}

const RECORD_AGAIN = 'Record Again';
const RECORD_MISSING = 'Record Only What Is Missing';
const OPEN_RECORDING = 'Open Recording';
const RECORD_RUN = 'Record Run';

async function openRecording(place: RecordingPlace): Promise<void> {
  await vscode.window.showTextDocument(vscode.Uri.file(place.file), { preview: true });
}

export function recordingCommands(s: Services, controller: NotebookRunController): CommandTable {
  return {
    // `confirm`: tests pass 'record' | 'record-missing' instead of answering the question.
    'apiWorkbench.notebook.recordRun': async (target?: unknown, confirm?: unknown): Promise<RecordedRunSummary | undefined> => {
      const doc = targetNotebook(target);
      const place = placeOf(doc);
      let mode: CassetteMode = 'record';
      const existing = confirm === 'record' ? undefined : await readRecording(place);
      if (confirm === 'record' || confirm === 'record-missing') mode = confirm;
      else if (existing !== undefined) {
        const choice = await vscode.window.showWarningMessage(
          `${place.relative} already holds a recording of this notebook.`,
          { modal: true, detail: 'Record Again sends every request and replaces it; the other choice sends only the requests it does not hold yet.' },
          RECORD_AGAIN,
          RECORD_MISSING,
        );
        if (choice === undefined) return undefined;
        mode = choice === RECORD_AGAIN ? 'record' : 'record-missing';
      }
      const summary = await runRecorded(s, controller, doc, place, mode, mode === 'record' ? undefined : existing);
      const what = mode === 'record' ? `Recorded ${summary.recorded} answer(s)` : `Recorded ${summary.recorded} missing answer(s), kept ${summary.replayed}`;
      void vscode.window
        .showInformationMessage(`${what} into ${place.relative}. Run from Recording replays them without sending anything.`, OPEN_RECORDING)
        .then((c) => {
          if (c === OPEN_RECORDING) void openRecording(place);
        });
      return summary;
    },
    'apiWorkbench.notebook.runFromRecording': async (target?: unknown): Promise<RecordedRunSummary | undefined> => {
      const doc = targetNotebook(target);
      const place = placeOf(doc);
      const text = await readRecording(place);
      if (text === undefined) {
        const choice = await vscode.window.showInformationMessage(
          `There is no recording of this notebook yet (${place.relative}). Record Run sends its requests once and keeps the answers.`,
          RECORD_RUN,
        );
        if (choice === RECORD_RUN) return vscode.commands.executeCommand<RecordedRunSummary | undefined>('apiWorkbench.notebook.recordRun', doc);
        return undefined;
      }
      // Answers recorded from the local sandbox are named by it: its connection must exist to run the cells (nothing is sent to it).
      if (text.includes('"{sandbox') && !s.sandbox.info) await s.sandbox.start();
      const summary = await runRecorded(s, controller, doc, place, 'replay', text);
      const failed = summary.results.filter((r) => !r.ok).length;
      const message = `Replayed ${summary.replayed} answer(s) from ${place.relative}; nothing was sent.${failed ? ` ${failed} cell(s) failed: a request that is not in the recording says how it differs from the nearest one.` : ''}`;
      const show = failed ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
      void show(message, ...(failed ? [RECORD_MISSING] : [])).then((c) => {
        if (c === RECORD_MISSING) void vscode.commands.executeCommand('apiWorkbench.notebook.recordRun', doc, 'record-missing');
      });
      return summary;
    },
  };
}
