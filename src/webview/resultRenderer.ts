/// <reference lib="dom" />
// The response viewer: a notebook renderer (an ES module VS Code loads into the notebook's output
// webview) for application/vnd.api-workbench.result+json. Status, time, size and request id on
// top; assertions; tabs for the body (folding, searchable JSON), headers, the map of a maps answer,
// LISTEN messages. It talks to the extension only through the typed RendererMessage.
import * as L from 'leaflet';
import leafletCss from 'leaflet/dist/leaflet.css';
import { OFFLINE_MAX_ZOOM, offlineBasemap } from './lib/basemapLayer';
import { drawGeometry, FittedMap, tileLayer } from './lib/draw';
import { bodyView } from './result/jsonView';
import { validate } from '../core/validate';
import { DEFAULT_TILE_ATTRIBUTION, DEFAULT_TILES } from '../services/maps/mapMessages';
import { assertionDetail, hostMessageSchema, listenSummary, type RendererMessage, type ResultPayload } from './result/protocol';
import { VIEWER_CSS } from './result/styles';
import { formatMs, formatUsd } from '../core/numbers';

interface OutputItem {
  readonly id: string;
  readonly mime: string;
  json(): unknown;
}
interface RendererContext {
  postMessage?(message: unknown): void;
  onDidReceiveMessage?(listener: (message: unknown) => void): { dispose(): void };
}

/** Tab selectors of the outputs on screen (by output item id), for the extension's selectTab message. */
const selectors = new Map<string, { resultId: string; select: (tab: string) => void }>();

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function meta(label: string, value: string): HTMLElement {
  const span = el('span', 'awb-meta', `${label} `);
  span.append(el('b', undefined, value));
  return span;
}

function injectStyles(): void {
  if (document.getElementById('awb-result-styles')) return;
  const style = el('style');
  style.id = 'awb-result-styles';
  style.textContent = `${leafletCss}\n${VIEWER_CSS}`;
  document.head.append(style);
}

function table(rows: Array<[string, string]>): HTMLElement {
  const t = el('table', 'awb-table');
  for (const [k, v] of rows) {
    const tr = el('tr');
    tr.append(el('td', undefined, k), el('td', undefined, v));
    t.append(tr);
  }
  return t;
}

function header(p: ResultPayload): HTMLElement {
  const head = el('div', 'awb-head');
  const neutral = p.state === 'running' || p.skipped !== undefined || p.cancelled;
  const badge =
    p.status !== undefined ? String(p.status) : p.state === 'running' ? 'Running' : p.cancelled ? 'Stopped' : p.skipped ? 'Skipped' : p.ok ? 'OK' : 'Failed';
  head.append(el('span', `awb-badge${neutral ? ' neutral' : p.ok ? '' : ' fail'}`, badge), el('span', undefined, p.title));
  if (p.durationMs !== undefined) head.append(meta('time', formatMs(p.durationMs)));
  // A cell slowed by a 429 or the rate limit says so beside its time.
  if (p.waited) head.append(el('span', 'awb-meta', p.waited));
  if (p.body) head.append(meta('size', size(p.body.size)));
  if (p.requestId) head.append(meta('request id', p.requestId));
  // A replayed answer is not a live one: its time, cost and request id are those of the recording.
  if (p.fromRecording) head.append(el('span', 'awb-meta awb-recorded', 'answer from a recording'));
  if (p.usage?.totalTokens !== undefined || p.usage?.completionTokens !== undefined) {
    const u = p.usage;
    head.append(meta('tokens', `${u.promptTokens ?? '?'} in · ${u.completionTokens ?? '?'} out`));
  }
  if (p.usage?.cost !== undefined) head.append(meta('cost', formatUsd(p.usage.cost)));
  return head;
}

function assertions(p: ResultPayload): HTMLElement | undefined {
  if (!p.assertions.length) return undefined;
  const box = el('div', 'awb-asserts');
  for (const a of p.assertions) {
    const row = el('div', `awb-assert ${a.passed ? 'pass' : 'fail'}`);
    row.append(el('span', 'mark', a.passed ? '✓' : '✗'), el('span', undefined, a.source));
    const detail = assertionDetail(a);
    if (detail !== undefined) row.append(el('div', a.reason !== undefined ? 'detail reason' : 'detail', detail));
    box.append(row);
  }
  return box;
}

