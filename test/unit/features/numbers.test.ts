import * as assert from 'node:assert/strict';
import { formatMs, formatUsd } from '../../../src/core/numbers';
import { dollars } from '../../../src/features/maps/costs';
import { formatUsd as llmUsd } from '../../../src/features/llm/costLedger';

describe('numbers people read', () => {
  it('rounds costs for people: a sum of floats never shows its binary tail', () => {
    assert.equal(formatUsd(0.1 + 0.2), '$0.30');
    assert.equal(formatUsd(1234.5678901), '$1234.57');
    assert.equal(formatUsd(0.0123), '$0.0123');
    assert.equal(formatUsd(0.000042), '$0.000042');
    assert.equal(formatUsd(1.234e-7), '$0.00000012', 'no exponent notation');
    assert.equal(formatUsd(0), '$0.00');
    assert.equal(formatUsd(Number.NaN), '$?');
  });

  it('rounds durations to whole milliseconds, seconds from one second up', () => {
    assert.equal(formatMs(12.3456789), '12 ms');
    assert.equal(formatMs(999.6), '1.00 s');
    assert.equal(formatMs(1234.5678901), '1.23 s');
  });

  it('is the one formatter the maps tally and the LLM costs use', () => {
    assert.equal(dollars(0.1 + 0.2), '$0.30');
    assert.equal(dollars(0.005 * 3), '$0.015');
    assert.equal(llmUsd, formatUsd);
  });
});
