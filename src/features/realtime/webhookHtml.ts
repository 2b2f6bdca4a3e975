// The webhook view's page: every webhook received (verdict, events, headers, body, replays) and
// every test webhook sent, newest first. Static HTML with command links (no script), so there is no
// message protocol to get wrong; the panel re-renders it when something changes.
import type { WebhookEvent } from '../../services/realtime/protocol';
import { describeDelivery, type DeliveryResult, type WebhookVerdict } from '../../services/realtime/webhookTools';

export interface WebhookRow {
  kind: 'received' | 'sent';
  id: number;
  at: number;
  connection: string;
  /** Received: the path it arrived on and what the receiver answered. */
  path?: string;
  answeredStatus?: number;
  verdict?: WebhookVerdict;
  reason?: string;
  headers?: Record<string, string>;
  events: WebhookEvent[];
  raw: string;
  replays?: DeliveryResult[];
  /** Sent: the test kind and its delivery. */
  testKind?: string;
  result?: DeliveryResult;
}

export interface WebhookPage {
  cspSource: string;
  rows: WebhookRow[];
  receiverUrl?: string;
  target?: string;
  /** Command ids the links call. */
  commands: { replay: string; sendTest: string; setTarget: string; startReceiver: string; clear: string };
  /** Applied to every text shown that came from outside (bodies, headers, answers). */
  redact: (text: string) => string;
}

const VERDICT_TEXT: Record<WebhookVerdict, string> = { valid: 'valid', forged: 'forged', stale: 'stale', unverified: 'not verified' };

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

function commandLink(command: string, args: unknown[], text: string, title: string): string {
  return `<a class="button" href="command:${command}?${encodeURIComponent(JSON.stringify(args))}" title="${esc(title)}">${esc(text)}</a>`;
}

function time(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z');
}

