// The notebook engine's types: the document, the host a front end supplies, and what a run reports.
// Front ends import them through ./api (the engine's public module); files inside src/notebook
// import them from here, so nothing inside the engine goes through the public module.
import type { Cancel } from '../core/cancellation';
import type { Connection, HttpConnection, ServiceId } from '../core/connections';
import type { HttpClient, HttpClientOptions } from '../core/http';
import type { Redactor } from '../core/redact';
import type { ScriptLimits } from '../core/scriptLimits';

// --- the document -----------------------------------------------------------------------------

/** Fence languages that make a code cell; every other fenced block stays inside Markdown. */
/** `http`: a request to any API (REST Client style), with the user's own headers and no stored key. */
export type CodeLanguage = 'llm' | 'maps' | 'realtime' | 'vars' | 'http';
export const CODE_LANGUAGES: readonly CodeLanguage[] = ['llm', 'maps', 'realtime', 'vars', 'http'];
export const NOTEBOOK_EXTENSION = '.awb.md';

/**
 * Exactly what the serializer needs to write a cell back byte for byte. Opaque to front ends:
 * pass it through untouched (VS Code hands cell metadata back as it was given).
 */
export interface CellLayout {
  /** Blank lines (with their line ends) before the cell's own text. */
  before: string;
  /** The cell's own text as it was in the file, written back verbatim while the cell is unchanged. */
  core: string;
  /** Blank lines after it, up to the next cell. */
  after: string;
  /** The value and fence info the core was read as: when they still match, `core` is written. */
  value: string;
  info: string;
  /** The line end the cell used; re-serialised text uses it. */
  eol: '\n' | '\r\n' | '\r';
}

export interface CellMetadata {
  /** Fence attributes: `name`, `connection`, `env` and any others, in order of appearance. */
  attributes?: Record<string, string>;
  layout?: CellLayout;
}

/** A cell as VS Code's NotebookCellData carries it (kind, language id, value, metadata). */
export interface NotebookCellData {
  kind: 'markup' | 'code';
  /** 'markdown' for markup cells. */
  language: string;
  value: string;
  metadata: CellMetadata;
}

export interface NotebookMetadata {
  /** The line end new cells are written with (the file's first one; LF for a new file). */
  eol?: '\n' | '\r\n' | '\r';
}

export interface NotebookData {
  cells: NotebookCellData[];
  metadata: NotebookMetadata;
}

/** A parse problem, located for the user. `line` is 1-based in the file. */
export interface NotebookProblem {
  file: string;
  line: number;
  message: string;
  /** Index of the cell it belongs to. */
  cellIndex: number;
}

export interface ParsedNotebook extends NotebookData {
  /** Problems per cell; the notebook still opens with every cell intact. */
  problems: NotebookProblem[];
}

// --- running -----------------------------------------------------------------------------------

export interface CredentialRequest {
  connection: Connection;
  /** Where the key goes (or, for realtime, the REST base URL whose requests the secret signs). */
  url: URL;
  signal?: AbortSignal;
}

/** The HttpClient settings the engine needs for one request; a factory must honour every field. */
export interface NotebookHttpOptions extends Pick<
  HttpClientOptions,
  'parseError' | 'requestIdHeaders' | 'onRequest' | 'credentials' | 'credentialRefused' | 'streamDeadlineMs'
> {
  /** The base URL to build this client on (one of the connection's approved origins). */
  baseUrl: string;
  /** Shown in errors and logs. */
  label: string;
}

/** Asked before an `http` cell's request leaves: may this notebook send requests to this host? */
export interface HostApprovalRequest {
  cell: CellRef;
  /** `api.example.com` (with `:port` when not the scheme's default): what the user approves. */
  host: string;
  origin: string;
  /** The `{{$secret …}}` and `{{$env …}}` references the request carries, as written (for the question's detail). */
  credentials: string[];
}

/**
 * Something a cell is about to do that others see or that may change data: a request with a
 * method other than GET, HEAD or OPTIONS (`url` redacted), or a realtime write (PUBLISH, BATCH,
 * SEND_TO_USER, TERMINATE; `what` says it in words).
 */
export type SideEffect =
  | { kind: 'request'; service: 'llm' | 'maps' | 'http'; connection?: string; method: string; url: string }
  | { kind: 'realtime'; connection: string; op: 'publish' | 'batch' | 'sendToUser' | 'terminate'; what: string };

