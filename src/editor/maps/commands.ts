import vscode from 'vscode';
import * as z from 'zod/mini';
import { connectionId, type HttpConnection } from '../../core/connections';
import { errorText, isApiError, requestIdSuffix } from '../../core/errors';
import type { OutgoingRequest, RetryNotice } from '../../core/http';
import { mapsClientFor } from '../../features/mapsClient';
import { MapsClient, parseLatLng, type MapsCallOptions, type MapsResult as CallResult, type Waypoint } from '../../services/maps/client';
import { type MapsOperation, type MaskPreset } from '../../services/maps/fieldMasks';
import type { MapLine, MapMarker, ShowMessage } from '../../services/maps/mapMessages';
import { decodePolyline } from '../../services/maps/polyline';
import type { SkuOptions } from '../../services/maps/sku';
import type { CommandTable } from '../commands';
import {
  detailsArgs,
  geocodeArgs,
  matrixArgs,
  nearbyArgs,
  reverseArgs,
  routeArgs,
  searchArgs,
  validateArgs,
  type MaskArgs,
} from '../../features/maps/commandArgs';
import { mapTiles } from '../../features/settings';
import { argsOf, type CommandOutcome, type MapsCommandHost, type Presented } from './commandHost';
import { copyAsCurl, type RecordedRequest, type RequestHistory } from '../curl';
import type { Services } from '../services';
import type { MapPanel, MapRendered } from './mapPanel';
import { isSkuOperation, type SessionCosts } from '../../features/maps/costs';
import { chooseFieldMask } from './masks';
import { routeMatrix } from './matrixCommand';
import type { MatrixPanel } from './matrixPanel';
import { MapsInput } from './input';
import type { PlacePick } from './placePicker';
import { geocodeResults, placeResults, routeResult, validationResult } from '../../features/maps/resultBuilders';
import type { ResponseDocuments } from './responses';
import type { ResponseViewer } from './responseViewer';
import { redactedData } from '../../features/maps/responseText';
import type { MapsResult } from '../../features/maps/results';
import type { ResultStore } from './results';
import { ResultNode } from './tree';

const MAX_PLACES_KEPT = 10;

/** "48.85,2.35" → coordinates; "place:<id>" → a place; anything else → an address. */
export function waypointFromText(text: string): Waypoint {
  const ll = parseLatLng(text);
  if (ll) return { location: { latLng: ll } };
  const place = /^place:(\S+)$/.exec(text.trim());
  if (place) return { placeId: place[1] };
  return { address: text.trim() };
}

export class MapsCommands implements MapsCommandHost {
  /** Asking the user for what a command needs: places, points, travel modes, text. */
  readonly input: MapsInput;

  constructor(
    private readonly s: Services,
    private readonly results: ResultStore,
    private readonly map: MapPanel,
    private readonly responses: ResponseDocuments,
    private readonly history: RequestHistory,
    readonly costs: SessionCosts,
    readonly matrixPanel: MatrixPanel,
    private readonly viewer: ResponseViewer,
  ) {
    this.input = new MapsInput(s, results, costs, this);
  }

  table(): CommandTable {
    return {
      'apiWorkbench.maps.searchPlaces': (arg?: unknown) => this.searchPlaces(argsOf(searchArgs, arg)),
      'apiWorkbench.maps.searchNearby': (arg?: unknown) => this.searchNearby(argsOf(nearbyArgs, arg)),
      'apiWorkbench.maps.computeRoute': (arg?: unknown) => this.computeRoute(argsOf(routeArgs, arg)),
      'apiWorkbench.maps.validateAddress': (arg?: unknown) => this.validateAddress(argsOf(validateArgs, arg)),
      'apiWorkbench.maps.geocode': (arg?: unknown) => this.geocode(argsOf(geocodeArgs, arg)),
      'apiWorkbench.maps.reverseGeocode': (arg?: unknown) => this.reverseGeocode(argsOf(reverseArgs, arg)),
      'apiWorkbench.maps.openMap': () => this.openMap(),
      'apiWorkbench.maps.showResult': (arg?: unknown) => this.showResult(arg),
      'apiWorkbench.maps.clearResults': () => this.clearResults(),
      'apiWorkbench.maps.placeDetails': (arg?: unknown) => this.placeDetails(argsOf(detailsArgs, arg)),
      'apiWorkbench.maps.routeMatrix': (arg?: unknown) => routeMatrix(this, argsOf(matrixArgs, arg)),
      'apiWorkbench.maps.chooseFieldMask': (arg?: unknown) => chooseFieldMask(this.s, arg),
      'apiWorkbench.maps.copyAsCurl': (arg?: unknown) =>
        copyAsCurl(this.s, this.history, { firstCommand: { title: 'Search Places…', command: 'apiWorkbench.maps.searchPlaces' } }, arg),
    };
  }

