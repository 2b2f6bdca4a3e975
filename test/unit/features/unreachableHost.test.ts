// A connection whose host does not resolve (a typo in the base URL, no network): the one text every
// notification, tree node and notebook output shows says which host and what to check.
import * as assert from 'node:assert/strict';
import { errorText } from '../../../src/core/errors';
import { HttpClient } from '../../../src/core/http';
import { DEFAULT_RETRY } from '../../../src/core/retry';

describe('an unreachable host', () => {
  it('names the host and says to check the base URL and the network, once', async () => {
    // .invalid never resolves (RFC 2606): no network is needed to get ENOTFOUND.
    const client = new HttpClient({
      service: 'Nowhere',
      baseUrl: 'https://nonexistent.invalid/v1',
      auth: { placement: 'none' },
      retry: { ...DEFAULT_RETRY, maxRetries: 0 },
    });
    const text = await client.json({ path: 'models' }).then(
      () => assert.fail('the request should fail'),
      (e: unknown) => errorText(e),
    );
    assert.match(text, /the host nonexistent\.invalid was not found/);
    assert.match(text, /Check the host in the connection's base URL, and this machine's network connection/);
    assert.doesNotMatch(text, /getaddrinfo/, 'the system call is no help to a person');
    assert.equal(text.split('Nowhere').length - 1, 2, `the service named in the head and the sentence only: ${text}`);
  });
});
