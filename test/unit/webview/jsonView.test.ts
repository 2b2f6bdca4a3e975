// The response viewer's JSON tree: what is open when an answer is first shown. A long list (a
// `/models` listing of 100 rows) starts folded with its size, so the output stays short and the
// mouse wheel scrolls the notebook; the answer itself and small values near the top start open.
import * as assert from 'node:assert/strict';
import { opensAtFirst } from '../../../src/webview/result/jsonView';

describe('response viewer: the JSON tree at first sight', () => {
  it('a list of 100 models under the answer starts folded; a short one starts open', () => {
    assert.equal(opensAtFirst(1, 100, 2), false);
    assert.equal(opensAtFirst(1, 3, 2), true);
  });

  it('the answer itself starts open, however many keys it has; deeper levels stay folded past the open depth', () => {
    assert.equal(opensAtFirst(0, 45, 2), true);
    assert.equal(opensAtFirst(2, 3, 2), false);
    assert.equal(opensAtFirst(3, 3, 4), true);
  });
});
