/// <reference lib="dom" />
// The map webview: Leaflet (bundled in by esbuild), drawing what the extension sends — markers for
// places, polylines for routes — and fitting the view to them. Tiles come from the configured
// template; when they cannot load (no network), the vector layers still draw on a plain background.
import * as L from 'leaflet';
import { validate } from '../core/validate';
import { hostToMapSchema, type MapToHost, type ShowMessage } from '../services/maps/mapMessages';

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
let tileState: 'loaded' | 'failed' | undefined;

const LINE_COLORS = ['#1a73e8', '#e8710a', '#188038', '#a142f4'];

function setStatus(text: string): void {
  if (statusEl) statusEl.textContent = text;
}

function setTiles(template: string | null, attribution: string): void {
  if (template === tileTemplate) return;
  tileTemplate = template;
  tiles?.remove();
  tiles = undefined;
  tileState = undefined;
  document.body.classList.toggle('no-tiles', template === null);
  if (template === null) return;
  tiles = L.tileLayer(template, { attribution, maxZoom: 19, crossOrigin: false });
  tiles.on('tileerror', () => {
    if (tileState !== undefined) return;
    tileState = 'failed';
    document.body.classList.add('no-tiles');
    setStatus('Map tiles unavailable (offline?): showing the geometry on a plain background.');
    post({ type: 'tiles', state: 'failed' });
  });
  tiles.on('tileload', () => {
    if (tileState === 'loaded') return;
    tileState = 'loaded';
    document.body.classList.remove('no-tiles');
    setStatus('');
    post({ type: 'tiles', state: 'loaded' });
  });
  tiles.addTo(map);
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function show(m: ShowMessage): void {
  if (titleEl) titleEl.textContent = m.title;
  setTiles(m.tileUrl, m.attribution);
  drawn.clearLayers();
  m.lines.forEach((line, i) => {
    L.polyline(line.points, { color: LINE_COLORS[i % LINE_COLORS.length], weight: 5, opacity: 0.85 })
      .bindTooltip(escapeHtml(line.label), { sticky: true })
      .addTo(drawn);
  });
  for (const mk of m.markers) {
    L.circleMarker([mk.latitude, mk.longitude], { radius: 7, color: '#ffffff', weight: 2, fillColor: '#d93025', fillOpacity: 0.95 })
      .bindTooltip(`<b>${escapeHtml(mk.label)}</b>${mk.detail ? `<br>${escapeHtml(mk.detail)}` : ''}`)
      .addTo(drawn);
  }
  let bounds: [[number, number], [number, number]] | null = null;
  if (m.markers.length || m.lines.length) {
    const b = drawn.getBounds();
    map.fitBounds(b, { padding: [32, 32], maxZoom: m.lines.length ? 16 : 11, animate: false });
    bounds = [
      [b.getSouth(), b.getWest()],
      [b.getNorth(), b.getEast()],
    ];
  }
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
