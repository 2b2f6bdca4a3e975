/// <reference lib="dom" />
// The body tab: a JSON tree that folds (children are built only when a node is first opened, so a
// big answer never becomes a big DOM) with a search box; a body that is not whole JSON is shown as
// re-indented text, capped, with its matching lines listed on search.

const MAX_CHILDREN = 300;
const MAX_MATCHES = 200;
const MAX_TEXT_LINES = 4000;
/** Levels shown open at first: more for a small body, so its values are visible at a glance. */
const AUTO_OPEN_DEPTH = 2;
const SMALL_BODY_OPEN_DEPTH = 4;
const SMALL_BODY_CHARS = 4096;
/**
 * A list or object with more entries than this starts folded, its size on its summary line: open,
 * a `/models` listing of 100 rows filled the output's scrolling panel, which then took the mouse
 * wheel from the notebook until its end.
 */
const AUTO_OPEN_MAX_ENTRIES = 20;

/** Whether a node starts open (without a search): the answer itself, and below it what is near the top and small enough to read at a glance. */
export function opensAtFirst(depth: number, entries: number, openDepth: number): boolean {
  if (depth === 0) return entries <= MAX_CHILDREN;
  return depth < openDepth && entries <= AUTO_OPEN_MAX_ENTRIES;
}

type Path = string;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function childPath(path: Path, key: string | number): Path {
  return typeof key === 'number' ? `${path}[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}["${key}"]`;
}

function entriesOf(v: unknown): Array<[string | number, unknown]> {
  if (Array.isArray(v)) return v.map((x, i) => [i, x]);
  return Object.entries(v as Record<string, unknown>);
}

const isContainer = (v: unknown): v is object => typeof v === 'object' && v !== null;

function primitive(v: unknown, query: string): HTMLElement {
  const text = typeof v === 'string' ? JSON.stringify(v) : String(v);
  const span = el('span', `json-${v === null ? 'null' : typeof v}`);
  highlight(span, text, query);
  return span;
}

function highlight(into: HTMLElement, text: string, query: string): void {
  const i = query ? text.toLowerCase().indexOf(query) : -1;
  if (i < 0) {
    into.textContent = text;
    return;
  }
  into.append(text.slice(0, i), el('mark', undefined, text.slice(i, i + query.length)), text.slice(i + query.length));
}

/** Paths (and their ancestors) of every key or value containing `query`, up to MAX_MATCHES. */
function findMatches(root: unknown, query: string): { open: Set<Path>; count: number; capped: boolean } {
  const open = new Set<Path>();
  let count = 0;
  const walk = (v: unknown, path: Path, ancestors: Path[]): boolean => {
    if (count >= MAX_MATCHES) return false;
    if (!isContainer(v)) {
      const hit = (typeof v === 'string' ? v : String(v)).toLowerCase().includes(query);
      if (hit) count++;
      return hit;
    }
    let any = false;
    for (const [k, x] of entriesOf(v)) {
      const p = childPath(path, k);
      const keyHit = typeof k === 'string' && k.toLowerCase().includes(query);
      if (keyHit) count++;
      if (walk(x, p, [...ancestors, path]) || keyHit) any = true;
      if (count >= MAX_MATCHES) break;
    }
    if (any) open.add(path);
    return any;
  };
  walk(root, '', []);
  return { open, count, capped: count >= MAX_MATCHES };
}

function node(
  key: string | number | undefined,
  v: unknown,
  path: Path,
  depth: number,
  ctx: { query: string; open: Set<Path> | undefined; openDepth: number },
): HTMLElement {
  const row = el('div', 'json-row');
  const keyEl = () => {
    const k = el('span', 'json-key');
    if (key !== undefined) highlight(k, typeof key === 'number' ? `${key}` : JSON.stringify(key), typeof key === 'number' ? '' : ctx.query);
    return k;
  };
  if (!isContainer(v)) {
    if (key !== undefined) row.append(keyEl(), ': ');
    row.append(primitive(v, ctx.query));
    return row;
  }
  const entries = entriesOf(v);
  const details = el('details', 'json-node');
  const summary = el('summary');
  if (key !== undefined) summary.append(keyEl(), ': ');
  const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
  summary.append(
    el('span', 'json-brace', `${open}${entries.length ? '…' : ''}${close}`),
    el('span', 'json-count', ` ${entries.length} ${Array.isArray(v) ? 'item' : 'key'}${entries.length === 1 ? '' : 's'}`),
  );
  details.append(summary);
  let built = false;
  const build = () => {
    if (built) return;
    built = true;
    const box = el('div', 'json-children');
    const shown = entries.slice(0, MAX_CHILDREN);
    for (const [k, x] of shown) box.append(node(k, x, childPath(path, k), depth + 1, ctx));
    if (entries.length > shown.length) box.append(el('div', 'json-more', `… ${entries.length - shown.length} more (Open Whole Body in Editor shows all)`));
    details.append(box);
  };
  details.addEventListener('toggle', () => details.open && build());
  const shouldOpen = ctx.open ? ctx.open.has(path) : opensAtFirst(depth, entries.length, ctx.openDepth);
  if (shouldOpen) {
    build();
    details.open = true;
  }
  row.append(details);
  return row;
}

