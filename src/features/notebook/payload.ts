// A cell result as the response viewer shows it (vscode-free, unit-tested): the engine's result
// (already redacted) trimmed to a preview, with the map geometry of maps answers worked out here so
// the renderer only draws.
import { REPLAYED_HEADER } from '../../core/httpExchange';
import { describeWaits, type CellResult, type ListenMessage } from '../../notebook/runApi';
import type { MapLine, MapMarker } from '../../services/maps/mapMessages';
import { decodePolyline } from '../../services/maps/polyline';
import { costOf, PRICES, type ModelPrice } from '../../services/llm/pricing';
import {
  assertionDetail,
  listenSummary,
  PREVIEW_BYTES,
  PREVIEW_LOG_LINES,
  PREVIEW_MESSAGES,
  type ResultBody,
  type ResultPayload,
} from '../../webview/result/protocol';

const MAX_MARKERS = 1000;
const MAX_LINES = 20;
/** Characters of one log line shown (a script may log a whole body). */
const MAX_LOG_LINE = 2000;

export interface LiveState {
  /** LLM answer text so far. */
  answer?: string;
  /** LISTEN messages so far. */
  messages?: ListenMessage[];
  count?: number;
}

/** The output shown while a cell runs (streamed text, arriving messages). */
export function runningPayload(resultId: string, service: ResultPayload['service'], name: string | undefined, live: LiveState): ResultPayload {
  return {
    resultId,
    service,
    ...(name ? { name } : {}),
    state: 'running',
    ok: true,
    title: live.count !== undefined ? `${live.count} message${live.count === 1 ? '' : 's'} so far…` : 'Running…',
    ...(live.answer !== undefined ? { answer: clip(live.answer) } : {}),
    ...(live.messages ? { messages: { count: live.count ?? live.messages.length, items: live.messages.slice(-PREVIEW_MESSAGES) } } : {}),
    assertions: [],
  };
}

/** `prices`: the user's price table (apiWorkbench.llm.prices over the defaults), for the cost of LLM cells. */
export function resultPayload(
  resultId: string,
  r: CellResult,
  live: LiveState = {},
  tiles?: { url: string | null; attribution: string },
  prices: Readonly<Record<string, ModelPrice>> = PRICES,
): ResultPayload {
  const res = r.response;
  const p: ResultPayload = {
    resultId,
    service: r.service,
    ...(r.name ? { name: r.name } : {}),
    state: 'done',
    ok: r.ok,
    title: title(r),
    ...(r.skipped ? { skipped: r.skipped } : {}),
    ...(r.cancelled ? { cancelled: true } : {}),
    ...(r.error ? { error: r.error } : {}),
    durationMs: res?.durationMs ?? r.durationMs,
    ...(r.request ? { request: { method: r.request.method, url: r.request.url } } : {}),
    assertions: r.assertions,
    ...(r.logs?.length
      ? { logs: { lines: r.logs.slice(-PREVIEW_LOG_LINES).map((l) => l.slice(0, MAX_LOG_LINE)), dropped: Math.max(0, r.logs.length - PREVIEW_LOG_LINES) } }
      : {}),
    ...(r.variables ? { variables: r.variables } : {}),
  };
  const waited = describeWaits(r.waits);
  if (waited) p.waited = waited;
  // A LISTEN's "status" is not an HTTP answer: its badge says OK or Failed, its title what arrived.
  if (res && !r.listen) p.status = res.status;
  if (res) {
    if (res.requestId) p.requestId = res.requestId;
    if (res.headers[REPLAYED_HEADER] === '1') p.fromRecording = true;
    p.headers = res.headers;
    p.body = body(res.text, res.json, res.size, res.truncated);
    if (r.service === 'llm') {
      const usage = usageOf(res.json, prices);
      if (usage) p.usage = usage;
      const content = streamedContent(res.json);
      if (content !== undefined) p.answer = clip(content);
    }
    if (r.service === 'maps' && res.json !== undefined) {
      const g = geometryOf(res.json);
      if (g.markers.length || g.lines.length) p.geometry = tiles ? { ...g, tiles } : g;
    }
  } else if (live.answer !== undefined) {
    p.answer = clip(live.answer);
  }
  if (r.service === 'realtime' && (r.count !== undefined || live.messages)) {
    const items = Array.isArray(res?.json) ? (res.json as ListenMessage[]) : (live.messages ?? []);
    p.messages = { count: r.count ?? items.length, items: items.slice(-PREVIEW_MESSAGES), ...(r.listen ?? {}) };
  }
  return p;
}

/** A plain-text summary of a payload, for any viewer other than ours. */
export function plainSummary(p: ResultPayload): string {
  const lines = [
    [p.title, p.durationMs !== undefined ? `${Math.round(p.durationMs)} ms` : '', p.waited ?? '', p.requestId ? `request id ${p.requestId}` : '']
      .filter(Boolean)
      .join(' · '),
  ];
  if (p.error) lines.push(p.error);
  if (p.answer !== undefined) lines.push(p.answer);
  for (const a of p.assertions) {
    // A passing check's expected/actual repeat its line; a judge's reason is shown pass or fail.
    const detail = a.passed && a.reason === undefined ? undefined : assertionDetail(a);
    lines.push(`${a.passed ? '✓' : '✗'} ${a.source}${detail === undefined ? '' : ` (${detail})`}`);
  }
  if (p.logs) {
    if (p.logs.dropped) lines.push(`log: (${p.logs.dropped} earlier lines not shown)`);
    for (const l of p.logs.lines) lines.push(`log: ${l}`);
  }
  if (p.body && p.answer === undefined) lines.push(p.body.text.slice(0, 2000));
  return lines.join('\n');
}

