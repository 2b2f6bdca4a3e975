import type { RecordedAnswers } from './replay';
import type { Server } from 'node:http';

export interface ListenOptions {
  host: string;
  /** 0 = any free port. */
  port: number;
  /** Serve HTTPS (and WSS) with this certificate and key (PEM text) instead of plain HTTP. */
  tls?: SandboxTls;
  /** How long a client may keep a connection without finishing a request (defaults in listen.ts; tests shorten them). */
  timeouts?: Partial<ServerTimeouts>;
  /** Answers from recordings before the service's own (--replay). */
  replay?: RecordedAnswers;
}

/** The bounds on what a client may hold open; in milliseconds. */
export interface ServerTimeouts {
  /** To send a request's headers, counted from the connection (answered 408 once bytes came, else closed). */
  headersMs: number;
  /** To send a whole request, body included (answered 408, then closed). */
  requestMs: number;
  /** A kept-alive connection between requests. */
  keepAliveMs: number;
}

export interface SandboxTls {
  cert: string;
  key: string;
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
  realtime: { host: string; port: number; appId: string; key: string; secret: string; tls?: boolean };
}
