/// <reference lib="dom" />
// The map webview: Leaflet (bundled in by esbuild), drawing what the extension sends — markers for
// places, polylines for routes — and fitting the view to them. Tiles come from the configured
// template; when they cannot load (no network), the vector layers still draw on a plain background.
import * as L from 'leaflet';
import { validate } from '../core/validate';
import { hostToMapSchema, type MapToHost, type ShowMessage } from '../services/maps/mapMessages';
import { drawGeometry, tileLayer } from './lib/draw';

interface VsCodeApi {
  postMessage(message: MapToHost): void;
  setState(state: ShowMessage): void;
  getState(): unknown;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const post = (m: MapToHost) => vscode.postMessage(m);

const map = L.map('map', { zoomControl: true, worldCopyJump: true, attributionControl: true }).setView([20, 0], 2);
const drawn = L.featureGroup().addTo(map);
const titleEl = document.getElementById('title');
const statusEl = document.getElementById('status');
let tiles: L.TileLayer | undefined;
let tileTemplate: string | null | undefined;

function setStatus(text: string): void {
  if (statusEl) statusEl.textContent = text;
}

function setTiles(template: string | null, attribution: string): void {
  if (template === tileTemplate) return;
  tileTemplate = template;
  tiles?.remove();
  tiles = undefined;
  document.body.classList.toggle('no-tiles', template === null);
  if (template === null) return;
  tiles = tileLayer(template, attribution, (state) => {
    document.body.classList.toggle('no-tiles', state === 'failed');
    setStatus(state === 'failed' ? 'Map tiles unavailable (offline?): showing the geometry on a plain background.' : '');
    post({ type: 'tiles', state });
  });
  tiles.addTo(map);
}

function show(m: ShowMessage): void {
  if (titleEl) titleEl.textContent = m.title;
  setTiles(m.tileUrl, m.attribution);
  const bounds = drawGeometry(map, drawn, m.markers, m.lines);
  vscode.setState(m);
  post({ type: 'rendered', markers: m.markers.length, lines: m.lines.length, bounds });
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const v = validate(hostToMapSchema, event.data);
  if (!v.ok) {
    post({ type: 'error', message: `ignored a malformed message: ${v.problem}`.slice(0, 500) });
    return;
  }
  show(v.value);
});

// After a reload of the webview, redraw what was shown before the extension sends anything new.
const saved = validate(hostToMapSchema, vscode.getState());
if (saved.ok) show(saved.value);
post({ type: 'ready' });