/** What a front end hands the engine. */
/**
 * Where a LISTEN's messages are recorded and replayed from (a cassette: notebook/cassette), beside
 * the HTTP requests the transport hook records. Messages come back in their order, with their times.
 */
export interface ListenTape {
  /** The recorded messages of this LISTEN, or undefined to listen live (recording what arrives). Throws when replaying and it was not recorded. */
  replayListen(connection: string, channel: string): ListenMessage[] | undefined;
  recordListen(connection: string, channel: string, messages: readonly ListenMessage[]): void;
}

export interface NotebookHost {
  /** Set while a run records or replays (--record, --replay). */
  listenTape?: ListenTape;
  /**
   * The connection of `service` named `name`, or the active one when no name is given; undefined
   * when there is none (the engine reports that, naming the cell's file and line).
   */
  connection(service: ServiceId, name: string | undefined): Connection | undefined;
  /** Names offered in the error for an unknown connection name. */
  connectionNames?(service: ServiceId): string[];
  /**
   * The key of a connection for a URL (the app secret for realtime). The editor's asks for origin
   * approval and throws in restricted mode; the CLI's reads an environment variable. Undefined = none.
   */
  credentials(req: CredentialRequest): Promise<string | undefined>;
  /**
   * The server answered 401 to `key`: true if asking `credentials` again may give another (a token
   * from a command or Entra ID, forgotten now), and the request is sent once more. Absent: never.
   */
  credentialRefused?(req: { connection: Connection; key: string }): boolean;
  /**
   * The encryption master key of a realtime connection (base64 of 32 bytes), for
   * private-encrypted- channels: PUBLISH encrypts with it, LISTEN decrypts. Undefined or absent =
   * none (those channels then fail with "needs the encryption master key"). The engine registers
   * it with the redactor.
   */
  encryptionMasterKey?(connection: Connection): Promise<string | undefined>;
  /**
   * Called before a realtime socket opens (it carries no key itself): throw to stop it, e.g. in
   * restricted mode.
   */
  assertMayConnect?(connection: Connection): void;
  /**
   * Asked before a language-model cell's request is sent, with its body (the editor asks its daily
   * budget question here). A string: not sent, and the cell fails with that reason. Absent or
   * undefined: sent.
   */
  beforeModelRequest?(connection: HttpConnection, body: string | undefined): Promise<string | undefined>;
  /**
   * May an `http` cell of this notebook send to `req.host`? true: send. A string: refused, the cell
   * fails with that reason and nothing is sent. Absent: every `http` cell is refused (a front end
   * must decide; loopback hosts are not special). The CLI checks --allow-host; the editor asks once
   * per notebook and host, and refuses in restricted mode.
   */
  approveHost?(req: HostApprovalRequest): Promise<true | string>;
  /**
   * Asked before each side effect of a cell (see SideEffect). A string: not done, and the cell
   * fails with that reason. Absent or undefined: done. The MCP server refuses them unless started
   * with --allow-publish, as it refuses realtime_publish.
   */
  beforeSideEffect?(effect: SideEffect): Promise<string | undefined>;
  /** `{{$env NAME}}` of an `http` cell: the environment variable, or undefined when it is not set. Absent: none is available. */
  env?(name: string): string | undefined;
  /**
   * Why `{{$env NAME}}` may not be read (a sentence: NAME holds a connection's key, or the user did
   * not allow it), or undefined when it may. Absent: every name may be read (the editor, whose host
   * question lists each variable a cell reads).
   */
  envRefusal?(name: string): string | undefined;
  /**
   * The credentials of connections known so far (keys, tokens, app secrets, master keys): each value
   * with the connections it belongs to, as `the llm connection "OpenAI"`. The engine refuses a
   * request that carries one anywhere but in a request of its own connection (credentialTaint.ts).
   */
  connectionCredentials?(): ReadonlyMap<string, ReadonlySet<string>> | Promise<ReadonlyMap<string, ReadonlySet<string>>>;
  /**
   * `{{$secret name}}` of an `http` cell: the stored value (the editor asks for it once and stores
   * it; the CLI reads AWB_SECRET_<NAME>). Throws, saying how to provide it, when there is none. The
   * engine registers it with the redactor.
   */
  secret?(name: string, signal: AbortSignal): Promise<string>;
  /**
   * May this notebook's `< {% %}` / `> {% %}` scripts run? true, or why not (the editor: not in
   * restricted mode). Absent: they run (the CLI and MCP, whose user started the run).
   */
  mayRunScripts?(): true | string;
  /** Builds HttpClients (the editor's shares rate limits and logging). Default: defaultHttpClient. */
  httpClient?(connection: HttpConnection, options: NotebookHttpOptions): HttpClient;
  /** Knows every key the engine is given (the engine adds them); every result string passes it. */
  redactor: Redactor;
  /** A request is about to be sent (already redacted). */
  onRequest?(cell: CellRef, request: RequestRecord): void;
  /** A cell finished (history). */
  onResult?(result: CellResult): void;
}

