// What the place picker does, without the quick pick: reading typed text as a place, coordinates
// or an address, and one autocomplete session (debounced suggestions, the superseded request
// aborted, one session token that the Place Details call ends). vscode-free: unit-tested against
// the real sandbox.
import { CancelledError } from '../../core/cancellation';
import { isApiError } from '../../core/errors';
import { newSessionToken, parseLatLng, type AutocompleteRequest, type LatLngInput, type MapsCallOptions, type MapsResult } from '../../services/maps/client';
import type { AutocompleteResponse, Place } from '../../services/maps/schemas';

/** What typed text stands for. */
export type TypedPlace =
  { kind: 'latLng'; latLng: LatLngInput; text: string } | { kind: 'place'; placeId: string; text: string } | { kind: 'address'; address: string; text: string };

/**
 * "45.76,4.83" or "(45.76, 4.83)" → coordinates; "place:ChIJ…" / "places/ChIJ…" → a place id;
 * any other non-empty text → an address (geocoded or routed by the service). Empty → undefined.
 */
export function parseTypedPlace(raw: string): TypedPlace | undefined {
  const text = raw.trim();
  if (!text) return undefined;
  const latLng = parseLatLng(text);
  if (latLng) return { kind: 'latLng', latLng, text };
  const id = /^places?[:/](\S+)$/.exec(text)?.[1];
  if (id) return { kind: 'place', placeId: id, text };
  return { kind: 'address', address: text, text };
}

/**
 * The item that offers the typed text itself (the picker's answer to Enter when nothing is
 * suggested). The text is in the description, not the label: VS Code sorts items whose label
 * matches the typed text first, and this one would always match, ahead of every suggestion.
 */
export function typedItem(typed: TypedPlace): { label: string; description: string } {
  if (typed.kind === 'latLng') return { label: '$(pin) Use as coordinates', description: `${typed.latLng.latitude}, ${typed.latLng.longitude}` };
  if (typed.kind === 'place') return { label: '$(location) Use this place id', description: typed.placeId };
  return { label: '$(edit) Use as typed', description: `“${typed.address}” (an address)` };
}

/** One suggestion, as the picker lists it. */
export interface Suggestion {
  placeId: string;
  label: string;
  description: string;
  types: readonly string[];
  distanceMeters?: number;
}

export function suggestionsOf(data: AutocompleteResponse): Suggestion[] {
  return (data.suggestions ?? []).flatMap((s) => {
    const p = s.placePrediction;
    if (!p?.placeId) return [];
    const main = p.structuredFormat?.mainText?.text ?? p.text?.text ?? p.placeId;
    const secondary = p.structuredFormat?.secondaryText?.text ?? '';
    return [
      {
        placeId: p.placeId,
        label: main,
        description: secondary,
        types: p.types ?? [],
        ...(p.distanceMeters !== undefined ? { distanceMeters: p.distanceMeters } : {}),
      },
    ];
  });
}

/** The two calls a session makes (a MapsClient fits). */
export interface AutocompleteApi {
  autocomplete(req: AutocompleteRequest, opts?: MapsCallOptions): Promise<MapsResult<AutocompleteResponse>>;
  getPlace(id: string, opts?: MapsCallOptions & { sessionToken?: string }): Promise<MapsResult<Place>>;
}

export interface SessionOptions {
  /** Quiet time after the last keystroke before asking (Google suggests a short delay). */
  debounceMs?: number;
  /** Extra request fields (a bias around the user's area, region codes…). */
  request?: Omit<AutocompleteRequest, 'input' | 'sessionToken'>;
  /** Heard once per autocomplete request sent (for the session's cost). */
  onAutocomplete?: (sessionRequestNumber: number, result: MapsResult<AutocompleteResponse>) => void;
}

export const DEFAULT_DEBOUNCE_MS = 250;

/**
 * One autocomplete session, as Google bills it: every request carries the same token until a
 * Place Details call with it ends the session; the next keystroke starts a new one. A keystroke
 * within `debounceMs` replaces the pending one; a request still in flight when a newer one is sent
 * is aborted (its answer would be for text no longer in the box).
 */
export class AutocompleteSession {
  private token = newSessionToken();
  private requests = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pending: ((v: Suggestion[] | undefined) => void) | undefined;
  private inFlight: AbortController | undefined;

  constructor(
    private readonly api: AutocompleteApi,
    private readonly opts: SessionOptions = {},
  ) {}

  get sessionToken(): string {
    return this.token;
  }

  /** Autocomplete requests sent in this session so far. */
  get requestCount(): number {
    return this.requests;
  }

  /**
   * Suggestions for `input`, or undefined when a later call superseded this one (debounced away or
   * aborted in flight) or the input is empty or is coordinates (nothing to complete).
   */
  suggest(input: string): Promise<Suggestion[] | undefined> {
    this.pending?.(undefined);
    this.pending = undefined;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const typed = parseTypedPlace(input);
    if (!typed || typed.kind !== 'address') {
      this.abortInFlight();
      return Promise.resolve(undefined);
    }
    return new Promise<Suggestion[] | undefined>((resolve) => {
      this.pending = resolve;
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.pending = undefined;
        void this.send(typed.address).then(resolve);
      }, this.opts.debounceMs ?? DEFAULT_DEBOUNCE_MS);
    });
  }

  /** One request; a failure other than being superseded is kept for takeFailure(). */
  private async send(input: string): Promise<Suggestion[] | undefined> {
    this.abortInFlight();
    const controller = new AbortController();
    this.inFlight = controller;
    const n = ++this.requests;
    try {
      const res = await this.api.autocomplete({ ...this.opts.request, input, sessionToken: this.token }, { cancel: controller.signal });
      this.opts.onAutocomplete?.(n, res);
      return suggestionsOf(res.data);
    } catch (e) {
      if (controller.signal.aborted || (isApiError(e) && e.kind === 'cancelled')) return undefined;
      this.failure = e;
      return undefined;
    } finally {
      if (this.inFlight === controller) this.inFlight = undefined;
    }
  }

  /** The last request's failure (e.g. a wrong key), kept for the picker to say; cleared on read. */
  private failure: unknown;
  takeFailure(): unknown {
    const f = this.failure;
    this.failure = undefined;
    return f;
  }

  private abortInFlight(): void {
    this.inFlight?.abort(new CancelledError());
    this.inFlight = undefined;
  }

  /**
   * Place Details for a picked suggestion with this session's token, which ends the session (as
   * Google bills it); the next suggestion starts a new one.
   */
  async details(placeId: string, opts: MapsCallOptions = {}): Promise<MapsResult<Place> & { sessionToken: string; autocompleteRequests: number }> {
    const sessionToken = this.token;
    const autocompleteRequests = this.requests;
    try {
      const res = await this.api.getPlace(placeId, { ...opts, sessionToken });
      return { ...res, sessionToken, autocompleteRequests };
    } finally {
      this.reset();
    }
  }

  /** Ends the session without details (the picker closed): the next keystroke starts a new one. */
  reset(): void {
    this.dispose();
    this.token = newSessionToken();
    this.requests = 0;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending?.(undefined);
    this.pending = undefined;
    this.abortInFlight();
  }
}
