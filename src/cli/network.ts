// The run's network: --proxy or the proxy environment variables, --ca on top of Node's certificate
// authorities. Checked before anything is sent (exit 2), and the proxy's credentials registered
// with the run's redactor so no line or report shows them.
import { configureNetwork } from '../core/net/network';
import { netSettingsFromEnv, proxySecrets, readPemFile } from '../core/net/settings';
import type { Redactor } from '../core/redact';
import { errorText } from '../core/errors';
import type { RunArgs } from './args';
import { CliError } from './errors';

export function configureCliNetwork(args: Pick<RunArgs, 'proxy' | 'ca'>, env: NodeJS.ProcessEnv, redactor: Redactor): void {
  let settings;
  try {
    const ca = args.ca.flatMap((file) => readPemFile(file, '--ca'));
    settings = netSettingsFromEnv(env, { proxy: args.proxy, ca });
  } catch (e) {
    throw new CliError(errorText(e));
  }
  for (const secret of proxySecrets(settings)) redactor.addSecret(secret);
  configureNetwork(settings);
}
