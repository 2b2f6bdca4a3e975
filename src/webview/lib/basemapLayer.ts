// The offline basemap on a Leaflet map (map panel and response viewer alike): land, borders and
// coastlines from basemap.ts with a graticule that follows the view, in a pane under the tiles and
// the drawn geometry, so markers and routes are placed in the world without any network.
import * as L from 'leaflet';
import { BASEMAP_ATTRIBUTION, BASEMAP_FILE, decodeBasemap, graticule, graticuleStep, type Basemap } from './basemap';

const PANE = 'awb-basemap';
const STYLE = {
  land: { color: '#c9c2b2', weight: 0, fillColor: '#f4f1ea', fillOpacity: 1 },
  coast: { color: '#7f9db0', weight: 1, opacity: 1 },
  border: { color: '#9a8f78', weight: 1, opacity: 1, dashArray: '4 3' },
  graticule: { color: '#5f7b8f', weight: 0.7, opacity: 0.4 },
};
/**
 * Fitting a view to the data offline stops here (a region the size of France in a narrow panel):
 * closer in, the 1:110m outlines leave nothing around the data to place it in the world.
 */
export const OFFLINE_MAX_ZOOM = 6;

const loads = new Map<string, Promise<Basemap>>();

/** Fetches and decodes the TopoJSON beside the webview script at `scriptUrl` (once per page). */
export function loadBasemap(scriptUrl: string): Promise<Basemap> {
  const url = new URL(BASEMAP_FILE, scriptUrl).toString();
  let load = loads.get(url);
  if (!load) {
    load = fetch(url)
      .then((r) => {
        if (!r.ok) throw new Error(`${BASEMAP_FILE}: HTTP ${r.status}`);
        return r.json() as Promise<unknown>;
      })
      .then(decodeBasemap);
    // A failed load may be retried by the next map (e.g. after the webview reloads its resources).
    load.catch(() => loads.delete(url));
    loads.set(url, load);
  }
  return load;
}

export interface BasemapHandle {
  remove(): void;
}

/** Draws `basemap` under everything else on `map`, redrawing the graticule as the view changes. */
export function addBasemap(map: L.Map, basemap: Basemap): BasemapHandle {
  const pane = map.getPane(PANE) ?? map.createPane(PANE);
  // Above the plain background, below tiles (200) and the geometry's overlay pane (400).
  pane.style.zIndex = '150';
  pane.style.pointerEvents = 'none';
  // One canvas draws ~180 countries far faster than as many SVG paths.
  const renderer = L.canvas({ pane: PANE, padding: 0.5 });
  const common = { pane: PANE, renderer, interactive: false };
  const group = L.layerGroup().addTo(map);
  L.polygon(
    basemap.countries.flatMap((c) => c.polygons),
    { ...common, ...STYLE.land },
  ).addTo(group);
  L.polyline(basemap.borders, { ...common, ...STYLE.border }).addTo(group);
  L.polyline(basemap.coastlines, { ...common, ...STYLE.coast }).addTo(group);
  const lines = L.layerGroup().addTo(group);
  const drawGraticule = () => {
    const b = map.getBounds();
    const span = Math.max(b.getNorth() - b.getSouth(), Math.min(360, b.getEast() - b.getWest()));
    const g = graticule({ south: b.getSouth(), west: b.getWest(), north: b.getNorth(), east: b.getEast() }, graticuleStep(span));
    lines.clearLayers();
    L.polyline([...g.meridians, ...g.parallels], { ...common, ...STYLE.graticule }).addTo(lines);
  };
  drawGraticule();
  map.on('moveend', drawGraticule);
  map.attributionControl?.addAttribution(BASEMAP_ATTRIBUTION);
  return {
    remove() {
      map.off('moveend', drawGraticule);
      map.attributionControl?.removeAttribution(BASEMAP_ATTRIBUTION);
      group.remove();
    },
  };
}

/**
 * Shows the basemap on `map` whenever `wanted()` holds: call `update()` when the tile state changes.
 * With no data the offline view fits the world; a view zoomed closer than the outlines can
 * show is brought back to OFFLINE_MAX_ZOOM around its centre.
 */
export function offlineBasemap(
  map: L.Map,
  scriptUrl: string,
  onState?: (state: 'drawn' | 'failed', error?: unknown) => void,
): { update(wanted: boolean): void } {
  let handle: BasemapHandle | undefined;
  let want = false;
  return {
    update(wanted: boolean) {
      want = wanted;
      if (!wanted) {
        handle?.remove();
        handle = undefined;
        return;
      }
      if (handle) return;
      loadBasemap(scriptUrl).then(
        (basemap) => {
          if (!want || handle) return;
          handle = addBasemap(map, basemap);
          if (map.getZoom() > OFFLINE_MAX_ZOOM) map.setZoom(OFFLINE_MAX_ZOOM, { animate: false });
          onState?.('drawn');
        },
        (e: unknown) => onState?.('failed', e),
      );
    },
  };
}
