// Keyless Entra ID sign-in for the CLI: @azure/identity's DefaultAzureCredential (environment
// variables, workload identity, managed identity, Azure CLI, …), loaded only when a connection
// asks for Entra, so a run without one never pays for it. dist/cli.js leaves the package out of
// the bundle (esbuild.mjs) and requires it from the installed dependencies: a copy without it says so.
// Tokens are cached and renewed by core/auth (getToken again near `expiresOnTimestamp`).
import type { EntraTokenProvider } from '../core/auth/resolver';

type Identity = typeof import('@azure/identity');
type Credential = InstanceType<Identity['DefaultAzureCredential']>;

async function loadIdentity(): Promise<Identity> {
  try {
    return await import('@azure/identity');
  } catch (e) {
    throw new Error(
      `Entra ID sign-in needs the @azure/identity package, which could not be loaded (${(e as Error).message.split('\n')[0]}): install api-workbench with its dependencies (npm install -g api-workbench), or use "tokenCommand": "az account get-access-token --resource https://cognitiveservices.azure.com --query accessToken -o tsv"`,
      { cause: e },
    );
  }
}

/**
 * Tokens from DefaultAzureCredential. With AZURE_AUTHORITY_HOST set (a sovereign cloud, a
 * private authority) that host is trusted as given: no instance discovery at login.microsoftonline.com.
 */
export function cliEntraProvider(env: NodeJS.ProcessEnv): EntraTokenProvider {
  let credential: Promise<Credential> | undefined;
  return async (scope, signal) => {
    credential ??= loadIdentity().then((identity) => {
      const authorityHost = env.AZURE_AUTHORITY_HOST;
      // disableInstanceDiscovery reaches the environment credential's ClientSecretCredential; the options type does not declare it.
      const options = authorityHost ? { authorityHost, disableInstanceDiscovery: true } : {};
      return new identity.DefaultAzureCredential(options);
    });
    let token;
    try {
      token = await (await credential).getToken(scope, { abortSignal: signal });
    } catch (e) {
      // The identity library's messages say which sources it tried and what each answered.
      throw new Error(`Entra ID sign-in failed: ${(e as Error).message}`, { cause: e });
    }
    if (!token)
      throw new Error(
        `Entra ID sign-in returned no token for ${scope}: sign in with "az login", or set AZURE_TENANT_ID, AZURE_CLIENT_ID and AZURE_CLIENT_SECRET`,
      );
    return { value: token.token, expiresAt: token.expiresOnTimestamp };
  };
}
