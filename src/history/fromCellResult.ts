// A notebook cell's result (the engine's CellResult) as a history entry: the notebook controller
// calls the history's record() with it. The engine has redacted every string already.
import type { CellResult } from '../notebook/api';
import { newEntryId, type HistoryEntry, type HistoryService } from './model';

/**
 * The entry for a cell's result (an http cell's too: the README promises every request from a cell);
 * undefined for a cell that sent nothing (a vars cell, a skipped or refused one).
 */
export function historyEntryFromCellResult(result: CellResult): HistoryEntry | undefined {
  if (result.service === 'vars' || !result.request) return undefined;
  const service: HistoryService = result.service;
  const { request, response } = result;
  const passed = result.assertions.filter((a) => a.passed).length;
  const entry: HistoryEntry = {
    id: newEntryId(),
    at: result.startedAt,
    origin: 'notebook',
    service,
    connection: result.connection,
    method: request.method,
    url: request.url,
    request: { headers: { ...request.headers }, ...(request.body !== undefined && { body: request.body }) },
    status: response?.status,
    durationMs: Math.round(response?.durationMs ?? result.durationMs),
    requestId: response?.requestId,
    cell: { file: result.file, line: result.line, name: result.name, passed, failed: result.assertions.length - passed },
  };
  if (result.error !== undefined) entry.error = result.cancelled ? 'Cancelled' : result.error;
  if (response) {
    entry.response = {
      headers: { ...response.headers },
      body: response.json !== undefined && isStreamSummary(result, response.json) ? response.text : prettyIfJson(response.text, response.json),
      ...(response.truncated && { truncated: true }),
      ...(service === 'llm' && isStreamSummary(result, response.json) && { note: 'the streamed answer, assembled' }),
      ...(service === 'realtime' && request.method === 'LISTEN' && { note: `${result.count ?? 0} messages` }),
    };
  }
  return entry;
}

/** The engine hands a streamed LLM answer back as { content, finishReason, … }: the text is the answer. */
function isStreamSummary(result: CellResult, json: unknown): boolean {
  return result.service === 'llm' && json !== null && typeof json === 'object' && 'finishReason' in json && 'content' in json;
}

/**
 * Past this many characters a JSON body is kept as it came: the history keeps only its first 64 KiB
 * anyway, and indenting a 20 MB answer to cut most of it away blocked the editor for a second.
 */
const PRETTY_MAX_CHARS = 1024 * 1024;

function prettyIfJson(text: string, json: unknown): string {
  return json === undefined || text.length > PRETTY_MAX_CHARS ? text : JSON.stringify(json, null, 2);
}
