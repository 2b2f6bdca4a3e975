// Leaflet drawing shared by the map panel (map.ts) and the notebook response viewer's map tab:
// markers for places, polylines for routes, fitted into view; tiles when they load, and the vector
// layers over the offline basemap when they do not (no network; see basemapLayer.ts).
import * as L from 'leaflet';
import type { MapLine, MapMarker } from '../../services/maps/mapMessages';

export const LINE_COLORS = ['#1a73e8', '#e8710a', '#188038', '#a142f4'];

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Replaces what `group` shows with these markers and lines, fitting the view to them (no closer
 * than `maxZoom`, when given); returns the drawn bounds (or null).
 */
export function drawGeometry(
  map: L.Map,
  group: L.FeatureGroup,
  markers: readonly MapMarker[],
  lines: readonly MapLine[],
  fit: { maxZoom?: number } = {},
): [[number, number], [number, number]] | null {
  group.clearLayers();
  lines.forEach((line, i) => {
    L.polyline(line.points, { color: LINE_COLORS[i % LINE_COLORS.length], weight: 5, opacity: 0.85 })
      .bindTooltip(escapeHtml(line.label), { sticky: true })
      .addTo(group);
  });
  for (const mk of markers) {
    L.circleMarker([mk.latitude, mk.longitude], { radius: 7, color: '#ffffff', weight: 2, fillColor: '#d93025', fillOpacity: 0.95 })
      .bindTooltip(`<b>${escapeHtml(mk.label)}</b>${mk.detail ? `<br>${escapeHtml(mk.detail)}` : ''}`)
      .addTo(group);
  }
  if (!markers.length && !lines.length) return null;
  const b = group.getBounds();
  const natural = lines.length ? 16 : 11;
  map.fitBounds(b, { padding: [32, 32], maxZoom: Math.min(natural, fit.maxZoom ?? natural), animate: false });
  return [
    [b.getSouth(), b.getWest()],
    [b.getNorth(), b.getEast()],
  ];
}

/** A tile layer that reports once whether tiles load ('loaded') or not ('failed': offline). */
export function tileLayer(template: string, attribution: string, onState: (state: 'loaded' | 'failed') => void): L.TileLayer {
  let state: 'loaded' | 'failed' | undefined;
  const tiles = L.tileLayer(template, { attribution, maxZoom: 19, crossOrigin: false });
  tiles.on('tileerror', () => {
    if (state !== undefined) return;
    state = 'failed';
    onState(state);
  });
  tiles.on('tileload', () => {
    if (state === 'loaded') return;
    state = 'loaded';
    onState(state);
  });
  return tiles;
}
