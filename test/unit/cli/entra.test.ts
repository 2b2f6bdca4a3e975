// Keyless Entra ID sign-in in the built CLI: a connection with "entra": true gets its token through
// @azure/identity's DefaultAzureCredential (here its environment credential: tenant, client id and
// secret) from the token endpoint the sandbox plays, over HTTPS with a private CA as Entra's
// authority must be, and sends it as Bearer to the sandbox's Azure deployments. No key anywhere.
import * as assert from 'node:assert/strict';
import { readSandboxTls, startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { testPki } from '../helpers/netKit';
import { assertBuilt, runCli, tempDir, write } from './cliKit';

const CLIENT_SECRET = 'entra-client-secret-0123456789';
const NOTEBOOK =
  '# Entra\n\n```llm name=chat\nPOST /chat/completions\nContent-Type: application/json\n\n{"model": "sandbox-chat", "messages": [{"role": "user", "content": "hi"}]}\n\n?? status == 200\n```\n';

describe('CLI: Entra ID sign-in ("entra": true) through DefaultAzureCredential', function () {
  this.timeout(60_000);
  const pki = testPki();
  let sandbox: Sandbox;
  let dir: string;
  let conns: string;
  let env: Record<string, string | undefined>;

  before(async () => {
    assertBuilt();
    dir = tempDir();
    sandbox = await startSandbox({
      port: 0,
      llmKey: CLIENT_SECRET,
      llm: { tokenRate: 0 },
      tls: readSandboxTls(pki.certFile, pki.keyFile),
      realtime: { demo: false },
    });
    const origin = new URL(sandbox.info.llm.baseUrl).origin;
    conns = write(dir, 'entra.json', JSON.stringify({ llm: [{ name: 'Azure (Entra)', baseUrl: `${origin}/openai`, azure: {}, entra: true }] }));
    env = {
      NODE_EXTRA_CA_CERTS: pki.caFile,
      AZURE_AUTHORITY_HOST: origin,
      AZURE_TENANT_ID: 'sandbox-tenant',
      AZURE_CLIENT_ID: 'awb-cli-test',
      AZURE_CLIENT_SECRET: CLIENT_SECRET,
      AZURE_CLIENT_CERTIFICATE_PATH: undefined,
      AZURE_USERNAME: undefined,
      AZURE_FEDERATED_TOKEN_FILE: undefined,
      HTTPS_PROXY: undefined,
      https_proxy: undefined,
    };
  });
  after(() => sandbox.close());

  it('signs in at the sandbox’s token endpoint and the deployment accepts the token', async () => {
    const r = await runCli(['run', write(dir, 'entra.awb.md', NOTEBOOK), '--connections', conns], { cwd: dir, env });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /1 passed, 0 failed/);
    assert.doesNotMatch(r.stdout + r.stderr, new RegExp(CLIENT_SECRET));
  });

  it('a sign-in the token endpoint refuses: exit 2 with Entra’s answer, nothing sent', async () => {
    const r = await runCli(['run', write(dir, 'entra-bad.awb.md', NOTEBOOK), '--connections', conns], {
      cwd: dir,
      env: { ...env, AZURE_CLIENT_SECRET: 'not-the-secret' },
    });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /"Azure \(Entra\)" gets its token from Entra ID sign-in .*failed: Entra ID sign-in failed: .*AADSTS7000215/s);
    assert.match(r.stderr, /nothing was sent/);
  });
});
