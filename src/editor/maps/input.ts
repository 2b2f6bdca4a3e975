// What the maps commands ask the user for: a place or point (the place picker with autocomplete,
// recent places, typed coordinates or addresses), a travel mode, free text (prefilled with what was
// typed last), and the editor's selection; and how a picked place becomes coordinates or a label.
import vscode from 'vscode';
import { connectionId, type HttpConnection } from '../../core/connections';
import { parseLatLng, TRAVEL_MODES, type LatLngInput, type MapsClient, type TravelMode } from '../../services/maps/client';
import type { SessionCosts } from '../../features/maps/costs';
import { emptyResultText, sandboxKnowledge } from '../../features/maps/emptyResults';
import { placeResults } from '../../features/maps/resultBuilders';
import { redactedData } from '../../features/maps/responseText';
import type { Services } from '../services';
import { pickPlace, type PlacePick } from './placePicker';
import type { ResultStore } from './results';

/** The fields a picked suggestion's details ask for: id, address, location (Place Details Essentials). */
const PICKED_PLACE_MASK = 'id,formattedAddress,location';

export class MapsInput {
  /** What the user typed last, per prompt, to prefill the next time. */
  private readonly lastInput = new Map<string, string>();

  constructor(
    private readonly s: Services,
    private readonly results: ResultStore,
    private readonly costs: SessionCosts,
    private readonly cmd: { connection(): HttpConnection | undefined; client(conn: HttpConnection): MapsClient },
  ) {}

  async ask(key: string, opts: vscode.InputBoxOptions & { allowEmpty?: boolean }): Promise<string | undefined> {
    const { allowEmpty, ...box } = opts;
    const value = await vscode.window.showInputBox({ ignoreFocusOut: true, ...box, value: this.lastInput.get(key) ?? box.value });
    if (value === undefined) return undefined;
    if (!allowEmpty && !value.trim()) return undefined;
    this.lastInput.set(key, value);
    return allowEmpty ? value : value.trim();
  }

  /**
   * A point for a command: "place:<id>" (a suggestion, whose details end the autocomplete session
   * and join the recent places, or a recent place), "lat,lng", or an address as typed.
   */
  async pickPoint(title: string): Promise<string | undefined> {
    const pick = await this.pickFromPicker(title);
    if (!pick) return undefined;
    if (pick.kind === 'recent') return pick.value;
    if (pick.kind === 'typed') {
      const t = pick.typed;
      return t.kind === 'latLng' ? `${t.latLng.latitude}, ${t.latLng.longitude}` : t.kind === 'place' ? `place:${t.placeId}` : t.address;
    }
    const conn = this.cmd.connection();
    if (!conn) return undefined;
    const res = await pick.session.details(pick.suggestion.placeId, { fieldMask: PICKED_PLACE_MASK });
    this.costs.record('getPlace', res.fieldMask);
    const place = redactedData({ ...res.data, displayName: { text: pick.suggestion.label } }, (t) => this.s.redactor.text(t));
    await this.results.add(connectionId(conn), placeResults([place]));
    return `place:${place.id ?? pick.suggestion.placeId}`;
  }

  /**
   * Search Places' query, typed with place suggestions as in Autocomplete…: Enter searches the text
   * as typed, a recent place searches its name; a suggestion is returned as picked, for its details
   * (a Text Search for a suggestion's text often finds nothing: it is a label, not a query).
   */
  async pickSearchQuery(title: string): Promise<string | Extract<PlacePick, { kind: 'suggestion' }> | undefined> {
    const pick = await this.pickFromPicker(title, { typedFirst: true, value: this.lastInput.get('searchPlaces') });
    if (!pick) return undefined;
    if (pick.kind === 'suggestion') {
      this.lastInput.set('searchPlaces', pick.suggestion.label);
      return pick;
    }
    const query = pick.kind === 'typed' ? pick.typed.text.trim() : pick.result.label;
    if (!query) return undefined;
    this.lastInput.set('searchPlaces', query);
    return query;
  }

  /** The place picker with autocomplete from the active connection (typed text and recent places without one). */
  async pickFromPicker(title: string, extra: { typedFirst?: boolean; value?: string } = {}): Promise<PlacePick | undefined> {
    const conn = this.s.connections.active('maps');
    const http = conn?.service === 'maps' ? conn : undefined;
    const recent = http ? this.results.list(connectionId(http), 'places').filter((r) => r.id.startsWith('place/')) : [];
    return pickPlace({
      title,
      recent,
      api: http && this.cmd.client(http),
      session: { onAutocomplete: (n, res) => this.costs.record('autocomplete', res.fieldMask, { sessionRequestNumber: n }) },
      emptyHint: http?.source === 'sandbox' ? sandboxKnowledge() : undefined,
      ...extra,
    });
  }

  async pickTravelMode(): Promise<TravelMode | undefined> {
    const modes = { DRIVE: 'car', BICYCLE: 'bicycle', WALK: 'on foot', TWO_WHEELER: 'motorcycle, scooter', TRANSIT: 'public transport' };
    return (
      await vscode.window.showQuickPick(
        TRAVEL_MODES.map((m) => ({ label: m, description: modes[m] })),
        { title: 'Travel mode', placeHolder: 'How to travel' },
      )
    )?.label;
  }

  /** The place id of an address or lat,lng (geocoded), for Place Details of typed text. */
  async placeIdOf(text: string): Promise<string | undefined> {
    const conn = this.cmd.connection();
    if (!conn) return undefined;
    const ll = parseLatLng(text);
    const geo = ll
      ? await this.cmd.client(conn).reverseGeocode({ location: ll }, { preset: 'basic' })
      : await this.cmd.client(conn).geocodeAddress({ address: text }, { preset: 'basic' });
    const id = geo.data.results?.find((r) => r.placeId)?.placeId;
    if (!id) this.nothingFound(`No place found for “${text}” (Geocoding), so there is no place id to ask details for.`);
    return id;
  }

  /** An empty answer: what was searched and, against the sandbox, what it knows. */
  nothingFound(searched: string): void {
    const conn = this.s.connections.active('maps');
    void vscode.window.showInformationMessage(emptyResultText(searched, conn?.source === 'sandbox'));
  }

  /** Coordinates for a point given as lat,lng, a recent place, or an address (geocoded). */
  async resolvePoint(text: string): Promise<LatLngInput | undefined> {
    const ll = parseLatLng(text);
    if (ll) return ll;
    const conn = this.s.connections.active('maps');
    const id = /^place:(\S+)$/.exec(text)?.[1];
    if (id && conn) {
      const m = this.results.get(connectionId(conn), `place/${id}`)?.markers[0];
      if (m) return { latitude: m.latitude, longitude: m.longitude };
    }
    const c = this.cmd.connection();
    if (!c) return undefined;
    const geo = await this.cmd.client(c).geocodeAddress({ address: text }, { preset: 'basic' });
    const loc = geo.data.results?.[0]?.location;
    if (loc?.latitude === undefined || loc.longitude === undefined)
      throw new Error(`“${text}” could not be geocoded: give coordinates (lat,lng) or another address.`);
    return { latitude: loc.latitude, longitude: loc.longitude };
  }

  placeLabel(text: string): string {
    const id = /^place:(\S+)$/.exec(text)?.[1];
    const conn = this.s.connections.active('maps');
    if (id && conn) return this.results.get(connectionId(conn), `place/${id}`)?.label ?? text;
    return text;
  }

  selectionText(): string | undefined {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.selection.isEmpty) return undefined;
    return editor.document.getText(editor.selection).trim() || undefined;
  }
}