/** What the cell's scripts logged, as they wrote it, under the checks. */
function scriptLogs(p: ResultPayload): HTMLElement | undefined {
  if (!p.logs) return undefined;
  const box = el('div', 'awb-logs');
  box.append(el('div', 'awb-meta', p.logs.dropped ? `Script log (last ${p.logs.lines.length} lines)` : 'Script log'));
  box.append(el('pre', 'awb-log', p.logs.lines.join('\n')));
  return box;
}

function mapPanel(
  p: NonNullable<ResultPayload['geometry']>,
  onDrawn: () => void,
  /** What the map shows once fitted, and again after a resize fitted it anew. */
  onView: (view: [[number, number], [number, number]]) => void,
  onBasemap: (state: 'drawn' | 'failed') => void,
  onShowOnPanel: () => void,
): HTMLElement {
  const tab = el('div');
  const bar = el('div', 'awb-map-bar');
  const open = el('button', 'awb-link', 'Show on Map Panel');
  open.title = "Draw this result on the maps view's map, beside the notebook";
  open.addEventListener('click', onShowOnPanel);
  bar.append(open);
  const box = el('div', 'awb-map no-tiles');
  tab.append(bar, box);
  let map: L.Map | undefined;
  // Leaflet needs the element's size: the map is made when its tab is first shown.
  (tab as HTMLElement & { awbShow?: () => void }).awbShow = () => {
    // Shown again: its FittedMap measures the element anew and fits again, unless the user moved it.
    // It says again that it is drawn: the host asks again when a report went missing (one posted as
    // the page was hidden behind another tab was lost in CI), and a map made already never drew anew.
    if (map) return onDrawn();
    map = L.map(box, { zoomControl: true, worldCopyJump: true, attributionControl: true }).setView([20, 0], 2);
    const fitted = new FittedMap(map, () => onView(fitted.view()));
    // The same offline basemap as the map panel, fetched from beside this renderer's script.
    const basemap = offlineBasemap(map, import.meta.url, onBasemap);
    const template = p.tiles?.url === undefined ? DEFAULT_TILES : p.tiles.url;
    if (template) {
      const attribution = p.tiles?.attribution ?? DEFAULT_TILE_ATTRIBUTION;
      tileLayer(template, attribution, (state) => {
        box.classList.toggle('no-tiles', state === 'failed');
        fitted.capZoom(state === 'failed' ? OFFLINE_MAX_ZOOM : undefined);
        basemap.update(state === 'failed');
        if (state === 'failed') map?.attributionControl.removeAttribution(attribution);
      }).addTo(map);
    } else basemap.update(true);
    drawGeometry(fitted, L.featureGroup().addTo(map), p.markers, p.lines, template ? {} : { maxZoom: OFFLINE_MAX_ZOOM });
    onDrawn();
    if (fitted.fitted) onView(fitted.view());
  };
  return tab;
}

