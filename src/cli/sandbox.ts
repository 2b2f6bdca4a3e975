// --sandbox: the built-in sandbox, started in this process on free ports for the length of the
// run, with the same environment variables and demo traffic as `npm run sandbox`.
import { readSandboxTls, startSandbox, type Sandbox } from '../sandbox/host';
import { parseModelMap } from '../sandbox/llm';
import { gazetteer } from '../sandbox/maps/gazetteer';
import { CliError } from './errors';
import { errorText } from '../core/errors';

function positiveFromEnv(name: string): number | undefined {
  const text = process.env[name];
  if (text === undefined || text === '') return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`${name} must be a whole number of at least 1, got "${text}"`);
  return n;
}

/** `modelMapEntries`: the run's `--model-map alias=model` options (else SANDBOX_LLM_MODEL_MAP, comma-separated). */
export async function startCliSandbox(modelMapEntries: readonly string[] = []): Promise<Sandbox> {
  const env = process.env;
  let modelMap: Record<string, string>;
  try {
    modelMap = parseModelMap(modelMapEntries.length ? modelMapEntries : (env.SANDBOX_LLM_MODEL_MAP?.split(',').filter(Boolean) ?? []));
  } catch (e) {
    throw new CliError(errorText(e));
  }
  const tokenRateText = env.SANDBOX_LLM_TOKEN_RATE;
  const tokenRate = tokenRateText === undefined || tokenRateText === '' ? undefined : Number(tokenRateText);
  if (tokenRate !== undefined && !(Number.isFinite(tokenRate) && tokenRate >= 0)) {
    throw new CliError(`SANDBOX_LLM_TOKEN_RATE must be a number of tokens per second (0 = unthrottled), got "${tokenRateText}"`);
  }
  const quota = { limit: positiveFromEnv('SANDBOX_MAPS_QUOTA'), windowMs: positiveFromEnv('SANDBOX_MAPS_QUOTA_WINDOW_MS') };
  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox({
      tls: readSandboxTls(env.SANDBOX_TLS_CERT || undefined, env.SANDBOX_TLS_KEY || undefined),
      host: env.SANDBOX_HOST || undefined,
      // Free ports: a CI machine may run several jobs, or a sandbox of its own on the default ports.
      port: 0,
      llmKey: env.SANDBOX_LLM_KEY || undefined,
      llm: { tokenRate, modelMap },
      mapsKey: env.SANDBOX_MAPS_KEY || undefined,
      mapsQuota: Object.fromEntries(Object.entries(quota).filter(([, v]) => v !== undefined)),
      realtime: {
        appId: env.SANDBOX_REALTIME_APP_ID || undefined,
        key: env.SANDBOX_REALTIME_KEY || undefined,
        secret: env.SANDBOX_REALTIME_SECRET || undefined,
        demo: env.SANDBOX_REALTIME_DEMO !== '0',
        webhookUrls: env.SANDBOX_REALTIME_WEBHOOKS?.split(',').filter(Boolean),
      },
    });
  } catch (e) {
    throw new CliError(`the sandbox could not start: ${errorText(e)}`);
  }
  try {
    // The sandbox shares this thread: its place index (~0.3 s of CPU) is built now, so it does not
    // land inside the first cell's time (and a `?? duration < …` on it).
    gazetteer();
  } catch (e) {
    await sandbox.close();
    throw new CliError(`the sandbox could not start: ${errorText(e)}`);
  }
  return sandbox;
}
