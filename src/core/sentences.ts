// Messages built from parts (what was added, what the check found, an error's own text, a note) read
// as sentences: each part ends with its full stop, and parts are separated by one space. Joined by
// hand they ran together: `…ECONNREFUSED "Local Sandbox" stays the active connection`.

/** The parts that are not empty, each ending a sentence, separated by a space. */
export function sentences(...parts: ReadonlyArray<string | undefined | false>): string {
  return parts
    .map((p) => (p || '').trim())
    .filter((p) => p !== '')
    .map((p) => (/[.!?…:]$/.test(p) ? p : `${p}.`))
    .join(' ');
}
