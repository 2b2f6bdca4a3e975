/// <reference lib="dom" />
// The Compare webview: pick 2–4 models, type one prompt, and watch the answers stream side by side
// with tokens, latency, time to first token and cost under each. Everything the extension sends is
// validated; text is only ever set with textContent (answers are untrusted).
import { validate } from '../core/validate';
import {
  hostToCompareSchema,
  type ColumnEvent,
  type ColumnFailure,
  type ColumnStats,
  type CompareToHost,
  type HostToCompare,
  type RenderedColumn,
} from '../services/llm/compareMessages';
import { formatMs as ms } from '../core/numbers';

interface VsCodeApi {
  postMessage(message: CompareToHost): void;
  setState(state: SavedState): void;
  getState(): unknown;
}
declare function acquireVsCodeApi(): VsCodeApi;

interface SavedState {
  prompt: string;
  selected: string[];
}

const MIN = 2;
const MAX = 4;
const vscode = acquireVsCodeApi();
const post = (m: CompareToHost) => vscode.postMessage(m);

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const connectionEl = byId<HTMLSpanElement>('connection');
const modelsEl = byId<HTMLDivElement>('models');
const pickHintEl = byId<HTMLSpanElement>('pick-hint');
const promptEl = byId<HTMLTextAreaElement>('prompt');
const runEl = byId<HTMLButtonElement>('run');
const stopEl = byId<HTMLButtonElement>('stop');
const refreshEl = byId<HTMLButtonElement>('refresh');
const noticeEl = byId<HTMLDivElement>('notice');
const columnsEl = byId<HTMLDivElement>('columns');

interface Column {
  model: string;
  state: RenderedColumn['state'];
  text: string;
  answer: HTMLDivElement;
  status: HTMLSpanElement;
  footer: HTMLDivElement;
  root: HTMLElement;
}

let selected: string[] = [];
let running: number | undefined;
let columns: Column[] = [];

const saved = loadState();
promptEl.value = saved.prompt;
selected = saved.selected;

function loadState(): SavedState {
  const s = vscode.getState() as Partial<SavedState> | undefined;
  return {
    prompt: typeof s?.prompt === 'string' ? s.prompt : '',
    selected: Array.isArray(s?.selected) ? s.selected.filter((m): m is string => typeof m === 'string') : [],
  };
}

