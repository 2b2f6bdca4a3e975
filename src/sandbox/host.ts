import { randomBytes } from 'node:crypto';
import type { Clock } from '../core/clock';
import { startLlmSandbox, type ModelMap } from './llm';
import { startMapsSandbox, type MapsQuota } from './maps';
import { startRealtimeSandbox } from './realtime';
import type { RunningService, SandboxInfo } from './types';

/** Where the sandbox listens by default: LLM on this port, maps on +1, realtime on +2. */
export const DEFAULT_SANDBOX_PORT = 8787;

export interface SandboxOptions {
  host?: string;
  /** Base port; 0 = each service on any free port. */
  port?: number;
  llmKey?: string;
  /** LLM streaming speed in tokens per second (default 200; 0 = unthrottled), the limited model's window, extra model ids. */
  llm?: { tokenRate?: number; limitedWindowMs?: number; modelMap?: ModelMap };
  mapsKey?: string;
  /** Maps quota per API key (default 100 requests per 60 s); tests shorten it. */
  mapsQuota?: Partial<MapsQuota>;
  /** Realtime app credentials (random when not given), demo traffic, and webhook targets. */
  realtime?: { appId?: string; key?: string; secret?: string; demo?: boolean; webhookUrls?: string[] };
  /** Time for the LLM and maps rate windows and the paced LLM streams (tests pass a manual clock); default the system clock. */
  clock?: Clock;
}

export interface Sandbox {
  info: SandboxInfo;
  close(): Promise<void>;
}

function randomKey(prefix: string): string {
  return prefix + randomBytes(16).toString('hex');
}

/** Starts the three local services. Keys not given are random, so each run has fresh credentials. */
export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const host = opts.host ?? '127.0.0.1';
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
    const llm = await startLlmSandbox({ host, port: portFor(0), apiKey: llmKey, ...opts.llm, ...(opts.clock ? { clock: opts.clock } : {}) });
    started.push(llm);
    const maps = await startMapsSandbox({ host, port: portFor(1), apiKey: mapsKey, quota: opts.mapsQuota, ...(opts.clock ? { clock: opts.clock } : {}) });
    started.push(maps);
    const realtime = await startRealtimeSandbox({
      host,
      port: portFor(2),
      ...rt,
      demo: opts.realtime?.demo,
      webhooks: opts.realtime?.webhookUrls?.length ? { urls: opts.realtime.webhookUrls } : undefined,
    });
    started.push(realtime);
    const urlHost = host.includes(':') ? `[${host}]` : host;
    return {
      info: {
        llm: { baseUrl: `http://${urlHost}:${llm.port}/v1`, apiKey: llmKey },
        maps: { baseUrl: `http://${urlHost}:${maps.port}`, apiKey: mapsKey },
        realtime: { host, port: realtime.port, ...rt },
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
