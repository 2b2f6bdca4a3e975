/// <reference lib="dom" />
// The LLM playground webview: draws the conversation the extension owns, and the parameters the user
// sets. It sends the user's actions (send, edit and resend, stop, save) with the current settings;
// the extension validates them, runs the model and its tools, and sends the turns back.
import type { CustomTool, HostToPlayground, PlaygroundSettings, PlaygroundToHost, Turn } from '../services/llm/playgroundMessages';
import { BUILTIN_TOOL_NAMES } from '../services/llm/playgroundToolNames';
import { errorText } from '../core/errors';
import { formatMs, formatUsd } from '../core/numbers';

interface VsCodeApi {
  postMessage(message: PlaygroundToHost): void;
}
declare function acquireVsCodeApi(): VsCodeApi;
const vscode = acquireVsCodeApi();
const post = (m: PlaygroundToHost) => vscode.postMessage(m);

const TOOL_LABELS: Record<string, string> = {
  search_places: 'Search places · maps',
  place_details: 'Place details · maps',
  compute_route: 'Compute route · maps',
  validate_address: 'Validate address · maps',
  publish_to_channel: 'Publish to a channel · realtime (asks first)',
  list_channels: 'List channels · realtime',
};

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const turnsEl = $('turns');
const noticeEl = $('notice');
const promptEl = $<HTMLTextAreaElement>('prompt');
const sendBtn = $<HTMLButtonElement>('send');
const stopBtn = $<HTMLButtonElement>('stop');
const settingsEl = $('settings');

type Attrs = Record<string, string | boolean | undefined>;
function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: (Node | string | undefined)[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k === 'text') el.textContent = String(v);
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children) if (c !== undefined) el.append(c);
  return el;
}

let settings: PlaygroundSettings | undefined;
let turns: Turn[] = [];
let busy = false;
let editing: number | undefined;

// --- settings -------------------------------------------------------------------------------------

function field(label: string, input: HTMLElement, hint?: string): HTMLElement {
  return h('label', { class: 'field' }, h('span', { text: label }), input, hint ? h('small', { text: hint }) : undefined);
}

function numberInput(id: string, value: number | undefined, attrs: Attrs): HTMLInputElement {
  return h('input', { id, type: 'number', value: value === undefined ? '' : String(value), placeholder: 'default', ...attrs });
}

function drawSettings(connection: string, models: string[]): void {
  const s = settings;
  if (!s) return;
  settingsEl.replaceChildren();
  const modelInput = h('input', { id: 'model', value: s.model, list: 'models', placeholder: 'model id' });
  const list = h('datalist', { id: 'models' }, ...models.map((m) => h('option', { value: m })));
  const api = h('select', { id: 'api' }, h('option', { value: 'chat', text: 'Chat completions' }), h('option', { value: 'responses', text: 'Responses API' }));
  api.value = s.api;
  const format = h(
    'select',
    { id: 'format' },
    h('option', { value: 'text', text: 'Text' }),
    h('option', { value: 'json_object', text: 'JSON object' }),
    h('option', { value: 'json_schema', text: 'JSON schema (strict)' }),
  );
  format.value = s.responseFormat;
  const schema = h('textarea', { id: 'schema', rows: '6', placeholder: '{ "type": "object", … }', spellcheck: 'false' });
  schema.value = s.schemaText;
  const schemaBox = h('div', { id: 'schemaBox' }, schema, h('button', { type: 'button', id: 'loadSchema', class: 'secondary small', text: 'Load from File…' }));
  schemaBox.hidden = s.responseFormat !== 'json_schema';
  const system = h('textarea', { id: 'system', rows: '4', placeholder: 'You are a helpful assistant…' });
  system.value = s.system;
  const tools = h(
    'fieldset',
    { class: 'tools' },
    h('legend', { text: 'Tools: your own APIs' }),
    ...BUILTIN_TOOL_NAMES.map((n) =>
      h('label', { class: 'check' }, h('input', { type: 'checkbox', 'data-tool': n, checked: s.tools.includes(n) }), h('span', { text: TOOL_LABELS[n] ?? n })),
    ),
  );
  const custom = h('textarea', {
    id: 'customTools',
    rows: '5',
    spellcheck: 'false',
    placeholder: '[{"name": "get_weather", "description": "…", "parameters": "{…schema…}", "reply": "{\\"temp\\": 21}"}]',
  });
  custom.value = s.customTools.length ? JSON.stringify(s.customTools, null, 2) : '';
  settingsEl.append(
    h('h2', { text: connection }),
    field('Model', modelInput),
    list,
    field('API', api),
    field('System prompt', system),
    h(
      'div',
      { class: 'grid' },
      field('Temperature', numberInput('temperature', s.temperature, { min: '0', max: '2', step: '0.1' })),
      field('Top p', numberInput('topP', s.topP, { min: '0', max: '1', step: '0.05' })),
      field('Max tokens', numberInput('maxTokens', s.maxTokens, { min: '1', step: '1' })),
      field('Seed', numberInput('seed', s.seed, { step: '1' })),
    ),
    field('Stop sequences', h('input', { id: 'stopSequences', value: s.stop.join(', '), placeholder: 'comma-separated, at most 4' })),
    field('Response format', format),
    schemaBox,
    tools,
    field(
      'Your own tools (JSON)',
      custom,
      'name, description, parameters (a JSON Schema as text) and a fixed reply, or "cell": {"notebook": "path.awb.md", "name": "cellName"} to run that cell with the arguments as {{args.…}}',
    ),
  );
  $('loadSchema').addEventListener('click', () => post({ type: 'loadSchemaFile' }));
  format.addEventListener('change', () => (schemaBox.hidden = format.value !== 'json_schema'));
}

