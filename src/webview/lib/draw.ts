// Leaflet drawing shared by the map panel (map.ts) and the notebook response viewer's map tab:
// markers for places, polylines for routes, fitted into view; tiles when they load, and the vector
// layers over the offline basemap when they do not (no network; see basemapLayer.ts).
import * as L from 'leaflet';
import type { MapLine, MapMarker } from '../../services/maps/mapMessages';

export const LINE_COLORS = ['#1a73e8', '#e8710a', '#188038', '#a142f4'];

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

type Bounds = [[number, number], [number, number]];

/**
 * Keeps a map fitted to the result it shows. Leaflet fits to the element's size at the moment of
 * the call: a fit made while the element has no size yet (a panel still opening, a tab not yet in
 * the page) zooms to nowhere, and a resize (the header wrapping to a longer title, the panel or
 * the editor resized) keeps the old centre and zoom, cutting the result off. So the fit is made
 * once the element has a size, and made again on every resize until the user moves the map.
 */
export class FittedMap {
  private target: { bounds: L.LatLngBounds; maxZoom: number } | undefined;
  private userMoved = false;
  private done = false;
  private zoomCap: number | undefined;

  constructor(
    readonly map: L.Map,
    /** Told after a resize made the map fit again (the map panel reports its new view). */
    private readonly onRefit?: () => void,
  ) {
    // The person's hand, not Leaflet's events: the offline basemap zooms the map out by itself.
    const touched = () => (this.userMoved = true);
    for (const event of ['pointerdown', 'wheel', 'keydown'] as const) map.getContainer().addEventListener(event, touched, { passive: true });
    new ResizeObserver(() => this.resized()).observe(map.getContainer());
  }

  /** Fits to `bounds` now if the element has a size, else as soon as it has one; a new result forgets the user's moves. */
  fit(bounds: L.LatLngBounds, maxZoom: number): void {
    this.target = { bounds, maxZoom };
    this.userMoved = false;
    this.done = false;
    this.map.invalidateSize({ animate: false });
    this.apply();
  }

  /** No fit closer than this (offline, the basemap's outlines end at OFFLINE_MAX_ZOOM); undefined: no cap. */
  capZoom(zoom: number | undefined): void {
    this.zoomCap = zoom;
  }

  /** Whether the view is fitted to the result (false while the element has had no size yet). */
  get fitted(): boolean {
    return this.done;
  }

  /** Nothing to fit to (an empty result): the view stays where it is. */
  clear(): void {
    this.target = undefined;
    this.done = false;
  }

  /** What is on screen now, [[south, west], [north, east]]. */
  view(): Bounds {
    const b = this.map.getBounds();
    return [
      [b.getSouth(), b.getWest()],
      [b.getNorth(), b.getEast()],
    ];
  }

  private apply(): boolean {
    const size = this.map.getSize();
    if (!this.target || size.x === 0 || size.y === 0) return false;
    const maxZoom = Math.min(this.target.maxZoom, this.zoomCap ?? this.target.maxZoom);
    this.map.fitBounds(this.target.bounds, { padding: [32, 32], maxZoom, animate: false });
    this.done = true;
    return true;
  }

  private resized(): void {
    this.map.invalidateSize({ animate: false });
    if (!this.userMoved && this.apply()) this.onRefit?.();
  }
}

/**
 * Replaces what `group` shows with these markers and lines, fitting the view to them (no closer
 * than `maxZoom`, when given); returns the drawn bounds (or null).
 */
export function drawGeometry(
  view: FittedMap,
  group: L.FeatureGroup,
  markers: readonly MapMarker[],
  lines: readonly MapLine[],
  fit: { maxZoom?: number } = {},
): Bounds | null {
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
  if (!markers.length && !lines.length) {
    view.clear();
    return null;
  }
  const b = group.getBounds();
  const natural = lines.length ? 16 : 11;
  view.fit(b, Math.min(natural, fit.maxZoom ?? natural));
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
