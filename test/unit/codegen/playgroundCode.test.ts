// Copy as Code from the playground, proven by running: a conversation (system message, earlier
// turns with a tool call and its result, parameters, tools, a response format) becomes the request
// the playground sends (streamed), written in each language this machine runs, run against the
// sandbox. The SDK code reads the stream in a loop; no program holds the key.
import * as assert from 'node:assert/strict';
import type { HttpConnection } from '../../../src/core/connections';
import { cellCode, languagesForCell, type CodeLanguage } from '../../../src/features/codegen';
import { conversationToCell } from '../../../src/features/llm/playgroundCell';
import { sandboxConnections, type ExportOptions, type NotebookCellData } from '../../../src/notebook/api';
import { defaultSettings, type PlaygroundSettings, type Turn } from '../../../src/services/llm/playgroundMessages';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { findToolchains, missingToolchain, runMany } from './toolchains';

const KEY = 'sk-sandbox-playground-code-key-0123456789';

/** A conversation the playground holds after one tool round, and a question after it. */
const TOOL_TURNS: Turn[] = [
  { kind: 'user', text: 'Search places to visit in Lisbon.' },
  { kind: 'assistant', text: '', toolCalls: [{ id: 'call_1', name: 'search_places', arguments: '{"query":"Lisbon"}' }] },
  { kind: 'tool', callId: 'call_1', name: 'search_places', arguments: '{"query":"Lisbon"}', status: 'done', result: '{"places":["Belém Tower"]}' },
  { kind: 'assistant', text: 'Belém Tower is worth a visit.' },
  { kind: 'user', text: 'Search places to visit in Porto.' },
];

const CONVERSATIONS: Array<{ name: string; settings: PlaygroundSettings; turns: Turn[]; body: Record<string, unknown>; prints: RegExp }> = [
  {
    name: 'chat with tools, a custom tool and parameters',
    settings: {
      ...defaultSettings('sandbox-chat'),
      system: 'You help plan city trips. Use the tools.',
      temperature: 0.3,
      maxTokens: 300,
      seed: 7,
      tools: ['search_places'],
      customTools: [{ name: 'book_table', description: 'Books a table.', parameters: '{"type":"object","properties":{"at":{"type":"string"}}}', reply: '{}' }],
    },
    turns: TOOL_TURNS,
    body: { temperature: 0.3, max_completion_tokens: 300, seed: 7, stream: true },
    prints: /search_places/,
  },
  {
    name: 'chat answering in a JSON schema',
    settings: {
      ...defaultSettings('sandbox-chat'),
      responseFormat: 'json_schema',
      schemaText: '{"title":"city","type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}',
    },
    turns: [{ kind: 'user', text: 'Name a city in Portugal.' }],
    body: { stream: true },
    prints: /\S/,
  },
  {
    name: 'the Responses API with a tool',
    settings: { ...defaultSettings('sandbox-chat', 'responses'), system: 'Be brief.', tools: ['search_places'] },
    turns: [{ kind: 'user', text: 'Search places to visit in Lisbon.' }],
    body: { instructions: 'Be brief.', stream: true },
    prints: /search_places/,
  },
];

