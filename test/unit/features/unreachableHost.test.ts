// A connection whose host does not resolve (a typo in the base URL, no network): the one text every
// notification, tree node and notebook output shows says which host and what to check.
import * as assert from 'node:assert/strict';
import { errorText } from '../../../src/core/errors';
import { HttpClient } from '../../../src/core/http';
import { DEFAULT_RETRY } from '../../../src/core/retry';

describe('an unreachable host', () => {
  it('says in one sentence which host was not found and what to check, naming the service and the code once', async () => {
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
    // One sentence: the service once, the code once, the host, and what to check.
    assert.equal(
      text,
      "Nowhere could not be reached (ENOTFOUND nonexistent.invalid): check the host in the connection's base URL, or this machine's network (DNS, VPN, proxy)",
    );
    assert.doesNotMatch(text, /getaddrinfo/, 'the system call is no help to a person');
  });
});
