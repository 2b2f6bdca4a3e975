// `npm run sandbox -- --replay <dir>`: the sandbox answers the requests a folder of recordings holds
// (the files `api-workbench run --record <dir>` and the editor's Record Run write) with the recorded
// answers, streamed chunks at their recorded pace, so the extension's views, SDK code copied from a
// cell, or any other client see what was recorded, offline. A request the recordings do not hold is
// answered by the sandbox as usual, and the log says how it differs from the nearest recording.
//
// Matching is by the request as a cassette keys it (core/recording/requestKey: no credentials, JSON
// in canonical form) without its origin: a recording made against api.openai.com answers the same
// request sent to the sandbox. LISTEN recordings are not re-published on the socket.
import { readdirSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { readRegularFileSync } from '../core/fileGate';
import { REPLAYED_HEADER } from '../core/httpExchange';
import { MAX_BODY_BYTES, readBodyBytes, rememberBody } from '../core/nodeHttp';
import { Redactor } from '../core/redact';
import { MAX_RECORDING_BYTES, parseRecording, type CassetteEntry } from '../core/recording/file';
import { recordedRequest, requestDifferences, requestKey, type RecordedRequest } from '../core/recording/requestKey';

/** A recorded pause longer than this is cut to it: a slow first token replays slowly, not for minutes. */
const MAX_PAUSE_MS = 2_000;
/** Headers of the recorded answer that described its bytes as they were then, not as replayed. */
const DROPPED = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive']);

/** `{sandbox-llm}/v1/models?x=1` or `https://api.openai.com/v1/models?x=1` -> `/v1/models?x=1`, with a realtime app id as `{app}`. */
function pathOf(url: string): string {
  const rest = url.replace(/^(\{[^}/]+\}|[a-z][a-z0-9+.-]*:\/\/[^/]+)/i, '');
  return rest.replace(/^\/apps\/[^/]+\//, '/apps/{app}/');
}

function keyOf(r: RecordedRequest): string {
  return requestKey({ ...r, url: pathOf(r.url), headers: {} });
}

function routeOf(method: string, url: string): string {
  return `${method} ${pathOf(url).split('?')[0]}`;
}

export class RecordedAnswers {
  private readonly byKey = new Map<string, CassetteEntry[]>();
  private readonly byRoute = new Map<string, CassetteEntry[]>();
  private readonly taken = new Map<string, number>();
  private readonly redactor = new Redactor();

  constructor(
    entries: readonly CassetteEntry[],
    private readonly log: (line: string) => void = () => undefined,
  ) {
    for (const e of entries) {
      if (e.request.method === 'LISTEN') continue;
      push(this.byKey, keyOf(e.request), e);
      push(this.byRoute, routeOf(e.request.method, e.request.url), e);
    }
  }

  get size(): number {
    return [...this.byKey.values()].reduce((n, list) => n + list.length, 0);
  }

  /**
   * Answers `req` from the recordings when they hold it (true); false leaves it to the service. The
   * body read to match is handed on to the service's own readBody (rememberBody).
   */
  async serve(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const method = (req.method ?? 'GET').toUpperCase();
    const target = new URL(req.url ?? '/', 'http://sandbox');
    if (!this.byRoute.has(`${method} ${target.pathname}`)) return false;
    // Uploads (multipart) and bodies past the usual limit go to the service, which reads them itself.
    const length = Number(req.headers['content-length'] ?? 0);
    if (/multipart\//i.test(req.headers['content-type'] ?? '') || length > MAX_BODY_BYTES) return false;
    const body = await readBodyBytes(req, MAX_BODY_BYTES);
    rememberBody(req, body);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
    const asked = recordedRequest(target, { method, headers, body: body.length ? body : undefined }, this.redactor, []);
    const key = keyOf(asked);
    const list = this.byKey.get(key);
    if (!list?.length) {
      this.log(`replay: ${method} ${target.pathname} is not in the recordings${this.nearest(asked)}; the sandbox answers it`);
      return false;
    }
    const n = this.taken.get(key) ?? 0;
    this.taken.set(key, n + 1);
    await this.answer(list[Math.min(n, list.length - 1)], res);
    return true;
  }

  private nearest(asked: RecordedRequest): string {
    const candidates = this.byRoute.get(routeOf(asked.method, asked.url)) ?? [];
    let best: string[] | undefined;
    for (const e of candidates) {
      const d = requestDifferences({ ...e.request, url: pathOf(e.request.url), headers: {} }, { ...asked, url: pathOf(asked.url), headers: {} });
      if (!best || d.length < best.length) best = d;
    }
    return best?.length ? ` (the nearest recording differs in ${best.slice(0, 3).join('; ')})` : '';
  }

  private async answer(entry: CassetteEntry, res: ServerResponse): Promise<void> {
    const headers: Record<string, string> = { [REPLAYED_HEADER]: '1' };
    for (const [name, value] of Object.entries(entry.response.headers)) if (!DROPPED.has(name.toLowerCase())) headers[name] = value;
    res.writeHead(entry.response.status, headers);
    let at = 0;
    for (const chunk of entry.response.chunks) {
      const pause = Math.min(MAX_PAUSE_MS, Math.max(0, chunk.t - at));
      at = chunk.t;
      if (pause > 0) await new Promise((r) => setTimeout(r, pause));
      if (res.destroyed) return;
      res.write(chunk.text !== undefined ? Buffer.from(chunk.text, 'utf8') : Buffer.from(chunk.base64 ?? '', 'base64'));
    }
    res.end();
  }
}

function push(map: Map<string, CassetteEntry[]>, key: string, e: CassetteEntry): void {
  const list = map.get(key);
  if (list) list.push(e);
  else map.set(key, [e]);
}

/** Every recording under `dir` (its `.json` files, in subfolders too). Throws naming the file that is not one. */
export function loadRecordings(dir: string): { entries: CassetteEntry[]; files: number } {
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('.json'));
  } catch (e) {
    throw new Error(`--replay ${dir}: cannot read the folder (${(e as NodeJS.ErrnoException).code ?? String(e)})`, { cause: e });
  }
  const entries: CassetteEntry[] = [];
  for (const name of names.sort()) {
    const file = path.join(dir, name);
    let text: string;
    try {
      text = readRegularFileSync(file, MAX_RECORDING_BYTES, 'replayed').toString('utf8');
    } catch (e) {
      throw new Error(`${file}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
    entries.push(...parseRecording(text, file));
  }
  return { entries, files: names.length };
}