export interface CellRef {
  file: string;
  cellIndex: number;
  /** 1-based line of the cell's opening fence. */
  line: number;
  name?: string;
}

export interface RunOptions {
  host: NotebookHost;
  /** Shown in every error and problem (a path or URI string). */
  file: string;
  /**
   * The folder `< ./file` lines of request bodies are read from (the notebook's folder). Absent (an
   * untitled notebook): a cell that includes a file fails, saying to save the notebook first.
   */
  baseDir?: string;
  /** Active environment: `vars env=<name>` cells apply only when it matches. */
  environment?: string;
  /** Extra variables (CLI --var, data rows); they win over the notebook's vars cells. */
  variables?: Record<string, string>;
  /** Bytes of a response body kept in a result (default 1 MiB); the rest is counted, not stored. */
  maxBodyBytes?: number;
  /**
   * The whole of a request cell, a streamed answer included (the CLI's --timeout). Without it a
   * stream ends at the client's stream deadline, and only silence (the connection's timeout) stops
   * it earlier: a server sending keep-alive comments would hold the cell for 15 minutes.
   */
  cellTimeoutMs?: number;
  /** Live output of a running cell (LLM stream text, LISTEN messages). */
  onProgress?(progress: CellProgress): void;
  /**
   * The model that answers `?? judge:` checks (the CLI's --judge-model). Without it: the notebook's
   * `judge` variable, else the cell's own model.
   */
  judgeModel?: string;
  /** Limits of each `< {% %}` / `> {% %}` script (default: 1 s, 32 MB, 1 MB of logs). */
  scriptLimits?: Partial<ScriptLimits>;
}

export type CellProgress =
  | { kind: 'request'; cell: CellRef; request: RequestRecord }
  /** More answer text of a streamed LLM response (`delta` is what arrived; `text` all so far). */
  | { kind: 'text'; cell: CellRef; delta: string; text: string }
  | { kind: 'message'; cell: CellRef; message: ListenMessage; count: number };

