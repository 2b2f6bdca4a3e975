import vscode from 'vscode';
import { errorText } from '../../core/errors';
import type { MapsResult } from '../../features/maps/results';
import {
  AutocompleteSession,
  parseTypedPlace,
  typedItem,
  type AutocompleteApi,
  type SessionOptions,
  type Suggestion,
  type TypedPlace,
} from '../../features/maps/placeQuery';

/** What the user chose: a suggestion (with its open session, for Place Details), a recent result, or text. */
export type PlacePick =
  | { kind: 'suggestion'; suggestion: Suggestion; session: AutocompleteSession }
  | { kind: 'recent'; result: MapsResult; value: string }
  | { kind: 'typed'; typed: TypedPlace };

interface Item extends vscode.QuickPickItem {
  pick?: PlacePick;
}

export interface PlacePickerOptions {
  title: string;
  /** Recent places to offer before anything is typed. */
  recent: readonly MapsResult[];
  /** Where suggestions come from; none: typed text and recent places only. */
  api?: AutocompleteApi;
  session?: SessionOptions;
  /** Shown under "no suggestions" (against the sandbox: what it knows). */
  emptyHint?: string;
  /** The text as typed leads the list, suggestions follow (Search Places: Enter searches what was typed). */
  typedFirst?: boolean;
  /** The box starts with this text (the last search). */
  value?: string;
}

const PLACEHOLDER = 'Type a place or an address (e.g. Lyon, France) or lat,lng (e.g. 45.76, 4.83)';

/**
 * A quick pick that suggests places as the user types (Places Autocomplete, debounced, the
 * superseded request aborted), lists recent places, and always offers the text as typed: an
 * address or "lat,lng" works with Enter even when nothing is suggested.
 */
export function pickPlace(opts: PlacePickerOptions): Promise<PlacePick | undefined> {
  const qp = vscode.window.createQuickPick<Item>();
  qp.title = opts.title;
  qp.placeholder = PLACEHOLDER;
  qp.ignoreFocusOut = true;
  const session = opts.api ? new AutocompleteSession(opts.api, opts.session) : undefined;
  let suggestions: Suggestion[] = [];
  let note: { label: string; detail?: string } | undefined;

  const recentItems: Item[] = opts.recent.map((r) => ({
    label: `$(history) ${r.label}`,
    description: r.description,
    pick: { kind: 'recent', result: r, value: `place:${r.id.slice('place/'.length)}` },
  }));
  const render = () => {
    const typed = parseTypedPlace(qp.value);
    // Search: the typed text is its own label, so VS Code's filter (which ranks labels by the text) keeps it first.
    const typedLabel = (t: TypedPlace) => (opts.typedFirst ? { label: `$(search) ${t.text.trim()}`, description: 'search for this text' } : typedItem(t));
    const asTyped: Item[] = typed ? [{ ...typedLabel(typed), alwaysShow: true, pick: { kind: 'typed', typed } }] : [];
    // Suggestions are already filtered by the service: shown whatever VS Code's own filter thinks.
    const suggested: Item[] = session
      ? suggestions.map((s) => ({
          label: `$(location) ${s.label}`,
          description: s.description,
          detail: s.types.length ? s.types.slice(0, 3).join(', ') : undefined,
          alwaysShow: true,
          pick: { kind: 'suggestion', suggestion: s, session },
        }))
      : [];
    const notes: Item[] = note ? [{ label: `$(info) ${note.label}`, detail: note.detail, alwaysShow: true }] : [];
    const sep = (label: string): Item => ({ label, kind: vscode.QuickPickItemKind.Separator });
    // Coordinates have nothing to complete: the typed item leads. Otherwise suggestions do.
    qp.items =
      typed?.kind === 'latLng' || !suggested.length || opts.typedFirst
        ? [
            ...asTyped,
            ...notes,
            ...(suggested.length ? [sep('Suggestions'), ...suggested] : []),
            ...(recentItems.length ? [sep('Recent results'), ...recentItems] : []),
          ]
        : [sep('Suggestions'), ...suggested, sep('As typed'), ...asTyped, ...notes, ...(recentItems.length ? [sep('Recent results'), ...recentItems] : [])];
  };

  return new Promise<PlacePick | undefined>((resolve) => {
    let done = false;
    const finish = (p: PlacePick | undefined) => {
      if (done) return;
      done = true;
      // A suggestion keeps its session open for the Place Details call that ends it.
      if (p?.kind !== 'suggestion') session?.dispose();
      resolve(p);
      qp.hide();
    };
    qp.onDidChangeValue((value) => {
      suggestions = [];
      note = undefined;
      render();
      if (!session) return;
      qp.busy = true;
      void session.suggest(value).then((s) => {
        if (qp.value !== value) return;
        qp.busy = false;
        if (s === undefined) {
          const failure = session.takeFailure();
          if (failure) note = { label: `No suggestions: ${errorText(failure)}` };
        } else {
          suggestions = s;
          if (!s.length && parseTypedPlace(value))
            note = { label: `No suggestions for “${value.trim()}” (Autocomplete): Enter uses it as typed.`, detail: opts.emptyHint };
        }
        render();
      });
    });
    qp.onDidAccept(() => {
      const item = qp.selectedItems[0] ?? qp.activeItems[0];
      if (item?.pick) return finish(item.pick);
      const typed = parseTypedPlace(qp.value);
      if (typed) finish({ kind: 'typed', typed });
    });
    qp.onDidHide(() => {
      finish(undefined);
      qp.dispose();
    });
    if (opts.value) qp.value = opts.value;
    render();
    qp.show();
  });
}
