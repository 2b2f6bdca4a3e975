// "Did you mean …?": the closest known name to a misspelt one, for variables, models, spec paths,
// parameters and fields alike.
import { editDistance } from '../../sandbox/maps/gazetteer';

/** The closest of `names` to `word` (fewest edits), or undefined when none is close. */
export function nearestOf(word: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestEdits = Math.max(3, Math.floor(word.length / 2)) + 1;
  for (const name of names) {
    const edits = editDistance(word.toLowerCase(), name.toLowerCase(), bestEdits);
    if (edits < bestEdits) {
      best = name;
      bestEdits = edits;
    }
  }
  return best;
}