function readSettings(): PlaygroundSettings | undefined {
  if (!settings) return undefined;
  const val = (id: string) => ($<HTMLInputElement>(id)?.value ?? '').trim();
  const num = (id: string, int = false) => {
    const v = val(id);
    if (!v) return undefined;
    const n = Number(v);
    return Number.isFinite(n) ? (int ? Math.round(n) : n) : undefined;
  };
  let customTools: CustomTool[] = [];
  const customText = val('customTools');
  if (customText) {
    try {
      const parsed = JSON.parse(customText) as unknown;
      customTools = (Array.isArray(parsed) ? parsed : [parsed]).map((t: Record<string, unknown>) => ({
        name: typeof t.name === 'string' ? t.name : '',
        description: typeof t.description === 'string' ? t.description : '',
        parameters: typeof t.parameters === 'string' ? t.parameters : JSON.stringify(t.parameters ?? { type: 'object', properties: {} }),
        reply: typeof t.reply === 'string' ? t.reply : JSON.stringify(t.reply ?? {}),
        ...(isCell(t.cell) ? { cell: { notebook: t.cell.notebook, name: t.cell.name } } : {}),
      }));
    } catch (e) {
      showNotice(`Your own tools are not valid JSON: ${errorText(e)}`, 'error');
      return undefined;
    }
  }
  const maxTokens = num('maxTokens', true);
  return {
    model: val('model'),
    api: val('api') === 'responses' ? 'responses' : 'chat',
    system: $<HTMLTextAreaElement>('system').value,
    temperature: num('temperature'),
    topP: num('topP'),
    maxTokens: maxTokens && maxTokens > 0 ? maxTokens : undefined,
    seed: num('seed', true),
    stop: val('stopSequences')
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean)
      .slice(0, 4),
    responseFormat: (val('format') || 'text') as PlaygroundSettings['responseFormat'],
    schemaText: $<HTMLTextAreaElement>('schema').value,
    tools: BUILTIN_TOOL_NAMES.filter((n) => document.querySelector<HTMLInputElement>(`input[data-tool="${n}"]`)?.checked),
    customTools,
  };
}

function isCell(v: unknown): v is { notebook: string; name: string } {
  const c = v as { notebook?: unknown; name?: unknown } | null;
  return typeof c === 'object' && c !== null && typeof c.notebook === 'string' && typeof c.name === 'string';
}

function onSettingsChange(): void {
  const s = readSettings();
  if (s) {
    settings = s;
    post({ type: 'settings', settings: s });
  }
}

// --- conversation ---------------------------------------------------------------------------------

function stats(t: Extract<Turn, { kind: 'assistant' }>): HTMLElement | undefined {
  const st = t.stats;
  if (!st) return undefined;
  const about = st.estimated ? '≈' : '';
  const parts = [
    st.tokensIn !== undefined ? `${about}${st.tokensIn} in` : undefined,
    st.tokensOut !== undefined ? `${about}${st.tokensOut} out` : undefined,
    formatMs(st.latencyMs),
    st.firstTokenMs !== undefined ? `first token ${formatMs(st.firstTokenMs)}` : undefined,
    st.costUsd === undefined ? 'cost unknown' : st.costUsd === 0 ? '$0 (free)' : `${about}${formatUsd(st.costUsd)}`,
    st.estimated ? 'estimated: stopped before the server reported usage' : undefined,
    st.api === 'responses' ? 'Responses API' : undefined,
    st.requestId ? `request ${st.requestId}` : undefined,
  ].filter(Boolean);
  return h('div', { class: 'stats', text: parts.join(' · ') });
}