function saveState(): void {
  vscode.setState({ prompt: promptEl.value, selected });
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function updateControls(): void {
  const n = selected.length;
  pickHintEl.textContent = n < MIN ? `Pick ${MIN}–${MAX} models (${n} picked)` : `${n} models picked`;
  runEl.disabled = running !== undefined || n < MIN || n > MAX || !promptEl.value.trim();
  stopEl.disabled = running === undefined;
  for (const box of Array.from(modelsEl.querySelectorAll<HTMLInputElement>('input[type=checkbox]'))) {
    box.disabled = !box.checked && n >= MAX;
  }
}

function showModels(m: Extract<HostToCompare, { type: 'models' }>): void {
  connectionEl.textContent = m.connection;
  const available = new Set(m.models);
  // Keep the user's ticks across refreshes; the host's suggestion applies when nothing is ticked.
  const kept = selected.filter((id) => available.has(id));
  selected = kept.length ? kept : m.selected.filter((id) => available.has(id));
  modelsEl.replaceChildren();
  if (m.error) modelsEl.append(el('span', 'error', m.error));
  for (const id of m.models) {
    const label = el('label', 'model');
    const box = el('input');
    box.type = 'checkbox';
    box.value = id;
    box.checked = selected.includes(id);
    box.addEventListener('change', () => {
      selected = box.checked ? [...selected, id] : selected.filter((s) => s !== id);
      saveState();
      updateControls();
    });
    label.append(box, el('span', undefined, id));
    modelsEl.append(label);
  }
  saveState();
  updateControls();
}

function startRun(m: Extract<HostToCompare, { type: 'run' }>): void {
  running = m.runId;
  noticeEl.textContent = '';
  // A run the extension started (a command with arguments) shows its prompt and models too.
  promptEl.value = m.prompt;
  selected = [...m.models];
  for (const box of Array.from(modelsEl.querySelectorAll<HTMLInputElement>('input[type=checkbox]'))) box.checked = selected.includes(box.value);
  saveState();
  columnsEl.style.setProperty('--columns', String(m.models.length));
  columns = m.models.map((model) => {
    const root = el('section', 'column');
    const head = el('header');
    const status = el('span', 'status', 'waiting');
    head.append(el('h2', undefined, model), status);
    const answer = el('div', 'answer');
    answer.setAttribute('aria-live', 'polite');
    const footer = el('div', 'footer');
    root.append(head, answer, footer);
    return { model, state: 'waiting' as const, text: '', answer, status, footer, root };
  });
  columnsEl.replaceChildren(...columns.map((c) => c.root));
  updateControls();
}

function statsFooter(s: ColumnStats): string {
  const u = s.usage;
  const tokens = u ? `${u.prompt_tokens} in / ${u.completion_tokens ?? u.total_tokens - u.prompt_tokens} out tokens` : 'tokens not reported';
  return [
    tokens,
    `latency ${ms(s.latencyMs)}`,
    s.firstTokenMs !== undefined ? `first token ${ms(s.firstTokenMs)}` : 'no tokens',
    s.cost,
    s.finishReason && s.finishReason !== 'stop' ? `finish: ${s.finishReason}` : undefined,
    `request id ${s.requestId ?? 'unknown'}`,
  ]
    .filter(Boolean)
    .join(' · ');
}

function failureFooter(f: ColumnFailure): string {
  const head = f.midStream ? `Stopped mid-answer after ${ms(f.latencyMs)}` : `Failed${f.status !== undefined ? `: HTTP ${f.status}` : ''}`;
  const code = f.code ? ` (${f.code})` : '';
  const kept = f.keptChars > 0 ? ` The ${f.keptChars} characters that arrived are kept above.` : '';
  return `${head}${code}: ${f.message}.${kept} Request id ${f.requestId ?? 'unknown'}.`.replace(/\.\./g, '.');
}

function setState(c: Column, state: Column['state'], label: string): void {
  c.state = state;
  c.status.textContent = label;
  c.root.dataset.state = state;
}

function onColumn(e: ColumnEvent): void {
  const c = columns[e.column];
  if (!c) return;
  switch (e.type) {
    case 'start':
      setState(c, 'streaming', 'streaming');
      return;
    case 'delta':
      c.text += e.text;
      c.answer.textContent = c.text;
      return;
    case 'retry':
      setState(c, 'waiting', `${e.status === 429 ? 'rate limited (HTTP 429)' : `HTTP ${e.status ?? '?'}`}: retrying in ${Math.ceil(e.waitMs / 1000)} s`);
      return;
    case 'done':
      setState(c, 'done', 'done');
      c.footer.textContent = statsFooter(e.stats);
      return;
    case 'failed':
      setState(c, 'failed', e.failure.midStream ? 'stopped' : `failed${e.failure.status !== undefined ? ` · ${e.failure.status}` : ''}`);
      c.footer.textContent = failureFooter(e.failure);
      c.footer.classList.add('error');
      return;
    case 'cancelled':
      setState(c, 'cancelled', 'stopped');
      c.footer.textContent = `Stopped after ${ms(e.latencyMs)}: what had arrived is kept above. Request id ${e.requestId ?? 'unknown'}.`;
  }
}

function finish(runId: number): void {
  if (running !== runId) return;
  running = undefined;
  updateControls();
  post({ type: 'rendered', runId, columns: columns.map((c) => ({ model: c.model, state: c.state, text: c.text, footer: c.footer.textContent ?? '' })) });
}

function run(): void {
  const prompt = promptEl.value;
  if (runEl.disabled || !prompt.trim()) return;
  saveState();
  post({ type: 'run', prompt, models: selected.slice(0, MAX) });
}

runEl.addEventListener('click', run);
stopEl.addEventListener('click', () => post({ type: 'stop' }));
refreshEl.addEventListener('click', () => post({ type: 'refreshModels' }));
promptEl.addEventListener('input', () => {
  saveState();
  updateControls();
});
promptEl.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
    e.preventDefault();
    run();
  }
});

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const v = validate(hostToCompareSchema, event.data);
  if (!v.ok) {
    post({ type: 'error', message: `ignored a malformed message: ${v.problem}`.slice(0, 500) });
    return;
  }
  const m = v.value;
  switch (m.type) {
    case 'models':
      return showModels(m);
    case 'run':
      return startRun(m);
    case 'column':
      if (m.runId === running) onColumn(m.event);
      return;
    case 'finished':
      return finish(m.runId);
    case 'notice':
      noticeEl.textContent = m.text;
  }
});

updateControls();
post({ type: 'ready' });
