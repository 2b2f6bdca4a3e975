/// <reference lib="dom" />
// The Realtime Inspector's page: a virtualised table of the messages the extension keeps (it holds
// 100,000; the page draws only the ~40 rows in sight and asks the extension for them as it
// scrolls), filter boxes, Pause/Clear, and the selected message's full JSON with Copy and
// Republish. The page keeps no messages of its own: every update carries the counts and the rows
// of the current viewport, at most ten times a second.
import type { HostMessage, InspectorDetail, PageMessage } from '../services/realtime/inspectorFeed';
import type { InspectorCounts, InspectorFilter, InspectorRow } from '../services/realtime/inspectorStore';

interface VsCodeApi {
  postMessage(message: PageMessage): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const post = (m: PageMessage) => vscode.postMessage(m);

const ROW_HEIGHT = 22;
/** Rows drawn beyond the visible ones, above and below, so a fast scroll shows no gap. */
const OVERSCAN = 10;
const FILTER_DELAY_MS = 150;

function el<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the inspector page has no #${id}`);
  return found as T;
}

const inputs = { channel: el<HTMLInputElement>('f-channel'), event: el<HTMLInputElement>('f-event'), regex: el<HTMLInputElement>('f-regex') };
const problemEl = el('problem');
const countsEl = el('counts');
const pauseBtn = el<HTMLButtonElement>('pause');
const clearBtn = el<HTMLButtonElement>('clear');
const scroller = el('scroller');
const spacer = el('spacer');
const rowsEl = el('rows');
const detailEl = el('detail');
const detailTitle = el('detail-title');
const detailData = el<HTMLTextAreaElement>('detail-data');
const rpChannel = el<HTMLInputElement>('rp-channel');
const rpEvent = el<HTMLInputElement>('rp-event');
const detailNote = el('detail-note');

let counts: InspectorCounts | undefined;
let follow = true;
let selected: number | undefined;
let lastUpdate: { start: number; rows: InspectorRow[] } = { start: 0, rows: [] };
const fmt = new Intl.NumberFormat('en-US');