function title(r: CellResult): string {
  if (r.skipped) return `Skipped: ${r.skipped}`;
  if (r.cancelled) return 'Stopped';
  if (r.variables) return `${Object.keys(r.variables).length} variable${Object.keys(r.variables).length === 1 ? '' : 's'} set`;
  const failed = r.assertions.filter((a) => !a.passed).length;
  const checks = failed ? `${failed} of ${r.assertions.length} assertions failed` : `${r.assertions.length}/${r.assertions.length} assertions passed`;
  if (r.listen && r.response) return r.assertions.length ? `${listenSummary(r.listen, r.count ?? 0)} · ${checks}` : listenSummary(r.listen, r.count ?? 0);
  if (r.assertions.length) return checks;
  // The badge beside the title already says "Failed": the title says what happened.
  return r.response ? (r.ok ? 'Done' : 'HTTP error') : r.request ? 'No answer' : 'Not sent';
}

function clip(text: string): string {
  return text.length > PREVIEW_BYTES ? text.slice(0, PREVIEW_BYTES) : text;
}

export function body(text: string, json: unknown, size: number, truncated: boolean): ResultBody {
  const partial = truncated || text.length > PREVIEW_BYTES;
  return {
    text: clip(text),
    // A tree of a big body would be a big DOM: past the preview size the viewer shows the text.
    ...(json !== undefined && !partial ? { json } : {}),
    size,
    partial,
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * Token counts and the cost of a chat answer, plain or streamed: the cost the service reports, else
 * the answer's model priced from `prices` (absent when the model has no price).
 */
export function usageOf(json: unknown, prices: Readonly<Record<string, ModelPrice>> = PRICES): ResultPayload['usage'] {
  const usage: unknown = isRecord(json) ? json.usage : undefined;
  if (!isRecord(usage)) return undefined;
  // Chat completions say prompt/completion_tokens; the Responses API input/output_tokens.
  const promptTokens = num(usage.prompt_tokens) ?? num(usage.input_tokens);
  const completionTokens = num(usage.completion_tokens) ?? num(usage.output_tokens);
  const totalTokens = num(usage.total_tokens) ?? (promptTokens !== undefined && completionTokens !== undefined ? promptTokens + completionTokens : undefined);
  const model = isRecord(json) && typeof json.model === 'string' ? json.model : undefined;
  const priced =
    model && promptTokens !== undefined
      ? costOf(model, { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: totalTokens ?? promptTokens }, prices)?.totalUsd
      : undefined;
  const out = { promptTokens, completionTokens, totalTokens, cost: num(usage.cost) ?? priced };
  const known = Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
  return Object.keys(known).length ? known : undefined;
}

/** The answer text of a chat completion: a streamed one's assembled content, or a plain one's first message. */
function streamedContent(json: unknown): string | undefined {
  if (!isRecord(json)) return undefined;
  if (typeof json.content === 'string' && 'finishReason' in json) return json.content;
  const first: unknown = Array.isArray(json.choices) ? json.choices[0] : undefined;
  const message = isRecord(first) ? first.message : undefined;
  return isRecord(message) && typeof message.content === 'string' ? message.content : undefined;
}

/**
 * Markers for everything with a `location` (places, geocoding, validated addresses) and lines for
 * every encoded route polyline, found anywhere in the answer.
 */
export function geometryOf(json: unknown): { markers: MapMarker[]; lines: MapLine[] } {
  const markers: MapMarker[] = [];
  const lines: MapLine[] = [];
  const visit = (v: unknown, depth: number, label: string | undefined): void => {
    if (depth > 8 || markers.length >= MAX_MARKERS) return;
    if (Array.isArray(v)) {
      v.forEach((x, i) => visit(x, depth + 1, label ? `${label} ${i + 1}` : undefined));
      return;
    }
    if (!isRecord(v)) return;
    const name = labelOf(v) ?? label;
    const loc = v.location ?? v.latLng;
    if (isRecord(loc)) {
      const lat = num(loc.latitude);
      const lng = num(loc.longitude);
      if (lat !== undefined && lng !== undefined && Math.abs(lat) <= 90 && Math.abs(lng) <= 180) {
        markers.push({ latitude: lat, longitude: lng, label: (name ?? 'Location').slice(0, 500) });
      }
    }
    const encoded = isRecord(v.polyline) ? v.polyline.encodedPolyline : undefined;
    if (typeof encoded === 'string' && lines.length < MAX_LINES) {
      try {
        lines.push({
          label: (name ?? `Route ${lines.length + 1}`).slice(0, 500),
          points: decodePolyline(encoded)
            .slice(0, 50_000)
            .map((p) => [p.latitude, p.longitude]),
        });
      } catch {
        // An unreadable polyline draws nothing; the body tab still shows it.
      }
    }
    for (const [k, x] of Object.entries(v)) if (k !== 'location' && k !== 'polyline') visit(x, depth + 1, name);
  };
  visit(json, 0, undefined);
  return { markers: markers.slice(0, MAX_MARKERS), lines };
}

function labelOf(v: Record<string, unknown>): string | undefined {
  if (isRecord(v.displayName) && typeof v.displayName.text === 'string') return v.displayName.text;
  if (typeof v.formattedAddress === 'string') return v.formattedAddress;
  if (typeof v.description === 'string') return v.description;
  return undefined;
}
