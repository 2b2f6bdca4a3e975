// Record once, replay forever: the example notebooks recorded against the sandbox, then replayed
// with no sandbox at all (nothing is started, nothing is sent); a changed body fails its cell
// naming the field; a streamed answer and a LISTEN's messages come back as recorded, in order;
// --record-missing adds only what is new; and no key, secret or signature is in any recording.
import * as assert from 'node:assert/strict';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Redactor } from '../../../src/core/redact';
import { recordedRequest, requestKey } from '../../../src/core/recording/requestKey';
import { assertBuilt, read, runCli, tempDir, write } from './cliKit';

const KEYS = {
  SANDBOX_LLM_KEY: 'sk-cassette-llm-0123456789abcdef',
  SANDBOX_MAPS_KEY: 'AIzaCassetteMaps0123456789abcdef',
  SANDBOX_REALTIME_KEY: 'cassette-app-key-0123',
  SANDBOX_REALTIME_SECRET: 'cassette-realtime-secret-0123456789',
};
const EXAMPLES = path.resolve(__dirname, '../../../../examples');

interface Cell {
  name?: string;
  ok: boolean;
  error?: string;
  llm?: { answer: string };
  response?: { status: number; json?: unknown };
}
interface Report {
  passed: number;
  failed: number;
  suites: Array<{ name: string; cells: Cell[] }>;
}

