import * as z from 'zod/mini';
import type { Config } from '../config';

export const DEFAULT_TILES = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const DEFAULT_TILE_ATTRIBUTION = '© OpenStreetMap contributors';

/**
 * The map's tiles from the user's settings only (a workspace cannot redirect them): an https
 * `{z}/{x}/{y}` template, or null (no tiles: the offline basemap is drawn instead).
 */
export function mapTiles(config: Config): { url: string | null; attribution: string } {
  const url = config.read('maps.tileUrl', z.string(), DEFAULT_TILES, { userOnly: true }).trim();
  const attribution = config.read('maps.tileAttribution', z.string(), DEFAULT_TILE_ATTRIBUTION, { userOnly: true });
  return { url: /^https:\/\/[^\s]+$/.test(url) ? url : null, attribution: attribution.slice(0, 500) };
}
