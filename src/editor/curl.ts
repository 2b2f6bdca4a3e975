// "Copy as cURL" in the editor: each service remembers the last few requests its commands sent
// (as the HttpClient described them, before the key was added) and copies one as a command line
// whose key is an environment-variable reference. Kept in memory only: bodies hold prompts and code.
import vscode from 'vscode';
import * as z from 'zod/mini';
import { SERVICE_LABELS, type HttpConnection } from '../core/connections';
import { keyEnvVar, toCurl } from '../core/curl';
import type { OutgoingRequest } from '../core/http';
import { validate } from '../core/validate';
import type { CommandId } from '../features/commandIds';
import { COPY_AS_CURL_COMMANDS } from '../features/ids';
import type { Services } from './services';

/** Requests kept per service, newest first. */
const KEPT = 10;
const BODY_PREVIEW = 100;

export interface RecordedRequest {
  /** Unique in this window; error notifications and documents refer to a request by it. */
  readonly id: number;
  readonly at: number;
  readonly connection: string;
  /** The variable the copy reads the key from, e.g. OPENAI_API_KEY. */
  readonly envVar: string;
  readonly request: OutgoingRequest;
}

/** What the command returns (to tests and other callers). */
export interface CopiedCurl {
  text: string;
  id: number;
  envVar: string;
}

export class RequestHistory {
  private entries: RecordedRequest[] = [];
  /** Document URI → the request that produced it (answer documents, JSON responses). */
  private readonly linked = new Map<string, number>();
  private nextId = 1;

  /** `documents` (the request history) also learns which request each linked document shows, for "Save as Notebook Cell". */
  constructor(
    readonly service: 'llm' | 'maps',
    private readonly documents?: { linkDocument(uri: vscode.Uri, request: OutgoingRequest): void; unlinkDocument(uri: vscode.Uri): void },
  ) {}

  record(conn: HttpConnection, request: OutgoingRequest): RecordedRequest {
    const entry: RecordedRequest = {
      id: this.nextId++,
      at: Date.now(),
      connection: conn.name,
      envVar: keyEnvVar(this.service, conn.auth, conn.baseUrl),
      request,
    };
    this.entries = [entry, ...this.entries].slice(0, KEPT);
    const kept = new Set(this.entries.map((e) => e.id));
    for (const [uri, id] of this.linked) if (!kept.has(id)) this.linked.delete(uri);
    return entry;
  }

  /** Remembers that `uri` shows the result of `entry`, so Copy as cURL in its editor copies that request. */
  link(uri: vscode.Uri, entry: RecordedRequest): void {
    this.linked.set(uri.toString(), entry.id);
    this.documents?.linkDocument(uri, entry.request);
  }

  /** `uri` shows no request now (e.g. the answer at the cursor of the Answers document failed before sending). */
  unlink(uri: vscode.Uri): void {
    this.linked.delete(uri.toString());
    this.documents?.unlinkDocument(uri);
  }

  forDocument(uri: vscode.Uri): RecordedRequest | undefined {
    const id = this.linked.get(uri.toString());
    return id === undefined ? undefined : this.get(id);
  }

  get(id: number): RecordedRequest | undefined {
    return this.entries.find((e) => e.id === id);
  }

  /** Newest first. */
  list(): readonly RecordedRequest[] {
    return this.entries;
  }
}

/** `{ id }` copies that request, `{ pick: true }` offers the recent ones; a document URI (editor title) copies its request. */
const copyArgs = z.object({ id: z.optional(z.number()), pick: z.optional(z.boolean()) });

export interface CopyAsCurlOptions {
  /** What to suggest when nothing was sent yet. */
  firstCommand: { title: string; command: CommandId };
}

function describeRequest(e: RecordedRequest): string {
  let path = e.request.url;
  try {
    path = new URL(e.request.url).pathname;
  } catch {
    /* shown as is */
  }
  return `${e.request.method} ${path}`;
}

/** The handler of apiWorkbench.<service>.copyAsCurl. */
export async function copyAsCurl(s: Services, history: RequestHistory, opts: CopyAsCurlOptions, arg?: unknown): Promise<CopiedCurl | undefined> {
  const label = SERVICE_LABELS[history.service];
  const entries = history.list();
  if (!entries.length) {
    const choice = await vscode.window.showInformationMessage(
      `No ${label} request to copy yet in this window: run ${opts.firstCommand.title} first.`,
      opts.firstCommand.title,
    );
    if (choice) await vscode.commands.executeCommand(opts.firstCommand.command);
    return undefined;
  }
  let entry: RecordedRequest | undefined;
  if (arg instanceof vscode.Uri) {
    entry = history.forDocument(arg);
    if (!entry) throw new Error(`No request is kept for this document (only the last ${KEPT} ${label} requests are). Run it again, then copy.`);
  } else {
    const a = validate(copyArgs, arg ?? {});
    const args = a.ok ? a.value : {};
    if (args.id !== undefined) {
      entry = history.get(args.id);
      if (!entry) throw new Error(`That ${label} request is no longer kept (only the last ${KEPT} are). Run it again, then copy.`);
    } else if (args.pick) {
      entry = await pick(s, history);
      if (!entry) return undefined;
    } else {
      entry = entries[0];
    }
  }
  if (!entry) return undefined;
  const text = toCurl(entry.request, { envVar: entry.envVar, redactor: s.redactor });
  await vscode.env.clipboard.writeText(text);
  s.log.info(`Copied ${describeRequest(entry)} (${entry.connection}) as cURL; the key is read from $${entry.envVar}.`);
  const another = history.list().length > 1 ? 'Pick Another Request…' : undefined;
  void vscode.window
    .showInformationMessage(
      `Copied ${describeRequest(entry)} (${entry.connection}) as cURL. It reads the key from $${entry.envVar}.`,
      ...(another ? [another] : []),
    )
    .then((choice) => {
      if (choice === another) void vscode.commands.executeCommand(COPY_AS_CURL_COMMANDS[history.service], { pick: true });
    });
  return { text, id: entry.id, envVar: entry.envVar };
}

async function pick(s: Services, history: RequestHistory): Promise<RecordedRequest | undefined> {
  const items = history.list().map((e, i) => {
    const body = e.request.body ? s.redactor.text(e.request.body.replace(/\s+/g, ' ')) : '';
    return {
      label: `${i === 0 ? '$(history) ' : ''}${describeRequest(e)}`,
      description: `${e.connection} · ${new Date(e.at).toLocaleTimeString()}`,
      detail: body.length > BODY_PREVIEW ? `${body.slice(0, BODY_PREVIEW)}…` : body || undefined,
      entry: e,
    };
  });
  const picked = await vscode.window.showQuickPick(items, {
    title: `Copy a ${SERVICE_LABELS[history.service]} request as cURL`,
    placeHolder: 'Recent requests, newest first',
  });
  return picked?.entry;
}