function pretty(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

/** The signature proves nothing to a reader and is credential-like: only its start is shown. */
function shownHeader(name: string, value: string): string {
  return name.toLowerCase() === 'x-pusher-signature' && value.length > 8 ? `${value.slice(0, 8)}… (${value.length} characters)` : value;
}

function eventsTable(events: WebhookEvent[], redact: (t: string) => string): string {
  if (events.length === 0) return '<p class="muted">No events could be read from the body.</p>';
  const rows = events
    .map((e) => {
      const detail = [
        e.user_id ? `user ${e.user_id}` : '',
        e.event ?? '',
        e.subscription_count !== undefined ? `count ${e.subscription_count}` : '',
        e.socket_id ? `socket ${e.socket_id}` : '',
      ]
        .filter(Boolean)
        .join(' · ');
      return `<tr><td><code>${esc(e.name)}</code></td><td>${esc(e.channel)}</td><td>${esc(detail)}</td><td>${e.data ? `<code>${esc(redact(e.data))}</code>` : ''}</td></tr>`;
    })
    .join('');
  return `<table><thead><tr><th>event</th><th>channel</th><th>details</th><th>data</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function delivery(r: DeliveryResult, redact: (t: string) => string): string {
  const cls = !r.answered ? 'forged' : (r.status ?? 0) < 300 ? 'valid' : 'stale';
  const answer = r.answered ? `<pre>${esc(redact(r.answer ?? '')) || '<span class="muted">(empty answer)</span>'}</pre>` : '';
  return `<div class="delivery"><span class="badge ${cls}">${esc(describeDelivery(r))}</span> → <code>${esc(redact(r.url))}</code>${answer}</div>`;
}

function receivedRow(r: WebhookRow, page: WebhookPage, open: boolean): string {
  const v = r.verdict ?? 'unverified';
  const headers = Object.entries(r.headers ?? {})
    .map(([k, val]) => `<tr><td><code>${esc(k)}</code></td><td><code>${esc(page.redact(shownHeader(k, val)))}</code></td></tr>`)
    .join('');
  const replay = page.target
    ? commandLink(page.commands.replay, [{ id: r.id }], `Replay to ${page.target}`, 'POST this body again, re-signed with the app secret and a fresh time_ms')
    : commandLink(page.commands.replay, [{ id: r.id }], 'Replay…', 'Asks where to send it, then POSTs this body re-signed with the app secret');
  const names = r.events.map((e) => e.name).join(', ') || '(no events)';
  return `<details${open ? ' open' : ''} id="webhook-${r.id}"><summary><span class="badge ${v}">${VERDICT_TEXT[v]}</span> ${esc(names)} <span class="muted">· ${esc(time(r.at))} · ${esc(r.connection)} · answered ${r.answeredStatus ?? '?'}</span></summary>
<p>${esc(r.reason ?? '')}</p>
<h3>Events</h3>${eventsTable(r.events, page.redact)}
<p>${replay}</p>${(r.replays ?? []).map((d) => delivery(d, page.redact)).join('')}
<h3>Body <span class="muted">(POST ${esc(r.path ?? '')}, ${Buffer.byteLength(r.raw)} bytes)</span></h3><pre>${esc(page.redact(pretty(r.raw)))}</pre>
<h3>Headers</h3><table><tbody>${headers}</tbody></table></details>`;
}

function sentRow(r: WebhookRow, page: WebhookPage, open: boolean): string {
  const res = r.result;
  return `<details${open ? ' open' : ''} id="webhook-${r.id}"><summary><span class="badge sent">test sent</span> ${esc(r.testKind ?? '')} <span class="muted">· ${esc(time(r.at))} · ${esc(r.connection)}</span></summary>
${res ? delivery(res, page.redact) : ''}<h3>Body</h3><pre>${esc(page.redact(pretty(r.raw)))}</pre></details>`;
}

export function webhookPageHtml(page: WebhookPage): string {
  const c = page.commands;
  const receiver = page.receiverUrl
    ? `Receiving on <code>${esc(page.receiverUrl)}</code>`
    : `The receiver is not running. ${commandLink(c.startReceiver, [], 'Start Webhook Receiver', "Listen for the app's webhooks on a local port")}`;
  const target = page.target ? `Your endpoint: <code>${esc(page.target)}</code>` : 'Your endpoint: not set';
  const counts = { received: page.rows.filter((r) => r.kind === 'received').length, sent: page.rows.filter((r) => r.kind === 'sent').length };
  // Open: the newest webhook, and any that was replayed (its endpoint's answer is what the user is after).
  const body = page.rows.length
    ? page.rows.map((r, i) => (r.kind === 'received' ? receivedRow(r, page, i === 0 || (r.replays?.length ?? 0) > 0) : sentRow(r, page, i === 0))).join('\n')
    : '<p class="muted">No webhooks yet. Start the receiver and use a channel (subscribe, publish, join a presence channel), or send a test webhook to your endpoint.</p>';
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${page.cspSource} 'unsafe-inline';">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Realtime Webhooks</title>
<style>
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); padding: 0 16px 16px; }
header { position: sticky; top: 0; background: var(--vscode-editor-background); padding: 8px 0; border-bottom: 1px solid var(--vscode-panel-border); }
header p { margin: 4px 0; }
details { border: 1px solid var(--vscode-panel-border); border-radius: 4px; margin: 8px 0; padding: 4px 8px; }
summary { cursor: pointer; padding: 4px 0; }
h3 { font-size: 0.95em; margin: 12px 0 4px; }
table { border-collapse: collapse; width: 100%; }
td, th { text-align: left; padding: 2px 8px 2px 0; vertical-align: top; border-bottom: 1px solid var(--vscode-panel-border); }
pre { background: var(--vscode-textCodeBlock-background); padding: 6px; overflow-x: auto; margin: 4px 0; white-space: pre-wrap; word-break: break-all; }
.muted { color: var(--vscode-descriptionForeground); }
.badge { display: inline-block; padding: 0 6px; border-radius: 8px; font-size: 0.85em; font-weight: 600; color: var(--vscode-badge-foreground); background: var(--vscode-badge-background); }
.badge.valid { background: var(--vscode-testing-iconPassed, #388a34); color: #fff; }
.badge.forged { background: var(--vscode-testing-iconFailed, #c72e0f); color: #fff; }
.badge.stale { background: var(--vscode-editorWarning-foreground, #bf8803); color: #000; }
.badge.sent { background: var(--vscode-textLink-foreground); color: #fff; }
a.button { display: inline-block; padding: 2px 10px; margin-right: 6px; border-radius: 2px; text-decoration: none; color: var(--vscode-button-foreground); background: var(--vscode-button-background); }
a.button:hover { background: var(--vscode-button-hoverBackground); }
.delivery { margin: 6px 0; }
</style></head><body>
<header><p><strong>Realtime Webhooks</strong> <span class="muted">· ${counts.received} received · ${counts.sent} test${counts.sent === 1 ? '' : 's'} sent</span></p>
<p>${receiver}</p><p>${target} ${commandLink(c.setTarget, [], 'Set Endpoint…', 'Where replays and test webhooks go, e.g. your app on localhost')} ${commandLink(c.sendTest, [], 'Send Test Webhook…', 'A correctly signed webhook of any kind, to your endpoint')} ${commandLink(c.clear, [], 'Clear', 'Forget the list')}</p></header>
${body}
</body></html>`;
}