describe('Copy as Code from the playground: the conversation as the playground sends it runs against the sandbox', function () {
  this.timeout(240_000);
  let sandbox: Sandbox;
  let targets: ExportOptions;

  before(async () => {
    [sandbox] = await Promise.all([
      startSandbox({ port: 0, llmKey: KEY, mapsKey: 'AIzaPlaygroundCodeTestKey0123456789', llm: { tokenRate: 0 } }),
      findToolchains(),
    ]);
    const llm = sandboxConnections(sandbox.info).connections.find((c): c is HttpConnection => c.service === 'llm')!;
    targets = { llm: { baseUrl: llm.baseUrl, auth: llm.auth, envVar: 'OPENAI_API_KEY' } };
  });
  after(async () => {
    await sandbox?.close();
  });

  it('the request holds the whole conversation, its parameters, tools and format, streamed', async () => {
    const [chat, structured, responses] = await Promise.all(CONVERSATIONS.map((c) => conversationToCell(c.settings, c.turns, { stream: true })));
    // The body: after the headers' blank line, before the check.
    const bodyOf = (cell: string) => JSON.parse(cell.slice(cell.indexOf('\n\n'), cell.indexOf('\n??'))) as Record<string, unknown>;
    const chatBody = bodyOf(chat);
    assert.deepEqual(
      (chatBody.messages as Array<{ role: string }>).map((m) => m.role),
      ['system', 'user', 'assistant', 'tool', 'assistant', 'user'],
    );
    assert.deepEqual(
      (chatBody.tools as Array<{ function: { name: string } }>).map((t) => t.function.name),
      ['search_places', 'book_table'],
    );
    for (const [cell, c] of [
      [chat, CONVERSATIONS[0]],
      [structured, CONVERSATIONS[1]],
      [responses, CONVERSATIONS[2]],
    ] as const)
      for (const [k, v] of Object.entries(c.body)) assert.deepEqual(bodyOf(cell)[k], v, `${c.name}: ${k}`);
    assert.deepEqual((bodyOf(structured).response_format as { json_schema: { name: string } }).json_schema.name, 'city');
    // Save as Notebook Cell keeps asking for the whole answer at once.
    assert.equal(bodyOf(await conversationToCell(CONVERSATIONS[0].settings, TOOL_TURNS)).stream, undefined);
  });

  it('each conversation, in each language this machine runs (the SDK reading the stream in a loop)', async () => {
    const programs: Array<{ name: string; language: CodeLanguage; code: string; want: RegExp }> = [];
    const skipped = new Set<string>();
    for (const c of CONVERSATIONS) {
      const cell: NotebookCellData = { kind: 'code', language: 'llm', value: await conversationToCell(c.settings, c.turns, { stream: true }), metadata: {} };
      const languages = languagesForCell(cell, { targets });
      assert.ok(languages.includes('python-sdk') && languages.includes('javascript-sdk'), `${c.name}: ${languages.join(', ')}`);
      for (const language of languages) {
        if (language === 'java' || language === 'go' || language === 'csharp') continue;
        const missing = missingToolchain(language);
        if (missing) {
          skipped.add(`${language}: ${missing}`);
          continue;
        }
        const code = await cellCode(cell, language, { targets });
        assert.ok(!code.includes(KEY), `${c.name} as ${language} holds the key`);
        assert.ok(code.includes(sandbox.info.llm.baseUrl), `${c.name} as ${language} does not go to the connection's base URL`);
        if (language === 'python-sdk') assert.match(code, /^for (chunk|event) in response:$/m, `${c.name}: the Python SDK code reads the stream in a loop`);
        if (language === 'javascript-sdk')
          assert.match(code, /^for await \(const (chunk|event) of response\) \{$/m, `${c.name}: the JavaScript SDK code reads the stream in a loop`);
        programs.push({ name: c.name, language, code, want: c.prints });
      }
    }
    const ran = await runMany(programs, { OPENAI_API_KEY: KEY });
    const failures = programs.flatMap(({ name, language, code, want }, i) =>
      // Plain HTTP code prints an error answer and exits 0: an error body fails the test too.
      ran[i].code !== 0 || !want.test(ran[i].stdout) || /"error"\s*:\s*\{/.test(ran[i].stdout)
        ? [`${name} as ${language}: exit ${ran[i].code}, printed ${ran[i].stdout.slice(0, 300)}\n${ran[i].stderr.slice(0, 600)}\n--- code ---\n${code}`]
        : [],
    );
    for (const s of skipped) console.log(`      skipped ${s}`);
    assert.deepEqual(failures, []);
    assert.ok(programs.length >= 6, `only ${programs.length} programs ran`);
  });
});
