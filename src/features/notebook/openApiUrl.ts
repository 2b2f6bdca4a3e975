// *Import OpenAPI…* from a URL: the document is fetched through the product's one transport
// (HttpClient over core/net: the proxy and certificate settings, timeouts, bounded retries, a
// redacted log line) with no credential, capped at the size a spec file may have, and then imported
// as a file would be. Its `$ref`s to other files are not fetched (never the network from a
// document): such a document has to be downloaded with its files and imported from disk.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { errorText } from '../../core/errors';
import { formatBytes } from '../../core/numbers';
import { HttpClient, type RequestLogEntry } from '../../core/http';
import type { Redactor } from '../../core/redact';
import { ImportError, importOpenApi, type ImportResult, type OpenApiImportOptions } from '../../notebook/api';

/** The largest document fetched (the same cap as a spec file on disk: OpenAI's is ~3 MB). */
export const MAX_SPEC_DOWNLOAD_BYTES = 16 * 1024 * 1024;

/** The address as typed, checked: http or https only. Throws a sentence saying what to give. */
export function specUrl(text: string): URL {
  const typed = text.trim();
  let url: URL;
  try {
    url = new URL(typed);
  } catch {
    throw new Error(`"${typed}" is not a URL: give the address of an OpenAPI document, like https://api.example.com/openapi.yaml.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`${url.protocol} addresses are not fetched: give an http or https address of an OpenAPI document.`);
  if (url.username || url.password) throw new Error('The address carries a user name or password: give one without, a key never goes in an address.');
  return url;
}

/** The file name a document at `url` reads as (`openapi.yaml` when its path has none). */
export function specNameOf(url: URL): string {
  const base = path.posix.basename(url.pathname);
  return /\.(ya?ml|json)$/i.test(base) ? base : 'openapi.yaml';
}

export interface SpecDownloadOptions {
  redactor?: Redactor;
  log?: (entry: RequestLogEntry) => void;
  timeoutMs?: number;
  maxBytes?: number;
}

/** The document's text. Errors are sentences naming the address and what to do. */
export async function downloadSpec(url: URL, opts: SpecDownloadOptions = {}): Promise<string> {
  const maxBytes = opts.maxBytes ?? MAX_SPEC_DOWNLOAD_BYTES;
  const client = new HttpClient({
    service: 'OpenAPI import',
    baseUrl: `${url.origin}/`,
    auth: { placement: 'none' },
    timeoutMs: opts.timeoutMs ?? 30_000,
    ...(opts.redactor ? { redactor: opts.redactor } : {}),
    ...(opts.log ? { log: opts.log } : {}),
  });
  const query = Object.fromEntries(url.searchParams);
  try {
    const res = await client.stream({
      method: 'GET',
      path: url.pathname,
      query,
      headers: { Accept: 'application/yaml, application/json;q=0.9, */*;q=0.5' },
    });
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += chunk.byteLength;
      if (size > maxBytes) throw new Error(`The document at ${url.href} is larger than ${formatBytes(maxBytes)}: download it and import the file.`);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  } catch (e) {
    if (e instanceof Error && e.message.startsWith('The document at')) throw e;
    throw new Error(
      `The OpenAPI document could not be fetched from ${url.href}: ${errorText(e)}. Check the address and your network settings (http.proxy), or download it and import the file.`,
      {
        cause: e,
      },
    );
  }
}

/**
 * A fetched document as a notebook (naming its spec `./<name>`). It is imported from an empty
 * folder of its own, so a `$ref` to another file finds nothing (and never a file of this computer).
 */
export async function importFetchedSpec(text: string, url: URL, opts: Omit<OpenApiImportOptions, 'specRef' | 'source'> = {}): Promise<ImportResult> {
  const name = specNameOf(url);
  const folder = await mkdtemp(path.join(os.tmpdir(), 'awb-openapi-url-'));
  try {
    return await importOpenApi(text, path.join(folder, name), { ...opts, source: url.href, specRef: `./${name}` });
  } catch (e) {
    if (!(e instanceof ImportError)) throw e;
    // Named by its address, not the folder it was imported from.
    const note = /\$ref/.test(`${e.where} ${e.detail}`)
      ? ' (a document fetched from a URL cannot bring in other files: download it with the files its $refs name and import it from disk)'
      : '';
    throw new ImportError(url.href, e.where, `${e.detail}${note}`);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