function time(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

function size(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

function headerText(c: InspectorCounts): string {
  const parts = [`${fmt.format(c.received)} received = ${fmt.format(c.shown)} shown + ${fmt.format(c.filteredOut)} filtered out`];
  if (c.paused || c.held > 0) parts.push(`${fmt.format(c.held)} held while paused`);
  if (c.dropped > 0) parts.push(`${fmt.format(c.dropped)} dropped (only the last ${fmt.format(c.capacity)} are kept)`);
  return parts.join(' + ');
}

function cell(cls: string, text: string, title?: string): HTMLSpanElement {
  const s = document.createElement('span');
  s.className = cls;
  s.textContent = text;
  if (title) s.title = title;
  return s;
}

function renderRow(r: InspectorRow, index: number): HTMLDivElement {
  const row = document.createElement('div');
  row.className = `row${r.seq === selected ? ' selected' : ''}`;
  row.setAttribute('role', 'row');
  row.dataset.seq = String(r.seq);
  row.style.transform = `translateY(${index * ROW_HEIGHT}px)`;
  const event = cell('c-event', r.event, r.event);
  if (r.decrypted) event.prepend(cell('badge', 'decrypted', 'Decrypted with the encryption master key: the wire carried only ciphertext'));
  row.append(
    cell('c-time', time(r.time)),
    cell('c-conn', r.connection, r.connection),
    cell('c-channel', r.channel || '(no channel)', r.channel),
    event,
    cell('c-size', size(r.size)),
    cell('c-data', r.preview, r.userId === undefined ? undefined : `from user ${r.userId}`),
  );
  return row;
}

function render(): void {
  const total = counts?.shown ?? 0;
  spacer.style.height = `${total * ROW_HEIGHT}px`;
  rowsEl.replaceChildren(...lastUpdate.rows.map((r, i) => renderRow(r, lastUpdate.start + i)));
  if (counts) countsEl.textContent = headerText(counts);
  if (follow) scroller.scrollTop = scroller.scrollHeight;
  post({ type: 'rendered', seqs: lastUpdate.rows.map((r) => r.seq), total, header: countsEl.textContent ?? '' });
}

let viewportQueued = false;
function sendViewport(): void {
  if (viewportQueued) return;
  viewportQueued = true;
  requestAnimationFrame(() => {
    viewportQueued = false;
    const visible = Math.ceil(scroller.clientHeight / ROW_HEIGHT);
    const first = Math.floor(scroller.scrollTop / ROW_HEIGHT);
    post({ type: 'viewport', start: Math.max(0, first - OVERSCAN), count: visible + 2 * OVERSCAN, follow });
  });
}

scroller.addEventListener('scroll', () => {
  // At the bottom, the table follows new messages; scrolled up, it stays where the reader is.
  follow = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - ROW_HEIGHT;
  sendViewport();
});
new ResizeObserver(() => sendViewport()).observe(scroller);

let filterTimer: ReturnType<typeof setTimeout> | undefined;
function sendFilter(): void {
  clearTimeout(filterTimer);
  filterTimer = setTimeout(
    () => post({ type: 'filter', channel: inputs.channel.value, event: inputs.event.value, regex: inputs.regex.value }),
    FILTER_DELAY_MS,
  );
}
for (const input of Object.values(inputs)) input.addEventListener('input', sendFilter);

function setPaused(paused: boolean): void {
  pauseBtn.textContent = paused ? 'Resume' : 'Pause';
  pauseBtn.setAttribute('aria-pressed', String(paused));
  document.body.classList.toggle('paused', paused);
}
pauseBtn.addEventListener('click', () => post({ type: counts?.paused ? 'resume' : 'pause' }));
clearBtn.addEventListener('click', () => {
  selected = undefined;
  detailEl.hidden = true;
  post({ type: 'clear' });
});

rowsEl.addEventListener('click', (e) => {
  const row = (e.target as HTMLElement).closest<HTMLElement>('.row');
  if (!row?.dataset.seq) return;
  select(Number(row.dataset.seq));
});

function select(seq: number): void {
  selected = seq;
  rowsEl.querySelectorAll<HTMLElement>('.row').forEach((r) => r.classList.toggle('selected', r.dataset.seq === String(seq)));
  post({ type: 'select', seq });
}

scroller.addEventListener('keydown', (e) => {
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
  const rows = lastUpdate.rows;
  const at = rows.findIndex((r) => r.seq === selected);
  const next = rows[Math.min(rows.length - 1, Math.max(0, at < 0 ? rows.length - 1 : at + (e.key === 'ArrowDown' ? 1 : -1)))];
  if (next) select(next.seq);
  e.preventDefault();
});

function showDetail(d: InspectorDetail | undefined, seq: number): void {
  detailEl.hidden = false;
  if (!d) {
    detailTitle.textContent = `Message #${seq}`;
    detailNote.textContent = 'This message is no longer kept (cleared, or pushed out by newer ones).';
    detailData.value = '';
    return;
  }
  const who = d.userId === undefined ? '' : ` · from user ${d.userId}`;
  detailTitle.textContent = `#${d.seq} · ${time(d.time)} · ${d.connection} · ${d.channel || '(no channel)'} · ${d.event} · ${size(d.size)}${d.decrypted ? ' · decrypted' : ''}${who}`;
  detailNote.textContent = d.json ? 'Edit the data before republishing if you like.' : 'The data is not JSON: it is sent as text.';
  detailData.value = d.pretty;
  rpChannel.value = d.channel;
  rpEvent.value = d.event;
}

el('copy').addEventListener('click', () => selected !== undefined && post({ type: 'copy', seq: selected }));
el('close').addEventListener('click', () => {
  detailEl.hidden = true;
  selected = undefined;
  render();
});
el('republish').addEventListener('click', () => {
  if (selected === undefined) return;
  post({ type: 'republish', seq: selected, channel: rpChannel.value.trim(), event: rpEvent.value.trim(), data: detailData.value });
});

function setFilter(f: InspectorFilter): void {
  inputs.channel.value = f.channel;
  inputs.event.value = f.event;
  inputs.regex.value = f.regex;
}

window.addEventListener('message', (e: MessageEvent<HostMessage>) => {
  const m = e.data;
  switch (m.type) {
    case 'update':
      counts = m.counts;
      setPaused(m.counts.paused);
      lastUpdate = { start: m.start, rows: m.rows };
      render();
      break;
    case 'filterResult':
      problemEl.textContent = m.problem ? `Invalid regular expression: ${m.problem}. Still showing the last valid filter.` : '';
      inputs.regex.classList.toggle('invalid', !!m.problem);
      inputs.regex.setAttribute('aria-invalid', String(!!m.problem));
      break;
    case 'detail':
      if (m.seq === selected) showDetail(m.detail, m.seq);
      break;
    case 'set':
      if (m.filter) {
        setFilter(m.filter);
        post({ type: 'filter', ...m.filter });
      }
      if (m.paused !== undefined && m.paused !== (counts?.paused ?? false)) post({ type: m.paused ? 'pause' : 'resume' });
      if (m.select !== undefined) {
        const seq = m.select === 'last' ? lastUpdate.rows.at(-1)?.seq : m.select;
        if (seq !== undefined) select(seq);
      }
      break;
  }
});

post({ type: 'ready' });
sendViewport();
