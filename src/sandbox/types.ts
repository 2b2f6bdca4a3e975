import type { Server } from 'node:http';

export interface ListenOptions {
  host: string;
  /** 0 = any free port. */
  port: number;
}

/** A running sandbox service. */
export interface RunningService {
  server: Server;
  port: number;
  close(): Promise<void>;
}

/** The line `npm run sandbox` prints once it is ready (the contract the extension and tests rely on). */
export interface SandboxInfo {
  llm: { baseUrl: string; apiKey: string };
  maps: { baseUrl: string; apiKey: string };
  realtime: { host: string; port: number; appId: string; key: string; secret: string };
}
