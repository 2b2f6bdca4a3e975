// A connection whose host does not resolve (a typo in the base URL, no network): the one text every
// notification, tree node and notebook output shows says which host and what to check.
import * as assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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

  it('a connection refused says nothing is listening there and, for a local model server’s port, which one to start', async () => {
    const refused = async (baseUrl: string) => {
      const client = new HttpClient({ service: 'Ollama', baseUrl, auth: { placement: 'none' }, retry: { ...DEFAULT_RETRY, maxRetries: 0 } });
      return client.json({ path: 'models' }).then(
        () => assert.fail('the request should fail'),
        (e: unknown) => errorText(e),
      );
    };
    // Ollama's default port, with no Ollama on this machine.
    assert.equal(
      await refused('http://127.0.0.1:11434/v1'),
      'Ollama could not be reached: nothing is listening at 127.0.0.1:11434 (ECONNREFUSED): is `ollama serve` running?',
    );
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((r) => server.close(() => r()));
    assert.equal(
      await refused(`http://127.0.0.1:${port}/v1`),
      `Ollama could not be reached: nothing is listening at 127.0.0.1:${port} (ECONNREFUSED): is the server running, and is the port in the connection's base URL right?`,
    );
  });
});