  // --- commands --------------------------------------------------------------------------------

  private async searchPlaces(a: Partial<z.infer<typeof searchArgs>>): Promise<CommandOutcome | undefined> {
    const picked = a.query ?? (await this.input.pickSearchQuery('Search Places: a name, an address or a kind of place'));
    if (!picked) return undefined;
    // A picked suggestion names one place: its details (by id, ending the autocomplete session), not a search for its text.
    if (typeof picked !== 'string') return this.detailsOf(picked, a);
    const query = picked;
    return this.run(
      `Searching places for “${query}”…`,
      'searchText',
      a,
      (c, o) => c.searchText({ textQuery: query }, o),
      (data) => {
        const places = (data.places ?? []).slice(0, MAX_PLACES_KEPT);
        if (!places.length) this.input.nothingFound(`No places found for “${query}” (Text Search).`);
        return { results: placeResults(places), title: `Places: ${query}` };
      },
      () => this.searchPlaces({ ...a, query }),
    );
  }

  private async searchNearby(a: Partial<z.infer<typeof nearbyArgs>>): Promise<CommandOutcome | undefined> {
    const centerText = a.center ?? (await this.input.pickPoint('Search nearby: centre (a place, an address or lat,lng)'));
    if (!centerText) return undefined;
    const radius =
      a.radius ??
      Number(
        await this.input.ask('nearbyRadius', {
          prompt: 'Radius in metres (1–50000)',
          value: '10000',
          validateInput: (v) => (/^\d+(\.\d+)?$/.test(v.trim()) && Number(v) > 0 && Number(v) <= 50_000 ? undefined : 'A number of metres from 1 to 50000'),
        }),
      );
    if (!radius) return undefined;
    const center = await this.input.resolvePoint(centerText);
    if (!center) return undefined;
    return this.run(
      `Searching within ${radius} m…`,
      'searchNearby',
      a,
      (c, o) => c.searchNearby({ locationRestriction: { circle: { center, radius } } }, o),
      (data) => {
        const places = (data.places ?? []).slice(0, MAX_PLACES_KEPT);
        if (!places.length) this.input.nothingFound(`No places within ${radius} m of ${this.input.placeLabel(centerText)} (Nearby Search, any type).`);
        return {
          results: placeResults(places),
          title: `Near ${centerText} (${radius} m)`,
          extraMarkers: [{ latitude: center.latitude, longitude: center.longitude, label: 'Search centre', detail: `${radius} m` }],
        };
      },
      () => this.searchNearby({ ...a, center: centerText, radius }),
    );
  }

  private async computeRoute(a: Partial<z.infer<typeof routeArgs>>): Promise<CommandOutcome | undefined> {
    const origin = a.origin ?? (await this.input.pickPoint('Route from (a place, an address or lat,lng)'));
    if (!origin) return undefined;
    const destination = a.destination ?? (await this.input.pickPoint('Route to (a place, an address or lat,lng)'));
    if (!destination) return undefined;
    const travelMode = a.travelMode ?? (await this.input.pickTravelMode());
    if (!travelMode) return undefined;
    const label = (t: string) => this.input.placeLabel(t);
    return this.run(
      `Computing a route (${travelMode.toLowerCase()})…`,
      'computeRoutes',
      a,
      (c, o) =>
        c.computeRoutes(
          {
            origin: waypointFromText(origin),
            destination: waypointFromText(destination),
            intermediates: (a.intermediates ?? []).map(waypointFromText),
            travelMode,
          },
          o,
        ),
      (data) => {
        const route = data.routes?.[0];
        if (!route) {
          const why = [data.geocodingResults?.origin, data.geocodingResults?.destination]
            .map((g) => g?.geocoderStatus?.message)
            .filter(Boolean)
            .join('; ');
          void vscode.window.showWarningMessage(`No route found from ${label(origin)} to ${label(destination)}${why ? `: ${why}` : ''}.`);
          return { results: [], title: 'No route' };
        }
        return { results: [routeResult(route, label(origin), label(destination), travelMode)], title: `${label(origin)} → ${label(destination)}` };
      },
      () => this.computeRoute({ ...a, origin, destination, travelMode }),
      { options: { travelMode } },
    );
  }

