// The messages between the extension and the map webview, validated with zod on both sides
// (the webview bundles this file too: no vscode or node imports here).
import * as z from 'zod/mini';
import { once } from '../../core/once';

const lat = once(() => z.number().check(z.gte(-90), z.lte(90)));
const lng = once(() => z.number().check(z.gte(-180), z.lte(180)));
const text = once(() => z.string().check(z.maxLength(500)));

/** The map's default tiles, when the user has set none (the maps.tileUrl setting). */
export const DEFAULT_TILES = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const DEFAULT_TILE_ATTRIBUTION = '© OpenStreetMap contributors';

export const mapMarkerSchema = once(() => z.object({ latitude: lat(), longitude: lng(), label: text(), detail: z.optional(text()) }));
export type MapMarker = z.infer<ReturnType<typeof mapMarkerSchema>>;

export const mapLineSchema = once(() =>
  z.object({
    label: text(),
    points: z.array(z.tuple([lat(), lng()])).check(z.maxLength(50_000)),
  }),
);
export type MapLine = z.infer<ReturnType<typeof mapLineSchema>>;

/** Extension → webview: draw this (replacing what was drawn). */
export const showMessageSchema = once(() =>
  z.object({
    type: z.literal('show'),
    title: text(),
    markers: z.array(mapMarkerSchema()).check(z.maxLength(1_000)),
    lines: z.array(mapLineSchema()).check(z.maxLength(20)),
    /** `{z}/{x}/{y}` tile template, or null for a plain background. */
    tileUrl: z.nullable(z.string().check(z.maxLength(500))),
    attribution: text(),
    /** Numbers each draw, echoed in `rendered`, so a caller is answered for its own draw and not another's. */
    seq: z.optional(z.number()),
  }),
);
export type ShowMessage = z.infer<ReturnType<typeof showMessageSchema>>;
export const hostToMapSchema = showMessageSchema;

/** Webview → extension. */
export const mapToHostSchema = once(() =>
  z.union([
    z.object({ type: z.literal('ready') }),
    z.object({
      type: z.literal('rendered'),
      markers: z.number(),
      lines: z.number(),
      /** [[south, west], [north, east]] of what is shown, null when nothing is. */
      bounds: z.nullable(z.tuple([z.tuple([z.number(), z.number()]), z.tuple([z.number(), z.number()])])),
      /** [[south, west], [north, east]] of the map on screen after fitting: it holds `bounds`, closely. */
      view: z.optional(z.tuple([z.tuple([z.number(), z.number()]), z.tuple([z.number(), z.number()])])),
      /** The `seq` of the draw on screen (a refit reports the last one again). */
      seq: z.optional(z.number()),
    }),
    z.object({ type: z.literal('tiles'), state: z.enum(['loaded', 'failed']) }),
    /** The offline basemap was drawn under the geometry (tiles unavailable), or could not be loaded. */
    z.object({ type: z.literal('basemap'), state: z.enum(['drawn', 'failed']), message: z.optional(text()) }),
    z.object({ type: z.literal('error'), message: text() }),
  ]),
);
export type MapToHost = z.infer<ReturnType<typeof mapToHostSchema>>;