function cellsOf(text: string): Map<string, Cell> {
  const report = JSON.parse(text) as Report;
  return new Map(report.suites.flatMap((s) => s.cells.map((c): [string, Cell] => [`${path.basename(s.name)} › ${c.name ?? ''}`, c])));
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

describe('CLI: --record and --replay', function () {
  this.timeout(120_000);
  let dir: string;
  let recorded: Map<string, Cell>;

  before(async () => {
    assertBuilt();
    dir = tempDir();
    cpSync(EXAMPLES, path.join(dir, 'examples'), { recursive: true });
    const r = await runCli(['run', 'examples', '--sandbox', '--record', 'rec', '--reporter', 'json', '--out', 'recorded.json'], { cwd: dir, env: KEYS });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^recorded \d+ answer\(s\) to rec\/examples\/prompt-evals\.awb\.md\.json, rec\/examples\/sandbox-tour\.awb\.md\.json$/m);
    recorded = cellsOf(read(path.join(dir, 'recorded.json')));
  });

  it('replays the examples green with no sandbox started and nothing sent: the same answers, a stream chunk by chunk, LISTEN messages in order', async () => {
    const r = await runCli(['run', 'examples', '--sandbox', '--replay', 'rec', '--reporter', 'json', '--out', 'replayed.json'], { cwd: dir, env: KEYS });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^replayed \d+ answer\(s\) from rec$/m);
    const replayed = cellsOf(read(path.join(dir, 'replayed.json')));
    // In the order they finish: a replayed LISTEN has nothing to wait for, so it may end before its PUBLISH.
    assert.deepEqual([...replayed.keys()].sort(), [...recorded.keys()].sort());
    for (const [name, cell] of recorded) {
      assert.equal(replayed.get(name)?.llm?.answer, cell.llm?.answer, name);
      assert.deepEqual(replayed.get(name)?.response?.json, cell.response?.json, name);
    }
    // LISTEN: the same events in the same order (the ticker's prices change at every live run).
    const ticker = recorded.get('sandbox-tour.awb.md › ticker')?.response?.json as Array<{ event: string; data: unknown }>;
    assert.ok(ticker.length >= 2, JSON.stringify(ticker));
    assert.deepEqual(replayed.get('sandbox-tour.awb.md › ticker')?.response?.json, ticker);

    // The streamed chat answer is kept as the chunks that came, several of them.
    const tape = JSON.parse(read(path.join(dir, 'rec/examples/sandbox-tour.awb.md.json'))) as {
      entries: Array<{ request: { url: string; json?: { stream?: boolean } }; response: { chunks?: unknown[] } }>;
    };
    const stream = tape.entries.find((e) => e.request.url === '{sandbox-llm}/v1/chat/completions' && e.request.json?.stream === true);
    assert.ok((stream?.response.chunks?.length ?? 0) > 1, JSON.stringify(stream));
  });

  it('a changed body fails its cell, naming the field and both values; --record-missing then records only that request', async () => {
    const nb = path.join(dir, 'examples/sandbox-tour.awb.md');
    const original = read(nb);
    write(dir, 'examples/sandbox-tour.awb.md', original.replace('"{{question}} {{city}}?"', '"{{question}} {{city}} in spring?"'));
    try {
      const r = await runCli(['run', 'examples/sandbox-tour.awb.md', '--sandbox', '--replay', 'rec'], { cwd: dir, env: KEYS });
      assert.equal(r.code, 1);
      assert.match(r.stdout, /✗ chat/);
      assert.match(
        r.stdout,
        /POST \{sandbox-llm\}\/v1\/chat\/completions is not in the recording rec\/examples\/sandbox-tour\.awb\.md\.json; nothing was sent \(--replay\)\. The nearest recording \(POST \{sandbox-llm\}\/v1\/chat\/completions\) differs in body\.messages\[0\]\.content: recorded "What should I see in Lisbon\?", sent "What should I see in Lisbon in spring\?"/,
      );
      const before = (JSON.parse(read(path.join(dir, 'rec/examples/sandbox-tour.awb.md.json'))) as { entries: unknown[] }).entries.length;
      const missing = await runCli(['run', 'examples/sandbox-tour.awb.md', '--sandbox', '--replay', 'rec', '--record-missing'], { cwd: dir, env: KEYS });
      assert.equal(missing.code, 0, missing.stdout + missing.stderr);
      assert.match(missing.stdout, /^recorded 1 answer\(s\) to /m);
      const after = (JSON.parse(read(path.join(dir, 'rec/examples/sandbox-tour.awb.md.json'))) as { entries: unknown[] }).entries.length;
      assert.equal(after, before + 1);
      const again = await runCli(['run', 'examples/sandbox-tour.awb.md', '--sandbox', '--replay', 'rec'], { cwd: dir, env: KEYS });
      assert.equal(again.code, 0, again.stdout);
    } finally {
      write(dir, 'examples/sandbox-tour.awb.md', original);
    }
  });

  it('no key, secret, token or signature is in any recording', () => {
    const files = filesUnder(path.join(dir, 'rec'));
    assert.ok(files.length >= 2);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const [name, value] of Object.entries(KEYS)) assert.ok(!text.includes(value), `${name} in ${file}`);
      assert.doesNotMatch(text, /authorization|x-goog-api-key|auth_signature|auth_key|Bearer /i, file);
    }
  });

  it('a request is keyed without its credentials: two keys, one recording', () => {
    const redactor = new Redactor();
    const key = (secret: string) =>
      requestKey(
        recordedRequest(
          new URL(`https://api.example.com/apps/1/events?auth_key=${secret}&auth_timestamp=${secret.length}&auth_signature=${secret}sig&key=${secret}&q=a b`),
          {
            method: 'POST',
            headers: { Authorization: `Bearer ${secret}`, 'api-key': secret, 'X-Goog-Api-Key': secret, 'Content-Type': 'application/json' },
            body: '{"b":1,"a":[2]}',
          },
          redactor,
          [],
        ),
      );
    assert.equal(key('first-secret-0001'), key('other-secret-000002'));
    assert.doesNotMatch(key('first-secret-0001'), /first-secret/);
    // Canonical JSON: the same body written in another order is the same request.
    const reordered = requestKey(recordedRequest(new URL('https://x.test/a'), { method: 'POST', headers: {}, body: '{"a":[2],"b":1}' }, redactor, []));
    assert.equal(
      reordered,
      requestKey(recordedRequest(new URL('https://x.test/a'), { method: 'POST', headers: {}, body: '{ "b": 1, "a": [2] }' }, redactor, [])),
    );
  });
});