  /**
   * Place Details for a place id, or for a place picked with autocomplete: then the details call
   * carries the suggestions' session token and ends that session (as Google bills it).
   */
  private async placeDetails(a: Partial<z.infer<typeof detailsArgs>>): Promise<CommandOutcome | undefined> {
    let pick: PlacePick | undefined = a.placeId
      ? { kind: 'typed', typed: { kind: 'place', placeId: a.placeId.replace(/^places?[:/]/, ''), text: a.placeId } }
      : undefined;
    pick ??= await this.input.pickFromPicker('Place Details: which place?');
    if (!pick) return undefined;
    return this.detailsOf(pick, a);
  }

  /** Place Details of a picked place: a suggestion's with its session token, a recent one's, or typed text's (geocoded to an id). */
  private async detailsOf(pick: PlacePick, a: Partial<z.infer<typeof detailsArgs>>): Promise<CommandOutcome | undefined> {
    let placeId: string | undefined;
    if (pick.kind === 'suggestion') placeId = pick.suggestion.placeId;
    else if (pick.kind === 'recent') placeId = pick.value.slice('place:'.length);
    else if (pick.typed.kind === 'place') placeId = pick.typed.placeId;
    else placeId = await this.input.placeIdOf(pick.typed.text);
    if (!placeId) return undefined;
    const id = placeId;
    const session = pick.kind === 'suggestion' ? pick.session : undefined;
    return this.run(
      `Place details for ${pick.kind === 'suggestion' ? pick.suggestion.label : id}…`,
      'getPlace',
      a,
      (c, o) => (session ? session.details(id, o) : c.getPlace(id, o)),
      (data) => {
        const results = placeResults([data]);
        return { results, title: `Place: ${results[0]?.label ?? id}` };
      },
      () => this.placeDetails({ ...a, placeId: id }),
    );
  }

