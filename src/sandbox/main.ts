// `npm run sandbox` / `node dist/sandbox.js`: starts the local services and prints one JSON line
// (SandboxInfo) on stdout when ready. Everything else goes to stderr, so the line is easy to read
// by a parent process.
import { parseArgs } from 'node:util';
import { DEFAULT_SANDBOX_PORT, readSandboxTls, startSandbox } from './host';
import type { SandboxTls } from './types';
import { errorText } from '../core/errors';
import { parseModelMap } from './llm';
import { loadRecordings, RecordedAnswers } from './replay';

const USAGE = `Usage: node dist/sandbox.js [options]
  --host <addr>              listen address (default 127.0.0.1)
  --port <n>                 base port: LLM on n, maps on n+1, realtime on n+2
                             (default ${DEFAULT_SANDBOX_PORT}; 0 = any free ports)
  --llm-key <key>            fixed LLM API key            (env SANDBOX_LLM_KEY)
  --llm-token-rate <n>       LLM stream speed in tokens/s, 0 = unthrottled
                             (default 200)                (env SANDBOX_LLM_TOKEN_RATE)
  --model-map <alias=model>  serve the LLM model id alias as the sandbox model (e.g.
                             my-fine-tune=gpt-4o-mini); repeatable
                                                          (env SANDBOX_LLM_MODEL_MAP, comma-separated)
  --maps-key <key>           fixed maps API key           (env SANDBOX_MAPS_KEY)
  --maps-quota <n>           maps requests allowed per key per window (default 100)
                                                          (env SANDBOX_MAPS_QUOTA)
  --maps-quota-window <ms>   length of that sliding window (default 60000)
                                                          (env SANDBOX_MAPS_QUOTA_WINDOW_MS)
  --realtime-app-id <id>     fixed realtime app id        (env SANDBOX_REALTIME_APP_ID)
  --realtime-key <key>       fixed realtime app key       (env SANDBOX_REALTIME_KEY)
  --realtime-secret <secret> fixed realtime app secret    (env SANDBOX_REALTIME_SECRET)
  --no-realtime-demo         no demo traffic (by default demo-ticker gets an event per
                             second and presence-demo has two people)
                                                          (env SANDBOX_REALTIME_DEMO=0)
  --realtime-webhook <url>   POST realtime webhooks here; repeatable
                                                          (env SANDBOX_REALTIME_WEBHOOKS, comma-separated)
  --tls-cert <file.pem>      serve HTTPS and WSS with this certificate (and --tls-key)
                                                          (env SANDBOX_TLS_CERT)
  --tls-key <file.pem>       the certificate's private key (env SANDBOX_TLS_KEY)
  --replay <dir>             answer what the recordings in <dir> hold (api-workbench run
                             --record <dir>, the editor's Record Run: recordings/) with
                             the recorded answers; anything else as usual
Keys not given are random for each run.`;

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        'llm-key': { type: 'string' },
        'llm-token-rate': { type: 'string' },
        'model-map': { type: 'string', multiple: true },
        'maps-key': { type: 'string' },
        'maps-quota': { type: 'string' },
        'maps-quota-window': { type: 'string' },
        'realtime-app-id': { type: 'string' },
        'realtime-key': { type: 'string' },
        'realtime-secret': { type: 'string' },
        'no-realtime-demo': { type: 'boolean' },
        'realtime-webhook': { type: 'string', multiple: true },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        replay: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (e) {
    process.stderr.write(`${errorText(e)}\n${USAGE}\n`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(USAGE + '\n');
    return;
  }
  const env = process.env;
  const port = values.port === undefined ? DEFAULT_SANDBOX_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65533) {
    process.stderr.write(`--port must be a whole number from 0 to 65533, got ${values.port}\n`);
    process.exit(2);
  }
  const tokenRateText = values['llm-token-rate'] ?? env.SANDBOX_LLM_TOKEN_RATE;
  const tokenRate = tokenRateText === undefined ? undefined : Number(tokenRateText);
  if (tokenRate !== undefined && !(Number.isFinite(tokenRate) && tokenRate >= 0)) {
    process.stderr.write(`--llm-token-rate must be a number of tokens per second (0 = unthrottled), got ${tokenRateText}\n`);
    process.exit(2);
  }
  let modelMap: Record<string, string>;
  try {
    modelMap = parseModelMap(values['model-map'] ?? env.SANDBOX_LLM_MODEL_MAP?.split(',').filter(Boolean) ?? []);
  } catch (e) {
    process.stderr.write(`${errorText(e)}\n`);
    process.exit(2);
  }
  const positive = (flag: string, text: string | undefined): number | undefined => {
    if (text === undefined) return undefined;
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1) {
      process.stderr.write(`${flag} must be a whole number of at least 1, got ${text}\n`);
      process.exit(2);
    }
    return n;
  };
  const mapsQuota = {
    limit: positive('--maps-quota', values['maps-quota'] ?? env.SANDBOX_MAPS_QUOTA),
    windowMs: positive('--maps-quota-window', values['maps-quota-window'] ?? env.SANDBOX_MAPS_QUOTA_WINDOW_MS),
  };
  let tls: SandboxTls | undefined;
  try {
    tls = readSandboxTls(values['tls-cert'] ?? env.SANDBOX_TLS_CERT, values['tls-key'] ?? env.SANDBOX_TLS_KEY);
  } catch (e) {
    process.stderr.write(`${errorText(e)}\n`);
    process.exit(2);
  }
  let replay: RecordedAnswers | undefined;
  if (values.replay !== undefined) {
    try {
      const { entries, files } = loadRecordings(values.replay);
      replay = new RecordedAnswers(entries, (line) => process.stderr.write(`${line}\n`));
      process.stderr.write(`sandbox: replaying ${replay.size} recorded answer(s) from ${files} file(s) in ${values.replay}\n`);
    } catch (e) {
      process.stderr.write(`${errorText(e)}\n`);
      process.exit(2);
    }
  }
  const sandbox = await startSandbox({
    replay,
    tls,
    log: (line) => process.stderr.write(`${line}\n`),
    host: values.host ?? env.SANDBOX_HOST,
    port,
    llmKey: values['llm-key'] ?? env.SANDBOX_LLM_KEY,
    llm: { tokenRate, modelMap },
    mapsKey: values['maps-key'] ?? env.SANDBOX_MAPS_KEY,
    mapsQuota: Object.fromEntries(Object.entries(mapsQuota).filter(([, v]) => v !== undefined)),
    realtime: {
      appId: values['realtime-app-id'] ?? env.SANDBOX_REALTIME_APP_ID,
      key: values['realtime-key'] ?? env.SANDBOX_REALTIME_KEY,
      secret: values['realtime-secret'] ?? env.SANDBOX_REALTIME_SECRET,
      // On unless turned off: someone trying the sandbox should see traffic without writing a publisher.
      demo: !(values['no-realtime-demo'] ?? env.SANDBOX_REALTIME_DEMO === '0'),
      webhookUrls: values['realtime-webhook'] ?? env.SANDBOX_REALTIME_WEBHOOKS?.split(',').filter(Boolean),
    },
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`sandbox: ${signal}, stopping\n`);
    const force = setTimeout(() => process.exit(1), 3000);
    force.unref();
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // A parent that dies without signalling (e.g. the editor) closes our stdin: stop then too.
  if (!process.stdin.isTTY && process.env.SANDBOX_EXIT_ON_STDIN_CLOSE === '1') {
    process.stdin.on('end', () => stop('stdin closed'));
    process.stdin.resume();
  }
  // Announce readiness last: a parent may signal as soon as it reads the line.
  process.stdout.write(JSON.stringify(sandbox.info) + '\n');
  process.stderr.write(
    `sandbox ready: LLM ${sandbox.info.llm.baseUrl}, maps ${sandbox.info.maps.baseUrl}, realtime ${tls ? 'wss' : 'ws'}://${sandbox.info.realtime.host}:${sandbox.info.realtime.port}\n`,
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`sandbox failed to start: ${errorText(e)}\n`);
  process.exit(1);
});
