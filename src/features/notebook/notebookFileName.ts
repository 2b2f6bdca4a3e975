// The file a new API notebook is saved as. Only `*.awb.md` opens as a notebook: a name typed without
// the extension ("tour") or with half of it ("tour.md", "tour.awb") still has to end up `tour.awb.md`,
// or the user gets a plain Markdown file that never opens as the notebook again.
import { NOTEBOOK_EXTENSION } from '../../notebook/api';

/** What the name box offers first (then `api-notebook-2`, … when taken). */
export const DEFAULT_NOTEBOOK_NAME = 'api-notebook';

/** `tour`, `tour.md`, `tour.awb`, `tour.awb.md` → `tour` (surrounding spaces dropped). */
export function notebookBaseName(typed: string): string {
  return typed.trim().replace(/(\.awb\.md|\.awb|\.md)$/i, '');
}

/** `tour`, `tour.md`, `tour.awb`, `tour.awb.md` → `tour.awb.md`. */
export function notebookFileName(typed: string): string {
  return `${notebookBaseName(typed)}${NOTEBOOK_EXTENSION}`;
}

/** Why a typed name cannot be a notebook file in the folder, or undefined when it can. */
export function notebookNameProblem(typed: string): string | undefined {
  const base = notebookBaseName(typed);
  if (!base) return 'Give the notebook a name, e.g. "tour" (it is saved as tour.awb.md).';
  if (/[/\\]/.test(base)) return 'Give a file name without folders: the notebook is created in the workspace folder.';
  // Characters Windows refuses in file names, so a notebook shared through git opens everywhere.
  if (/[<>:"|?*]/.test(base)) return 'A notebook name cannot contain < > : " | ? or *.';
  if (base.startsWith('.') || base.endsWith('.') || base.endsWith(' ')) return 'A notebook name cannot start or end with a dot.';
  return undefined;
}

/** `base`, or `base-2`, `base-3`, … : the first whose notebook file `taken` does not report. */
export async function uniqueNotebookName(base: string, taken: (fileName: string) => boolean | Promise<boolean>): Promise<string> {
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    if (!(await taken(notebookFileName(name)))) return name;
  }
}

/**
 * The notebook name an import proposes for its source file: `requests.http` → `requests`,
 * `trip.postman_collection.json` → `trip`, `tour.awb.md` → `tour` (so Save As offers a name that
 * opens as a notebook again, not `Untitled-1.md`). Characters a file name cannot hold become `-`.
 */
export function importedNotebookBase(sourceName: string): string {
  const file = sourceName.replace(/^.*[/\\]/, '');
  const stem = notebookBaseName(file.replace(/(\.postman_collection)?\.(json|http|rest|txt|ya?ml)$/i, ''))
    .replace(/[<>:"|?*]/g, '-')
    .replace(/^[.\s]+|[.\s]+$/g, '');
  return stem || DEFAULT_NOTEBOOK_NAME;
}
