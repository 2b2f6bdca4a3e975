// Connection messages are built from parts; each reads as its own sentence.
import * as assert from 'node:assert/strict';
import { sentences } from '../../../src/core/sentences';

describe('sentences: messages built from parts', () => {
  it('an error text without a full stop and the next sentence do not run together', () => {
    assert.equal(
      sentences(
        'Added "Ollama", but checking it failed: connect ECONNREFUSED 127.0.0.1:11434',
        '"Local Sandbox" stays the active LLM connection until you choose',
      ),
      'Added "Ollama", but checking it failed: connect ECONNREFUSED 127.0.0.1:11434. "Local Sandbox" stays the active LLM connection until you choose.',
    );
  });

  it('keeps a part that already ends a sentence, and leaves out empty parts', () => {
    assert.equal(
      sentences('"Local" works: 3 listed: a, b, c', '', undefined, false, 'No key is needed or sent.'),
      '"Local" works: 3 listed: a, b, c. No key is needed or sent.',
    );
    assert.equal(sentences('Is `ollama serve` running?', 'Then try again'), 'Is `ollama serve` running? Then try again.');
  });
});