function drawTurn(t: Turn, i: number): HTMLElement {
  switch (t.kind) {
    case 'user': {
      if (editing === i) {
        const box = h('textarea', { class: 'edit', rows: '3' });
        box.value = t.text;
        const resend = h('button', { type: 'button', text: 'Resend' });
        resend.addEventListener('click', () => {
          const s = readSettings();
          if (!s) return;
          editing = undefined;
          post({ type: 'resend', index: i, text: box.value, settings: s });
        });
        const cancel = h('button', { type: 'button', class: 'secondary', text: 'Cancel' });
        cancel.addEventListener('click', () => {
          editing = undefined;
          draw();
        });
        return h(
          'div',
          { class: 'turn user' },
          h('div', { class: 'who', text: 'You' }),
          box,
          h('div', { class: 'row' }, resend, cancel),
          h('small', { text: 'Resending drops the turns after this one.' }),
        );
      }
      const edit = h('button', { type: 'button', class: 'link', text: 'Edit', title: 'Edit and resend (drops the turns after it)', disabled: busy });
      edit.addEventListener('click', () => {
        editing = i;
        draw();
      });
      return h('div', { class: 'turn user' }, h('div', { class: 'who' }, 'You ', edit), h('div', { class: 'text', text: t.text }));
    }
    case 'assistant': {
      const who = h('div', { class: 'who', text: t.streaming ? 'Model · answering…' : t.stopped ? 'Model · stopped (kept what arrived)' : 'Model' });
      const body = h('div', { class: 'text', text: t.text || (t.toolCalls?.length ? '' : t.streaming ? '…' : '(no text)') });
      const calls = t.toolCalls?.length ? h('div', { class: 'calls', text: `Calls ${t.toolCalls.map((c) => c.name).join(', ')}` }) : undefined;
      const note = t.note ? h('div', { class: 'note', text: t.note }) : undefined;
      let check: HTMLElement | undefined;
      if (t.validation) {
        check = t.validation.ok
          ? h('div', { class: 'valid', text: '✓ Matches the schema' })
          : h(
              'div',
              { class: 'invalid' },
              h('div', { text: '✗ Does not match the schema:' }),
              h('ul', {}, ...t.validation.problems.map((p) => h('li', {}, h('code', { text: p.path }), ` ${p.message}`))),
            );
      }
      return h('div', { class: `turn assistant${t.streaming ? ' streaming' : ''}` }, who, body, calls, note, check, stats(t));
    }
    case 'tool': {
      const status = { running: 'running…', done: 'done', failed: 'failed', declined: 'declined' }[t.status];
      return h(
        'div',
        { class: `turn tool ${t.status}` },
        h('div', { class: 'who', text: `Tool ${t.name} · ${status}${t.ranOn ? ` · ${t.ranOn}` : ''}` }),
        h('details', { open: true }, h('summary', { text: 'Arguments' }), h('pre', { text: pretty(t.arguments) })),
        t.result !== undefined
          ? h(
              'details',
              { open: t.status !== 'done' || t.result.length < 600 },
              h('summary', { text: t.status === 'done' ? 'Result (sent to the model)' : 'Error (sent to the model)' }),
              h('pre', { text: pretty(t.result) }),
            )
          : undefined,
      );
    }
    case 'error':
      return h(
        'div',
        { class: 'turn error', role: 'alert' },
        h('div', { class: 'who', text: 'Error · the conversation is kept' }),
        h('div', { class: 'text', text: t.text }),
      );
  }
}

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function draw(): void {
  const atBottom = turnsEl.scrollHeight - turnsEl.scrollTop - turnsEl.clientHeight < 40;
  turnsEl.replaceChildren(
    ...(turns.length
      ? turns.map(drawTurn)
      : [h('p', { class: 'empty', text: 'Set a system prompt and parameters on the right, switch on tools if you like, and send a message.' })]),
  );
  sendBtn.disabled = busy;
  stopBtn.disabled = !busy;
  if (atBottom) turnsEl.scrollTop = turnsEl.scrollHeight;
  post({ type: 'rendered', turns: turns.length });
}

function showNotice(text: string, level: 'info' | 'error'): void {
  noticeEl.textContent = text;
  noticeEl.className = level;
}

// --- wiring ---------------------------------------------------------------------------------------

function send(): void {
  const s = readSettings();
  const text = promptEl.value;
  if (!s || !text.trim() || busy) return;
  showNotice('', 'info');
  post({ type: 'send', text, settings: s });
  promptEl.value = '';
}

$('composer').addEventListener('submit', (e) => {
  e.preventDefault();
  send();
});
promptEl.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
    e.preventDefault();
    send();
  }
});
stopBtn.addEventListener('click', () => post({ type: 'stop' }));
settingsEl.addEventListener('change', onSettingsChange);
$('clear').addEventListener('click', () => {
  const s = readSettings();
  if (s) post({ type: 'clear', settings: s });
});
$('copyCode').addEventListener('click', () => {
  const s = readSettings();
  if (s) post({ type: 'copyAsCode', settings: s });
});
$('saveCell').addEventListener('click', () => {
  const s = readSettings();
  if (s) post({ type: 'saveAsCell', settings: s });
});

/** The extension checks every message against its schema before sending it; this only guards the shape. */
function isHostMessage(data: unknown): data is HostToPlayground {
  return typeof data === 'object' && data !== null && ['init', 'turns', 'schemaText', 'notice'].includes(String((data as { type?: unknown }).type));
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  if (!isHostMessage(event.data)) return;
  const m = event.data;
  if (m.type === 'init') {
    settings = m.settings;
    turns = m.turns;
    busy = m.busy;
    drawSettings(m.connection, m.models);
    draw();
  } else if (m.type === 'turns') {
    turns = m.turns;
    busy = m.busy;
    draw();
  } else if (m.type === 'schemaText') {
    $<HTMLTextAreaElement>('schema').value = m.text;
    onSettingsChange();
  } else showNotice(m.text, m.level);
});

post({ type: 'ready' });
