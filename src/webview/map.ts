/// <reference lib="dom" />
// The map webview: Leaflet (bundled in by esbuild), drawing what the extension sends — markers for
// places, polylines for routes — and fitting the view to them. Tiles come from the configured
// template; when they cannot load (no network, a policy, tiles switched off) the offline basemap
// (Natural Earth borders and coastlines, shipped beside this script) is drawn under the geometry.
import * as L from 'leaflet';
import { errorText } from '../core/errors';
import { validate } from '../core/validate';
import { hostToMapSchema, type MapToHost, type ShowMessage } from '../services/maps/mapMessages';
import { OFFLINE_MAX_ZOOM, offlineBasemap } from './lib/basemapLayer';
import { drawGeometry, FittedMap, tileLayer } from './lib/draw';

interface VsCodeApi {
  postMessage(message: MapToHost): void;
  setState(state: ShowMessage): void;
  getState(): unknown;
}
declare function acquireVsCodeApi(): VsCodeApi;

// The basemap's file lies beside this script; currentScript is only set while the script first runs.
const scriptUrl = (document.currentScript as HTMLScriptElement | null)?.src ?? document.baseURI;
const vscode = acquireVsCodeApi();
const post = (m: MapToHost) => vscode.postMessage(m);

const map = L.map('map', { zoomControl: true, worldCopyJump: true, attributionControl: true }).setView([20, 0], 2);
const drawn = L.featureGroup().addTo(map);
const titleEl = document.getElementById('title');
const statusEl = document.getElementById('status');
let tiles: L.TileLayer | undefined;
let tileTemplate: string | null | undefined;
/** No tiles to show (switched off, or they failed to load): the basemap stands in. */
let offline = false;
const basemap = offlineBasemap(map, scriptUrl, (state, error) => {
  if (state === 'failed') setStatus('Offline: no tiles, and the basemap did not load.', errorText(error));
  post(state === 'failed' ? { type: 'basemap', state, message: errorText(error).slice(0, 500) } : { type: 'basemap', state });
});
/** What was last drawn, reported again with the new view when a resize refits it. */
let lastDrawn: Omit<Extract<MapToHost, { type: 'rendered' }>, 'view'> | undefined;
// The header wraps to fit its text, which changes the map's height: it measures and fits again.
const fitted = new FittedMap(map, () => lastDrawn && post({ ...lastDrawn, view: fitted.view() }));

/** A short status (the header stays narrow), with the whole explanation on hover. */
function setStatus(text: string, detail = text): void {
  if (!statusEl) return;
  statusEl.textContent = text;
  statusEl.title = detail;
}

function setOffline(value: boolean): void {
  offline = value;
  fitted.capZoom(value ? OFFLINE_MAX_ZOOM : undefined);
  document.body.classList.toggle('no-tiles', value);
  basemap.update(value);
  setStatus(
    value ? 'Offline basemap (Natural Earth)' : '',
    value ? 'Map tiles are unavailable (offline, blocked or switched off): country borders and coastlines from Natural Earth 1:110m are shown instead.' : '',
  );
}

function setTiles(template: string | null, attribution: string): void {
  if (template === tileTemplate) return;
  tileTemplate = template;
  tiles?.remove();
  tiles = undefined;
  setOffline(template === null);
  if (template === null) return;
  tiles = tileLayer(template, attribution, (state) => {
    setOffline(state === 'failed');
    // Credit only what is on screen: failed tiles show nothing of their provider's.
    if (state === 'failed') map.attributionControl.removeAttribution(attribution);
    post({ type: 'tiles', state });
  });
  tiles.addTo(map);
}

function show(m: ShowMessage): void {
  if (titleEl) titleEl.textContent = m.title;
  setTiles(m.tileUrl, m.attribution);
  const bounds = drawGeometry(fitted, drawn, m.markers, m.lines, offline ? { maxZoom: OFFLINE_MAX_ZOOM } : {});
  vscode.setState(m);
  lastDrawn = { type: 'rendered', markers: m.markers.length, lines: m.lines.length, bounds, ...(m.seq !== undefined ? { seq: m.seq } : {}) };
  post({ ...lastDrawn, view: fitted.view() });
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const v = validate(hostToMapSchema(), event.data);
  if (!v.ok) {
    post({ type: 'error', message: `ignored a malformed message: ${v.problem}`.slice(0, 500) });
    return;
  }
  show(v.value);
});

// After a reload of the webview, redraw what was shown before the extension sends anything new.
const saved = validate(hostToMapSchema(), vscode.getState());
if (saved.ok) show(saved.value);
post({ type: 'ready' });
