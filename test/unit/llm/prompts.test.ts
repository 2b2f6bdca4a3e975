// The text the LLM commands send and write (vscode-free part of src/editor/llm).
import * as assert from 'node:assert/strict';
import {
  ANSWER_END,
  answerHeader,
  cancelledNote,
  doneNote,
  errorNote,
  selectionMessages,
  statsLine,
  statusText,
  statusTooltip,
} from '../../../src/features/llm/prompts';

describe('llm/prompts: messages and answer documents', () => {
  it('a selection goes in a fence longer than any backtick run inside it, with its language and place', () => {
    const [system, user] = selectionMessages('Why?', { code: 'const s = `a ``` b`;', languageId: 'typescript', where: 'src/a.ts:3-4' });
    assert.equal(system.role, 'system');
    assert.equal(user.content, 'Why?\n\nFrom src/a.ts:3-4:\n\n````typescript\nconst s = `a ``` b`;\n````');
  });

  it('the header quotes every line of the prompt (blank lines too), so it is never lost', () => {
    assert.equal(answerHeader('m', 'Work', 'line one\n\nline three'), '## line one line three · m · Work\n\n> line one\n>\n> line three\n\n');
    assert.equal(answerHeader('m', 'Work', 'q', '3 lines of a.ts:1-3'), '## q · m · Work\n\n> q\n>\n> *About 3 lines of a.ts:1-3*\n\n');
    const long = 'Which of these three approaches scales best when the number of subscribers grows past ten thousand?';
    assert.equal(
      answerHeader('m', 'Work', long).split('\n')[0],
      '## Which of these three approaches scales best when the number… · m · Work',
      'the heading keeps the first words',
    );
  });

  it('the closing notes start with the answer separator and say what happened', () => {
    const stats = {
      model: 'gpt-x',
      usage: { prompt_tokens: 12, completion_tokens: 34, total_tokens: 46 },
      latencyMs: 1234,
      firstTokenMs: 56,
      requestId: 'req_1',
    };
    assert.equal(statsLine(stats), 'gpt-x · 12 tokens in / 34 out · 1.23 s (first token 56 ms) · request id req_1');
    assert.equal(doneNote(stats), `${ANSWER_END}*gpt-x · 12 tokens in / 34 out · 1.23 s (first token 56 ms) · request id \`req_1\`*\n`);
    assert.match(statsLine({ model: 'm', latencyMs: 5 }), /token usage not reported · 5 ms · request id unknown$/);
    assert.equal(
      statsLine({ ...stats, cost: '$0.0950' }),
      'gpt-x · 12 tokens in / 34 out · $0.0950 · 1.23 s (first token 56 ms) · request id req_1',
      'the cost beside the tokens',
    );
    assert.ok(cancelledNote(800, 'req_2').startsWith(`${ANSWER_END}*Cancelled after 800 ms`));
    assert.equal(
      cancelledNote(800, 'req_2', { usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 }, cost: '$0.0001' }),
      `${ANSWER_END}*Cancelled after 800 ms: the answer above is what had arrived. About 9 tokens in / 4 out · ≈$0.0001 (estimated: cancelled before the server reported usage). Request id \`req_2\`.*\n`,
      'a cancelled answer is priced as an estimate, not left unknown',
    );
    assert.equal(
      errorNote('LLM 500: boom', true),
      `${ANSWER_END}**Error:** LLM 500: boom\n\n*The answer above is incomplete: it is what arrived before the stream stopped, kept as it was.*\n`,
    );
    assert.equal(errorNote('LLM 401: bad key', false), `${ANSWER_END}**Error:** LLM 401: bad key\n`);
  });

  it('the status bar shows the model and requests left of the limit', () => {
    assert.equal(statusText('gpt-4o', 58, 60), '$(hubot) gpt-4o · 58/60');
    assert.equal(statusText(undefined, 60, 60), '$(hubot) no model · 60/60');
    assert.match(statusTooltip('Work', 'gpt-4o', 2, 3, true), /2 of 3 requests left this minute under the client-side limit for this model/);
  });
});