/** Re-indents JSON text that may be cut off (a preview), without parsing it. */
export function reindent(text: string, maxLines = MAX_TEXT_LINES): { text: string; capped: boolean } {
  if (/\n\s+\S/.test(text.slice(0, 2000))) return capLines(text, maxLines);
  let out = '';
  let depth = 0;
  let inString = false;
  let lines = 0;
  const nl = () => {
    lines++;
    out += '\n' + '  '.repeat(depth);
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (lines >= maxLines) return { text: out, capped: true };
    if (c === '"') inString = true;
    if (c === '}' || c === ']') {
      depth = Math.max(0, depth - 1);
      nl();
      out += c;
    } else if (c === '{' || c === '[') {
      out += c;
      depth++;
      nl();
    } else if (c === ',') {
      out += c;
      nl();
    } else if (c === ':') out += ': ';
    else if (!/\s/.test(c)) out += c;
  }
  return { text: out, capped: false };
}

function capLines(text: string, maxLines: number): { text: string; capped: boolean } {
  let at = 0;
  for (let n = 0; n < maxLines; n++) {
    at = text.indexOf('\n', at) + 1;
    if (at === 0) return { text, capped: false };
  }
  return { text: text.slice(0, at), capped: true };
}

/** The body tab's content; `json` undefined = show `text` (a preview or a non-JSON body). */
export function bodyView(json: unknown, text: string, looksJson: boolean): HTMLElement {
  const box = el('div', 'body-view');
  const bar = el('div', 'search-bar');
  const input = el('input', 'search');
  input.type = 'search';
  input.placeholder = 'Search the body';
  input.setAttribute('aria-label', 'Search the body');
  const info = el('span', 'search-info');
  bar.append(input, info);
  const content = el('div', 'body-content');
  box.append(bar, content);

  const pretty = json === undefined ? (looksJson ? reindent(text) : capLines(text, MAX_TEXT_LINES)) : undefined;
  const render = (query: string) => {
    content.replaceChildren();
    if (json !== undefined) {
      const matches = query ? findMatches(json, query) : undefined;
      info.textContent = matches ? `${matches.count}${matches.capped ? '+' : ''} match${matches.count === 1 ? '' : 'es'}` : '';
      content.append(
        node(undefined, json, '', 0, { query, open: matches?.open, openDepth: text.length <= SMALL_BODY_CHARS ? SMALL_BODY_OPEN_DEPTH : AUTO_OPEN_DEPTH }),
      );
      return;
    }
    const shown = pretty ?? { text, capped: false };
    if (!query) {
      info.textContent = shown.capped ? `first ${MAX_TEXT_LINES} lines` : '';
      content.append(el('pre', 'body-text', shown.text));
      return;
    }
    const list = el('div', 'match-list');
    let count = 0;
    shown.text.split('\n').forEach((line, i) => {
      if (count >= MAX_MATCHES || !line.toLowerCase().includes(query)) return;
      count++;
      const row = el('div', 'match-row');
      row.append(el('span', 'match-line', `${i + 1}`));
      const code = el('code');
      highlight(code, line.trim().slice(0, 300), query);
      row.append(code);
      list.append(row);
    });
    info.textContent = `${count}${count >= MAX_MATCHES ? '+' : ''} matching line${count === 1 ? '' : 's'}`;
    content.append(list);
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => render(input.value.trim().toLowerCase()), 150);
  });
  render('');
  return box;
}
