// The webhook panel's page: what arrives from outside is escaped, the signature is not shown whole,
// verdicts and replay answers (or why nothing answered) are there for the reader.
import * as assert from 'node:assert/strict';
import { webhookPageHtml } from '../../../src/features/realtime/webhookHtml';
import { WebhookInbox } from '../../../src/features/realtime/webhookInbox';
import { signedWebhookHeaders, testWebhookBody } from '../../../src/services/realtime/webhookTools';

const app = { key: 'k', secret: 's3cret-value' };
const commands = { replay: 'x.replay', sendTest: 'x.test', setTarget: 'x.target', startReceiver: 'x.start', clear: 'x.clear' };

describe('realtime webhook page', () => {
  it('lists received webhooks with verdicts, escapes their content and shows replays and test sends', () => {
    const inbox = new WebhookInbox();
    const raw = testWebhookBody('client_event', { data: '<script>alert(1)</script>' });
    const headers = signedWebhookHeaders(app, raw);
    const good = inbox.received({ connection: 'c', path: '/hooks', answeredStatus: 200, headers, raw, app });
    inbox.received({ connection: 'c', path: '/hooks', answeredStatus: 401, headers: { ...headers, 'x-pusher-signature': 'f'.repeat(64) }, raw, app });
    inbox.replayed(good, {
      url: 'http://localhost:3000/hooks',
      answered: true,
      status: 500,
      statusText: 'Internal Server Error',
      answer: 'boom <b>',
      durationMs: 3,
    });
    inbox.replayed(good, {
      url: 'http://localhost:3001/hooks',
      answered: false,
      problem: 'nothing is listening at localhost:3001 (connection refused): is your app running?',
      durationMs: 1,
    });
    inbox.sent({
      connection: 'c',
      testKind: 'cache_miss',
      raw: testWebhookBody('cache_miss'),
      result: { url: 'http://localhost:3000/hooks', answered: true, status: 200, statusText: 'OK', answer: 'ok', durationMs: 2 },
    });
    const html = webhookPageHtml({
      cspSource: 'vscode-resource:',
      rows: inbox.records.map((r) => (r.kind === 'sent' ? { ...r, events: [] } : r)),
      target: 'http://localhost:3000/hooks',
      commands,
      redact: (t) => t.replaceAll(app.secret, '***'),
    });
    assert.ok(!html.includes('<script>alert'), 'content is escaped');
    assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.ok(!html.includes(headers['x-pusher-signature']), 'the signature is not shown whole');
    assert.ok(html.includes(`${headers['x-pusher-signature'].slice(0, 8)}… (64 characters)`));
    assert.match(html, /badge valid">valid<\/span> client_event/);
    assert.match(html, /badge forged">forged<\/span> client_event/);
    assert.match(html, /500 Internal Server Error in 3 ms/);
    assert.ok(html.includes('boom &lt;b&gt;'));
    assert.match(html, /not delivered: nothing is listening at localhost:3001 \(connection refused\)/);
    assert.match(html, /test sent<\/span> cache_miss/);
    assert.match(html, /2 received · 1 test sent/);
    assert.ok(html.includes(`command:x.replay?${encodeURIComponent(JSON.stringify([{ id: good.id }]))}`));
  });
});
