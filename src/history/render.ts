// A history entry as a read-only Markdown document: the request and the answer again, JSON
// pretty-printed. Everything in an entry is redacted already.
import { entryPath, HISTORY_SERVICE_LABELS, type HistoryEntry, type HistoryMessage } from './model';

/** A fence longer than any backtick run in `text`, so a body can never close it early. */
function fenced(text: string, language: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

function pretty(body: string): { text: string; language: string } {
  try {
    return { text: JSON.stringify(JSON.parse(body), null, 2), language: 'json' };
  } catch {
    return { text: body, language: 'text' };
  }
}

function message(m: HistoryMessage & { note?: string }, firstLine: string | undefined): string[] {
  const head = Object.entries(m.headers).map(([k, v]) => `${k}: ${v}`);
  const out: string[] = [];
  if (firstLine !== undefined || head.length) out.push(fenced([...(firstLine ? [firstLine] : []), ...head].join('\n'), 'http'));
  if (m.body !== undefined && m.body !== '') {
    const { text, language } = pretty(m.body);
    if (m.note) out.push(`*${m.note}*`);
    out.push(fenced(text, language));
  }
  if (m.truncated) out.push('*The body was longer: only its beginning is kept.*');
  return out;
}

export function renderEntry(entry: HistoryEntry): string {
  const where = `${HISTORY_SERVICE_LABELS[entry.service]}${entry.connection ? ` (${entry.connection})` : ''}`;
  const status = entry.status !== undefined ? `HTTP ${entry.status}` : entry.error !== undefined ? 'no answer' : '';
  const facts = [
    where,
    new Date(entry.at).toLocaleString(),
    status,
    entry.durationMs !== undefined ? `${entry.durationMs} ms` : '',
    entry.requestId ? `request id \`${entry.requestId}\`` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const out = [`# ${entry.method} ${entryPath(entry)}`, '', facts, ''];
  if (entry.cell) {
    out.push(
      `From the notebook \`${entry.cell.file}\`, line ${entry.cell.line}${entry.cell.name ? ` (cell \`${entry.cell.name}\`)` : ''}: ${entry.cell.passed} assertions passed, ${entry.cell.failed} failed.`,
      '',
    );
  }
  if (entry.error !== undefined) out.push(`**Failed:** ${entry.error}`, '');
  out.push('## Request', '', ...message(entry.request, `${entry.method} ${entry.url}`).flatMap((p) => [p, '']));
  out.push('## Response', '');
  if (entry.response) out.push(...message(entry.response, entry.status !== undefined ? `HTTP ${entry.status}` : undefined).flatMap((p) => [p, '']));
  else out.push(entry.error !== undefined ? '*No answer.*' : '*Not kept: `apiWorkbench.history.keepResponses` is off.*', '');
  return out.join('\n');
}