function render(p: ResultPayload, element: HTMLElement, post: (m: RendererMessage) => void): ((tab: string) => void) | undefined {
  let selectTab: ((tab: string) => void) | undefined;
  const root = el('div', 'awb-result');
  root.append(header(p));
  if (p.request) root.append(el('div', 'awb-request', `${p.request.method} ${p.request.url}`));
  if (p.error) root.append(el('div', 'awb-error', p.error));
  if (p.skipped) root.append(el('div', 'awb-meta', p.skipped));
  const checks = assertions(p);
  if (checks) root.append(checks);
  const logs = scriptLogs(p);
  if (logs) root.append(logs);
  if (p.variables) root.append(table(Object.entries(p.variables)));

  const tabs: Array<{ id: string; label: string; make: () => HTMLElement }> = [];
  if (p.answer !== undefined)
    tabs.push({ id: 'answer', label: 'Answer', make: () => el('div', `awb-answer${p.state === 'running' ? ' running' : ''}`, p.answer) });
  if (p.messages) {
    const m = p.messages;
    tabs.push({
      id: 'messages',
      label: `Messages (${m.count})`,
      make: () =>
        // An empty list says so, with where and how long it listened, rather than showing nothing.
        m.items.length === 0 && p.state === 'done' && m.channel !== undefined && m.windowMs !== undefined
          ? el('div', 'awb-meta', `${listenSummary({ channel: m.channel, windowMs: m.windowMs }, 0)}.`)
          : table(
              m.items.map((x) => [
                `+${(x.atMs / 1000).toFixed(1)} s ${x.channel} ${x.event}${x.decrypted ? ' [decrypted]' : ''}`,
                x.error !== undefined ? `⚠ ${x.error}` : typeof x.data === 'string' ? x.data : JSON.stringify(x.data),
              ]),
            ),
    });
  }
  if (p.body && !p.messages) {
    const b = p.body;
    tabs.push({
      id: 'body',
      label: 'Body',
      make: () => {
        const box = el('div');
        if (b.partial) {
          const banner = el('div', 'awb-banner', `Showing the first ${size(b.text.length)} of ${size(b.size)}.`);
          const open = el('button', undefined, 'Open Whole Body in Editor');
          open.addEventListener('click', () => post({ type: 'openBody', resultId: p.resultId }));
          banner.append(open);
          box.append(banner);
        }
        box.append(bodyView(b.json, b.text, /^\s*[[{]/.test(b.text)));
        return box;
      },
    });
  }
  // A LISTEN's result has no HTTP answer: an empty "Headers (0)" tab would only be noise.
  if (p.headers && Object.keys(p.headers).length > 0) {
    const h = p.headers;
    tabs.push({ id: 'headers', label: `Headers (${Object.keys(h).length})`, make: () => table(Object.entries(h)) });
  }
  if (p.geometry) {
    const g = p.geometry;
    tabs.push({
      id: 'map',
      label: 'Map',
      make: () =>
        mapPanel(
          g,
          () => post({ type: 'rendered', resultId: p.resultId, tab: 'map-drawn' }),
          (view) => post({ type: 'rendered', resultId: p.resultId, tab: 'map-view', view }),
          (state) => post({ type: 'rendered', resultId: p.resultId, tab: `map-basemap-${state}` }),
          // A notebook result's title is its assertion summary: the cell's name says more on the map.
          () =>
            post({
              type: 'showOnMap',
              resultId: p.resultId,
              title: (p.name ? `Notebook cell ${p.name}` : p.title).slice(0, 500),
              markers: g.markers,
              lines: g.lines,
            }),
        ),
    });
  }

  if (tabs.length) {
    const bar = el('div', 'awb-tabs');
    bar.setAttribute('role', 'tablist');
    const panel = el('div', 'awb-panel');
    const made = new Map<string, HTMLElement>();
    const buttons: HTMLButtonElement[] = [];
    const select = (id: string) => {
      const tab = tabs.find((t) => t.id === id) ?? tabs[0];
      let content = made.get(tab.id);
      if (!content) {
        content = tab.make();
        made.set(tab.id, content);
      }
      panel.replaceChildren(content);
      for (const b of buttons) b.setAttribute('aria-selected', String(b.dataset.tab === tab.id));
      (content as HTMLElement & { awbShow?: () => void }).awbShow?.();
      if (p.state === 'done') post({ type: 'rendered', resultId: p.resultId, tab: tab.id });
    };
    for (const t of tabs) {
      const b = el('button', 'awb-tab', t.label);
      b.dataset.tab = t.id;
      b.setAttribute('role', 'tab');
      b.addEventListener('click', () => select(t.id));
      buttons.push(b);
      bar.append(b);
    }
    root.append(bar, panel);
    // In the page before the first tab is made: a map measures its element when it is made.
    element.replaceChildren(root);
    select(tabs[0].id);
    selectTab = (id) => tabs.some((t) => t.id === id) && select(id);
    return selectTab;
  }
  element.replaceChildren(root);
  if (p.state === 'done') post({ type: 'rendered', resultId: p.resultId, tab: 'none' });
  return selectTab;
}

export function activate(ctx: RendererContext) {
  injectStyles();
  const post = (m: RendererMessage) => ctx.postMessage?.(m);
  ctx.onDidReceiveMessage?.((message) => {
    const v = validate(hostMessageSchema, message);
    if (!v.ok) return;
    for (const { resultId, select } of selectors.values()) if (!v.value.resultId || v.value.resultId === resultId) select(v.value.tab);
  });
  return {
    renderOutputItem(item: OutputItem, element: HTMLElement): void {
      const p = item.json() as ResultPayload;
      const select = render(p, element, post);
      if (select) selectors.set(item.id, { resultId: p.resultId, select });
      else selectors.delete(item.id);
    },
    disposeOutputItem(id?: string): void {
      if (id === undefined) selectors.clear();
      else selectors.delete(id);
    },
  };
}