export interface RequestRecord {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * Time a request spent waiting before the answer that counts: for the connection's own client-side
 * rate limit, and before each attempt sent again after a refusal or no answer (a 429 after its
 * Retry-After, a 503, a reset).
 */
export interface RequestWaits {
  queuedMs: number;
  retries: { status?: number; delayMs: number }[];
}

export interface ResponseRecord {
  /** HTTP status (realtime: 200 for a completed PUBLISH or LISTEN). */
  status: number;
  headers: Record<string, string>;
  /**
   * The body as text, capped at maxBodyBytes. A streamed LLM answer: the assembled answer text.
   * LISTEN: the messages as JSON.
   */
  text: string;
  /**
   * The parsed body when it is JSON and complete. Streamed LLM answer: { content, finishReason,
   * model, events, usage? } (usage when the request asked for `stream_options.include_usage`). LISTEN: the messages ({ channel, event, data, atMs }[]).
   */
  json?: unknown;
  /** Bytes received (also beyond the cap). */
  size: number;
  truncated: boolean;
  durationMs: number;
  requestId?: string;
  /** A streamed LLM answer: milliseconds from sending the request to the first token (text or tool call). */
  ttftMs?: number;
}

export interface ListenMessage {
  channel: string;
  event: string;
  /** JSON-decoded when the data is JSON. */
  data: unknown;
  /** Milliseconds after the subscription was confirmed. */
  atMs: number;
  /** On a private-encrypted- channel: opened with the master key. */
  decrypted?: true;
  /**
   * Why it could not be opened (a private-encrypted- channel, a different key); `data` is then
   * null and the message is listed but not counted.
   */
  error?: string;
}

/** `matches schema`: `?? json matches schema ./file.json`; `matches spec`: `?? json matches spec` (the notebook's OpenAPI document); `judge`: `?? judge: <rubric>` (the value is the rubric). */
export type AssertionOperator = '==' | '!=' | '<' | '<=' | '>' | '>=' | 'contains' | 'matches' | 'exists' | 'matches schema' | 'matches spec' | 'judge';

export interface AssertionResult {
  /** The line as written, e.g. `?? status == 200`. */
  source: string;
  line: number;
  passed: boolean;
  /** What the line asks for, e.g. `== 200`. */
  expected: string;
  /** What was found (JSON text for non-strings; `(missing)` when the subject does not exist). */
  actual: string;
  /** A `judge:` check: the judge's reason, shown pass or fail. */
  reason?: string;
  /** A `judge:` check: the model that judged. */
  judgeModel?: string;
  /** What asking a model for this check cost in USD (a judge, the embeddings of `similar`), when its price is known. */
  costUsd?: number;
}

/** What reports show of a language model's answer (tables of tokens and cost, the HTML report). */
export interface LlmSummary {
  /** The model that answered (or, when the answer does not say, the one asked for). */
  model?: string;
  /** The answer text (Responses API: every output_text joined). */
  answer: string;
  toolCalls?: Array<{ name: string; arguments: string }>;
  tokens?: { prompt: number; completion: number; total: number };
  /** USD from the price table; absent when the model's price (or the usage) is not known. */
  costUsd?: number;
  /** A streamed answer: milliseconds to the first token. */
  ttftMs?: number;
}

export interface CellResult extends CellRef {
  service: CodeLanguage;
  connection?: string;
  /** ISO time the run started. */
  startedAt: string;
  /** Request completed and every assertion holds (an HTTP error status without a `status` assertion fails). */
  ok: boolean;
  /** Why the cell did not run (a vars cell of another environment). */
  skipped?: string;
  request?: RequestRecord;
  response?: ResponseRecord;
  /** LISTEN: how many messages arrived. */
  count?: number;
  /** LISTEN: the channel and how long it listened for (its output says when nothing came within it). */
  listen?: { channel: string; windowMs: number };
  /** ApiError.describe() text, a problem with file:line, or "Cancelled". */
  error?: string;
  cancelled?: boolean;
  assertions: AssertionResult[];
  /** A vars cell: what it set. */
  variables?: Record<string, string>;
  /** What the cell's scripts logged (console.log, client.log) and could not do, in order. */
  logs?: string[];
  /** An llm cell that a model answered: model, tokens, cost, time to first token, the answer. */
  llm?: LlmSummary;
  /** Wall time of the whole cell, including the engine's own work. */
  durationMs: number;
  /** What the request waited for (a rate limit, a retry after 429): why a slow cell was slow. */
  waits?: RequestWaits;
  /**
   * Set when the request went nowhere because no connection of `service` has the host its request
   * line names: the editor offers to add one.
   */
  needsConnection?: { service: ServiceId; host: string };
}

export interface NotebookRunReport {
  file: string;
  ok: boolean;
  problems: NotebookProblem[];
  results: CellResult[];
}

/**
 * Runs the cells of one notebook and remembers each named cell's last result, so `{{name.…}}`
 * works between cells and between separate runs of single cells.
 */
export interface NotebookRunner {
  /** Replaces the cells (after edits); results of cells that still exist by name are kept. */
  setCells(cells: readonly NotebookCellData[]): void;
  /**
   * Switches the active environment (RunOptions.environment) for the next runs. Named results of
   * the previous one are dropped, since its variables made them; open sockets stay.
   */
  setEnvironment(name: string | undefined): void;
  /** Runs one code cell (markup cells are an error). */
  runCell(index: number, cancel?: Cancel): Promise<CellResult>;
  /**
   * Starts one code cell. `ready` resolves when the next cell of a run may start: a LISTEN once it
   * is subscribed (so a PUBLISH below it is received), any other cell when it has finished.
   */
  startCell(index: number, cancel?: Cancel): { ready: Promise<void>; result: Promise<CellResult> };
  /** Runs every code cell in order (a LISTEN keeps listening while the cells below it run); stops early only when cancelled. */
  runAll(cancel?: Cancel): Promise<CellResult[]>;
  /** The last result of a named cell. */
  lastResult(name: string): CellResult | undefined;
  /** Closes sockets the runner still holds. */
  dispose(): void;
}

// --- entry points ------------------------------------------------------------------------------
