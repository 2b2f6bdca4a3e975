import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Clock } from '../core/clock';
import { startLlmSandbox, type ModelMap } from './llm';
import { startMapsSandbox, type MapsQuota } from './maps';
import { startRealtimeSandbox } from './realtime';
import type { RecordedAnswers } from './replay';
import type { RunningService, SandboxInfo, SandboxTls, ServerTimeouts } from './types';

/** Where the sandbox listens by default: LLM on this port, maps on +1, realtime on +2. */
export const DEFAULT_SANDBOX_PORT = 8787;

export interface SandboxOptions {
  host?: string;
  /** Base port; 0 = each service on any free port. */
  port?: number;
  llmKey?: string;
  /** LLM streaming speed in tokens per second (default 200; 0 = unthrottled), the limited model's window, extra model ids. */
  llm?: { tokenRate?: number; limitedWindowMs?: number; modelMap?: ModelMap; uploadBodyTimeoutMs?: number };
  mapsKey?: string;
  /** Maps quota per API key (default 100 requests per 60 s); tests shorten it. */
  mapsQuota?: Partial<MapsQuota>;
  /** Realtime app credentials (random when not given), demo traffic, and webhook targets. */
  realtime?: { appId?: string; key?: string; secret?: string; demo?: boolean; webhookUrls?: string[] };
  /** Serve HTTPS and WSS with this certificate and key (PEM text); plain HTTP without. */
  tls?: SandboxTls;
  /** Time for the LLM and maps rate windows and the paced LLM streams (tests pass a manual clock); default the system clock. */
  clock?: Clock;
  /** How long a client may hold a connection of any service without finishing a request (defaults in listen.ts). */
  timeouts?: Partial<ServerTimeouts>;
  /** Where the services' log lines go (the sandbox process: stderr); default nowhere. */
  log?: (line: string) => void;
  /** Recorded answers given before each service's own (--replay <dir>). */
  replay?: RecordedAnswers;
}

export interface Sandbox {
  info: SandboxInfo;
  close(): Promise<void>;
}

/**
 * The certificate and key files of --tls-cert/--tls-key (or SANDBOX_TLS_CERT/SANDBOX_TLS_KEY), read
 * as PEM; both or neither. Throws a message naming the option when one is missing or unreadable.
 */
export function readSandboxTls(certFile: string | undefined, keyFile: string | undefined): SandboxTls | undefined {
  if (!certFile && !keyFile) return undefined;
  if (!certFile || !keyFile) throw new Error('--tls-cert and --tls-key (SANDBOX_TLS_CERT, SANDBOX_TLS_KEY) go together: give both PEM files');
  const read = (file: string, flag: string, marker: RegExp) => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new Error(`${flag}: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? String(e)})`, { cause: e });
    }
    if (!marker.test(text))
      throw new Error(`${flag}: ${file} is not a PEM file (no -----BEGIN ${flag === '--tls-cert' ? 'CERTIFICATE' : 'PRIVATE KEY'}----- line)`);
    return text;
  };
  return { cert: read(certFile, '--tls-cert', /-----BEGIN CERTIFICATE-----/), key: read(keyFile, '--tls-key', /-----BEGIN [A-Z ]*PRIVATE KEY-----/) };
}

function randomKey(prefix: string): string {
  return prefix + randomBytes(16).toString('hex');
}

/** Starts the three local services. Keys not given are random, so each run has fresh credentials. */
export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const host = opts.host ?? '127.0.0.1';
  const tls = opts.tls;
  const timeouts = opts.timeouts;
  const replay = opts.replay;
  const base = opts.port ?? DEFAULT_SANDBOX_PORT;
  const portFor = (offset: number) => (base === 0 ? 0 : base + offset);
  const llmKey = opts.llmKey ?? randomKey('sk-sandbox-');
  const mapsKey = opts.mapsKey ?? randomKey('AIzaSandbox');
  const rt = {
    appId: opts.realtime?.appId ?? String(100000 + (randomBytes(2).readUInt16BE() % 900000)),
    key: opts.realtime?.key ?? randomBytes(10).toString('hex'),
    secret: opts.realtime?.secret ?? randomBytes(10).toString('hex'),
  };

  const started: RunningService[] = [];
  try {
    const llm = await startLlmSandbox({
      host,
      port: portFor(0),
      tls,
      timeouts,
      replay,
      apiKey: llmKey,
      ...opts.llm,
      ...(opts.clock ? { clock: opts.clock } : {}),
    });
    started.push(llm);
    const maps = await startMapsSandbox({
      host,
      port: portFor(1),
      tls,
      timeouts,
      replay,
      apiKey: mapsKey,
      quota: opts.mapsQuota,
      ...(opts.clock ? { clock: opts.clock } : {}),
    });
    started.push(maps);
    const realtime = await startRealtimeSandbox({
      host,
      port: portFor(2),
      tls,
      timeouts,
      replay,
      log: opts.log,
      ...rt,
      demo: opts.realtime?.demo,
      webhooks: opts.realtime?.webhookUrls?.length ? { urls: opts.realtime.webhookUrls } : undefined,
    });
    started.push(realtime);
    const urlHost = host.includes(':') ? `[${host}]` : host;
    const scheme = tls ? 'https' : 'http';
    return {
      info: {
        llm: { baseUrl: `${scheme}://${urlHost}:${llm.port}/v1`, apiKey: llmKey },
        maps: { baseUrl: `${scheme}://${urlHost}:${maps.port}`, apiKey: mapsKey },
        realtime: { host, port: realtime.port, ...rt, ...(tls ? { tls: true } : {}) },
      },
      close: async () => {
        await Promise.all(started.map((s) => s.close()));
      },
    };
  } catch (e) {
    await Promise.all(started.map((s) => s.close()));
    throw e;
  }
}
