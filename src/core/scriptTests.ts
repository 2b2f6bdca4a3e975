// What a script's test (pm.test, client.test) looks like as a check: the notebook writes it, the
// cell output reads it. In core because the renderer's browser bundle may import nothing of the
// notebook engine but its public types.

/**
 * The `expected` of a script's test: a check that passes, or fails with its assertion's message as
 * `actual`; shown as one line (✓/✗ name, the message) rather than expected and actual.
 */
export const SCRIPT_TEST_EXPECTED = 'passes';