  private async validateAddress(a: Partial<z.infer<typeof validateArgs>>): Promise<CommandOutcome | undefined> {
    const selection = this.input.selectionText();
    const text =
      a.address ??
      (await this.input.ask('validateAddress', {
        prompt: 'Address to validate (lines separated by commas or new lines)',
        value: selection,
        placeHolder: '1600 Amphitheatre Pkwy, Mountain View, CA 94043',
      }));
    if (!text) return undefined;
    const regionCode =
      a.regionCode ??
      (await this.input.ask('regionCode', {
        prompt: 'Region code (ISO 3166-1, e.g. US, FR). Leave empty to let the service infer it from the address.',
        value: 'US',
        validateInput: (v) => (v.trim() === '' || /^[A-Za-z]{2}$/.test(v.trim()) ? undefined : 'Two letters, e.g. US'),
        allowEmpty: true,
      }));
    if (regionCode === undefined) return undefined;
    const addressLines = text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean);
    return this.run(
      'Validating the address…',
      'validateAddress',
      a,
      (c, o) => c.validateAddress({ address: { addressLines, ...(regionCode.trim() ? { regionCode: regionCode.trim().toUpperCase() } : {}) } }, o),
      (data) => ({
        results: [validationResult(addressLines.join(', '), data)],
        title: `Address: ${data.result?.address?.formattedAddress ?? addressLines.join(', ')}`,
      }),
      () => this.validateAddress({ ...a, address: text, regionCode }),
    );
  }

  private async geocode(a: Partial<z.infer<typeof geocodeArgs>>): Promise<CommandOutcome | undefined> {
    const address = a.address ?? (await this.input.ask('geocode', { prompt: 'Address or place to geocode', value: this.input.selectionText() }));
    if (!address) return undefined;
    return this.run(
      `Geocoding “${address}”…`,
      'geocode',
      a,
      (c, o) => c.geocodeAddress({ address }, o),
      (data) => {
        if (!data.results?.length) void vscode.window.showInformationMessage(`Nothing found for “${address}”.`);
        return { results: geocodeResults(data.results ?? [], address), title: `Geocode: ${address}` };
      },
      () => this.geocode({ ...a, address }),
    );
  }

  private async reverseGeocode(a: Partial<z.infer<typeof reverseArgs>>): Promise<CommandOutcome | undefined> {
    const selected = parseLatLng(this.input.selectionText() ?? '') ? this.input.selectionText() : undefined;
    const text =
      a.location ??
      selected ??
      (await this.input.ask('reverseGeocode', {
        prompt: 'Coordinates to reverse geocode',
        placeHolder: '48.8584, 2.2945',
        validateInput: (v) => (parseLatLng(v) ? undefined : 'Latitude,longitude, e.g. 48.8584, 2.2945'),
      }));
    if (!text) return undefined;
    const location = parseLatLng(text);
    if (!location) throw new Error(`“${text}” is not a latitude,longitude pair (e.g. 48.8584, 2.2945).`);
    const where = `${location.latitude}, ${location.longitude}`;
    return this.run(
      `Reverse geocoding ${where}…`,
      'geocode',
      a,
      (c, o) => c.reverseGeocode({ location }, o),
      (data) => {
        if (!data.results?.length) void vscode.window.showInformationMessage(`No address found near ${where}.`);
        return {
          results: geocodeResults(data.results ?? [], where),
          title: `Reverse geocode: ${where}`,
          extraMarkers: [{ ...location, label: where, detail: 'queried point' }],
        };
      },
      () => this.reverseGeocode({ ...a, location: text }),
    );
  }

  private async openMap(): Promise<MapRendered> {
    const conn = this.s.connections.active('maps');
    const list = conn ? this.results.list(connectionId(conn)) : [];
    return this.map.show(this.mapView(conn ? `Recent results · ${conn.name}` : 'Map', list));
  }

  private async showResult(arg: unknown): Promise<MapRendered | undefined> {
    const node = arg instanceof ResultNode ? arg : undefined;
    const conn = node?.conn ?? this.s.connections.active('maps');
    const id = node?.result.id ?? (typeof arg === 'string' ? arg : undefined);
    const result = conn && id ? this.results.get(connectionId(conn), id) : undefined;
    if (!result) {
      void vscode.window.showInformationMessage('Pick a result in the Maps & Location view to show it on the map.');
      return undefined;
    }
    return this.map.show(this.mapView(result.label, [result]));
  }

  private async clearResults(): Promise<void> {
    const conn = this.s.connections.active('maps');
    if (conn) await this.results.clear(connectionId(conn));
  }

  // --- the shared flow -------------------------------------------------------------------------

  /**
   * One maps call with a progress notification (cancellable, showing quota waits), then: the
   * response in the response viewer (or as a JSON document, per `maps.openResponsesIn`), the results in the tree, the geometry on the map. A failure shows the
   * service's message with Retry (same input) and never throws past the command.
   */
  async run<T>(
    title: string,
    op: MapsOperation,
    maskArgs: MaskArgs,
    call: (client: MapsClient, opts: MapsCallOptions) => Promise<CallResult<T>>,
    present: (data: T) => Presented,
    retry: () => Promise<unknown>,
    billing: { options?: SkuOptions; units?: number } = {},
  ): Promise<CommandOutcome<T> | undefined> {
    const conn = this.connection();
    if (!conn) return undefined;
    // The call as sent, for Copy as cURL (from the response's title bar or the error message).
    let sent: RecordedRequest | undefined;
    const client = this.client(conn, (e) => (sent = e));
    let res: CallResult<T>;
    try {
      res = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) =>
        call(client, {
          ...this.maskChoice(op, maskArgs),
          cancel: token,
          onQueued: (ms) => progress.report({ message: `waiting ${Math.ceil(ms / 1000)} s for the connection's rate limit…` }),
          onRetry: (n: RetryNotice) =>
            progress.report({
              message: `${n.error.status === 429 ? 'quota reached' : 'failed'}; retrying in ${Math.ceil(n.delayMs / 1000)} s (attempt ${n.attempt + 1})…`,
            }),
        }),
      );
    } catch (e) {
      if (isApiError(e) && e.kind === 'cancelled') return undefined;
      const text = errorText(e);
      this.s.log.error(`Maps ${op} failed: ${text}`);
      // Not awaited: the command finishes; Retry runs it again with the same input.
      // Copied by id: the error may be answered after later requests were made.
      const failed = sent;
      const copy = failed ? 'Copy as cURL' : undefined;
      // The sandbox's key is known: a refused one (set by hand, or from an older run) is repaired.
      const repair =
        conn.source === 'sandbox' && isApiError(e) && (e.status === 401 || e.status === 403 || e.kind === 'auth') ? 'Try the Local Sandbox' : undefined;
      void vscode.window.showErrorMessage(text, ...(repair ? [repair] : []), 'Retry', ...(copy ? [copy] : []), 'Show Log').then((choice) => {
        if (choice === repair && repair) void vscode.commands.executeCommand('apiWorkbench.sandbox.start').then(retry);
        else if (choice === 'Retry') void retry();
        else if (choice === copy && failed) void vscode.commands.executeCommand('apiWorkbench.maps.copyAsCurl', { id: failed.id });
        else if (choice === 'Show Log') this.s.log.show();
      });
      return undefined;
    }
    const sku = isSkuOperation(op) ? this.costs.record(op, res.fieldMask, billing.options, billing.units) : undefined;
    this.s.log.info(
      `Maps ${op}: HTTP ${res.status} in ${Math.round(res.durationMs)} ms, mask ${res.fieldMask}${sku ? ` (${sku.sku})` : ''}${requestIdSuffix(res.requestId)}`,
    );
    // Everything below is on screen; a server may have echoed the key back in the answer.
    const data = redactedData(res.data, (t) => this.s.redactor.text(t));
    const document = this.responses.keep(op, data, {
      status: res.status,
      durationMs: res.durationMs,
      requestId: res.requestId,
      fieldMask: res.fieldMask,
      request: sent?.request,
      headers: res.headers,
    });
    if (sent) this.history.link(document, sent);
    const payload = this.s.config.get('maps.openResponsesIn') === 'viewer' && this.responses.payload(document);
    if (payload) this.viewer.show(payload);
    else await this.responses.showDocument(document);
    const shown = present(data);
    await this.results.add(connectionId(conn), shown.results);
    const map = await this.map.show(this.mapView(shown.title, shown.results, shown.extraMarkers, shown.extraLines)).catch((e: unknown) => {
      this.s.log.warn(`Map: ${errorText(e)}`);
      return undefined;
    });
    return { response: data, document, results: shown.results, map };
  }

  connection(): HttpConnection | undefined {
    const conn = this.s.connections.active('maps');
    if (conn && conn.service === 'maps') return conn;
    void vscode.window
      .showWarningMessage('No maps connection yet: connect one, or try the local sandbox (no account needed).', 'Try the Local Sandbox', 'Connect…')
      .then((c) => {
        if (c === 'Try the Local Sandbox') void vscode.commands.executeCommand('apiWorkbench.sandbox.start');
        else if (c === 'Connect…') void vscode.commands.executeCommand('apiWorkbench.maps.addConnection');
      });
    return undefined;
  }

  /** A client whose every request is kept for Copy as cURL; `onSent` hears of each one. */
  client(conn: HttpConnection, onSent?: (e: RecordedRequest) => void): MapsClient {
    const onRequest = (r: OutgoingRequest) => {
      const entry = this.history.record(conn, r);
      onSent?.(entry);
    };
    return mapsClientFor(this.s.http, conn, { onRequest });
  }

  /** Command argument, else the user's mask for this operation, else the preset setting. */
  private maskChoice(op: MapsOperation, a: MaskArgs): { preset?: MaskPreset; fieldMask?: string } {
    if (a.fieldMask || a.preset) return { fieldMask: a.fieldMask, preset: a.preset };
    return { fieldMask: this.s.config.get('maps.fieldMasks')[op] || undefined, preset: this.s.config.get('maps.fieldMaskPreset') };
  }

  private mapView(title: string, results: readonly MapsResult[], extra: readonly MapMarker[] = [], extraLines: readonly MapLine[] = []): ShowMessage {
    const lines: MapLine[] = extraLines.slice(0, 20);
    for (const r of results) {
      if (!r.polyline || lines.length >= 20) continue;
      try {
        lines.push({ label: r.label.slice(0, 500), points: decodePolyline(r.polyline).map((p) => [p.latitude, p.longitude] as [number, number]) });
      } catch (e) {
        this.s.log.warn(`Route "${r.label}" has an unreadable polyline: ${errorText(e)}`);
      }
    }
    const tiles = mapTiles(this.s.config);
    return {
      type: 'show',
      title: title.slice(0, 500),
      markers: [...extra, ...results.flatMap((r) => r.markers)].slice(0, 1000),
      lines,
      tileUrl: tiles.url,
      attribution: tiles.attribution,
    };
  }
}
