// What a notebook cell's output carries to the response viewer (the notebook renderer), and the
// messages the viewer sends back. Shared by the extension (src/editor/notebook) and the renderer
// bundle: no vscode or node imports here.
import * as z from 'zod/mini';
import type { AssertionResult, CodeLanguage, ListenMessage } from '../../notebook/api';
import { SCRIPT_TEST_EXPECTED } from '../../core/scriptTests';
import { mapLineSchema, mapMarkerSchema, type MapLine, type MapMarker } from '../../services/maps/mapMessages';

/** The custom mime type of a cell result; outputs also carry text/plain (and JSON) for other viewers. */
export const RESULT_MIME = 'application/vnd.api-workbench.result+json';

/**
 * Bytes of a body the output carries. Outputs are kept in the editor's memory and sent to the
 * renderer's webview, so a big body is previewed; "Open Whole Body in Editor" shows all of it.
 */
export const PREVIEW_BYTES = 256 * 1024;
/** Messages of a LISTEN cell carried in the output (the count is always exact). */
export const PREVIEW_MESSAGES = 500;

/** What a LISTEN received, or that nothing came within its window. */
/** Log lines of a cell's scripts shown in its output (the CLI's --verbose shows them all). */
export const PREVIEW_LOG_LINES = 200;

export function listenSummary(listen: { channel: string; windowMs: number }, count: number): string {
  const window = `${+(listen.windowMs / 1000).toFixed(1)} s`;
  if (count === 0) return `No messages arrived on ${listen.channel} within ${window}`;
  return `${count} message${count === 1 ? '' : 's'} received on ${listen.channel} in ${window}`;
}

export interface ResultBody {
  /** The (redacted) body text, at most PREVIEW_BYTES of it. */
  text: string;
  /** The parsed body when it is JSON and small enough to show as a tree. */
  json?: unknown;
  /** Bytes of the whole body. */
  size: number;
  /** The preview is not all of the body (or the engine kept only part of it). */
  partial: boolean;
}

export interface ResultPayload {
  /** Identifies the body kept in the extension for "Open Whole Body in Editor". */
  resultId: string;
  service: CodeLanguage;
  name?: string;
  /** 'running' while an LLM answer streams in or a LISTEN collects messages. */
  state: 'running' | 'done';
  ok: boolean;
  title: string;
  skipped?: string;
  cancelled?: boolean;
  error?: string;
  status?: number;
  durationMs?: number;
  /** Why it took that long, when it waited: "after 1 retry (429; waited 20.50 s)" (describeWaits). */
  waited?: string;
  requestId?: string;
  /** The answer came from a recording (Run from Recording, --replay): nothing was sent. */
  fromRecording?: boolean;
  request?: { method: string; url: string };
  headers?: Record<string, string>;
  body?: ResultBody;
  /** A streamed LLM answer: the text as it arrived so far. */
  answer?: string;
  usage?: { promptTokens?: number; completionTokens?: number; totalTokens?: number; cost?: number };
  /** LISTEN: what arrived; `channel` and `windowMs` say where and for how long it listened. */
  messages?: { count: number; items: ListenMessage[]; channel?: string; windowMs?: number };
  assertions: AssertionResult[];
  /** What the cell's scripts logged (console.log, client.log, notes), the last PREVIEW_LOG_LINES of them. */
  logs?: { lines: string[]; dropped: number };
  variables?: Record<string, string>;
  /** Maps results: what the map tab draws. */
  geometry?: { markers: MapMarker[]; lines: MapLine[]; tiles?: { url: string | null; attribution: string } };
}

/** Renderer → extension. */
export const rendererMessageSchema = z.union([
  z.object({ type: z.literal('openBody'), resultId: z.string().check(z.maxLength(100)) }),
  z.object({
    type: z.literal('rendered'),
    resultId: z.string().check(z.maxLength(100)),
    tab: z.string().check(z.maxLength(40)),
    /** tab "map-view": what the map tab shows after fitting, [[south, west], [north, east]]. */
    view: z.optional(z.tuple([z.tuple([z.number(), z.number()]), z.tuple([z.number(), z.number()])])),
  }),
  /** "Show on Map Panel": the map tab's geometry, to draw on the maps view's shared map. */
  z.object({
    type: z.literal('showOnMap'),
    resultId: z.string().check(z.maxLength(100)),
    title: z.string().check(z.maxLength(500)),
    markers: z.array(mapMarkerSchema()).check(z.maxLength(1_000)),
    lines: z.array(mapLineSchema()).check(z.maxLength(20)),
  }),
]);
export type RendererMessage = z.infer<typeof rendererMessageSchema>;

/** Extension → renderer: show this tab of every rendered result (or of one). */
export const hostMessageSchema = z.object({
  type: z.literal('selectTab'),
  tab: z.string().check(z.maxLength(40)),
  resultId: z.optional(z.string().check(z.maxLength(100))),
});
export type HostMessage = z.infer<typeof hostMessageSchema>;

/**
 * The line under a check in a cell's output: a judge's reason (pass or fail), a script test's
 * assertion message when it failed (nothing when it passed: its name says it all), else what the
 * check expected and what it found.
 */
export function assertionDetail(a: AssertionResult): string | undefined {
  if (a.reason !== undefined) return `judge ${a.judgeModel ?? ''}: ${a.reason}`.replace('judge :', 'judge:');
  if (a.expected === SCRIPT_TEST_EXPECTED) return a.passed ? undefined : a.actual;
  return `expected ${a.expected} · actual ${a.actual}`;
}
