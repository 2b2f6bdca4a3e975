// One request as code: the exported request (notebook/import/exportHttp.ts, the same one Copy as
// cURL writes) as HAR, turned into each language by httpsnippet (cURL by core/curl.ts, as ever);
// the key and any value not known here are read from environment variables, never written.
import { toCurl } from '../../core/curl';
import type { Redactor } from '../../core/redact';
import type { ExportedRequest } from '../../notebook/api';
import { skuOf } from '../../services/maps/sku';
import { billedRequest } from '../maps/billing';
import { asciiMarkers, envMarker, readMarkersFromEnv } from './envRefs';
import { codeLanguage, type CodeLanguage } from './languages';

type HttpsnippetModule = typeof import('@readme/httpsnippet');

/** Loaded on first use: the generator is not needed before someone copies code. */
let httpsnippet: Promise<HttpsnippetModule> | undefined;
function loadHttpsnippet(): Promise<HttpsnippetModule> {
  return (httpsnippet ??= import('@readme/httpsnippet'));
}

/** The request with its key as a marker where the connection puts it. */
export function withKey(req: ExportedRequest): { url: string; headers: Record<string, string> } {
  const key = envMarker(req.envVar);
  const headers = { ...req.headers };
  let url = req.url;
  if (req.auth.placement === 'bearer') headers.Authorization = `Bearer ${key}`;
  else if (req.auth.placement === 'header') headers[req.auth.name] = key;
  else if (req.auth.placement === 'query') url += `${url.includes('?') ? '&' : '?'}${encodeURIComponent(req.auth.name)}=${key}`;
  return { url: asciiMarkers(url), headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, asciiMarkers(v)])) };
}

/** What a maps request is billed as, from the same rules as the session tally; undefined for others. */
export function billedSkuLine(req: ExportedRequest): string | undefined {
  if (req.service !== 'maps') return undefined;
  const billed = billedRequest({ method: req.method, url: req.url, headers: req.headers, body: req.body });
  if (!billed) return undefined;
  const sku = skuOf(billed.operation, billed.fieldMask, billed.options);
  const mask = billed.fieldMask ? ` (X-Goog-FieldMask: ${billed.fieldMask})` : '';
  return `Billed by Google as the SKU "${sku.sku}"${mask}, US$${sku.pricePer1000} per 1,000 ${sku.per}s.`;
}

/** The comment lines every generated file starts with: what it needs, where the key comes from, the SKU. */
export function headerLines(language: CodeLanguage, req: Pick<ExportedRequest, 'auth' | 'envVar'> & Partial<ExportedRequest>, extra: string[] = []): string[] {
  const info = codeLanguage(language);
  const lines = [`Needs: ${info.needs}.`];
  if (req.auth.placement !== 'none') lines.push(`The key is read from the environment variable ${req.envVar}; it is never written here.`);
  if (req.service) {
    const sku = billedSkuLine(req as ExportedRequest);
    if (sku) lines.push(sku);
  }
  lines.push(...extra);
  return lines.map((l) => `${info.comment} ${l}`);
}

function isStreaming(req: ExportedRequest): boolean {
  try {
    return (JSON.parse(req.body ?? '{}') as { stream?: unknown }).stream === true;
  } catch {
    return false;
  }
}

/** Java's snippet is statements: a class around them, so the file compiles and runs (`java Main.java`). */
function javaProgram(body: string): string {
  const indented = body
    .split('\n')
    .map((l) => (l ? `        ${l}` : l))
    .join('\n');
  return [
    'import java.net.URI;',
    'import java.net.http.HttpClient;',
    'import java.net.http.HttpRequest;',
    'import java.net.http.HttpResponse;',
    '',
    'public class Main {',
    '    public static void main(String[] args) throws Exception {',
    indented,
    '    }',
    '}',
  ].join('\n');
}

/** The plain-HTTP code of one request in `language` (not an SDK language). */
export async function httpSnippet(
  req: ExportedRequest,
  language: Exclude<CodeLanguage, 'python-sdk' | 'javascript-sdk'>,
  redactor?: Redactor,
): Promise<string> {
  const header = headerLines(language, req);
  if (language === 'curl') return `${header.join('\n')}\n${toCurl(req, { envVar: req.envVar, redactor })}\n`;
  const info = codeLanguage(language);
  const { url, headers } = withKey(req);
  const contentType = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? 'application/octet-stream';
  const body = req.body === undefined ? undefined : asciiMarkers(req.body);
  const { HTTPSnippet } = await loadHttpsnippet();
  const har = {
    method: req.method,
    url,
    httpVersion: 'HTTP/1.1',
    headers: Object.entries(headers).map(([name, value]) => ({ name, value })),
    queryString: [],
    cookies: [],
    headersSize: -1,
    bodySize: -1,
    postData: body !== undefined ? { mimeType: contentType, text: body } : { mimeType: contentType },
  };
  const converted = new HTTPSnippet(har).convert(
    info.snippet!.target as Parameters<InstanceType<HttpsnippetModule['HTTPSnippet']>['convert']>[0],
    info.snippet!.client,
  );
  let code = (Array.isArray(converted) ? converted[0] : converted) || '';
  if (!code) throw new Error(`httpsnippet wrote nothing for ${info.label}.`);
  code = readMarkersFromEnv(code, language);
  if (language === 'java') code = javaProgram(code);
  // A streamed answer is server-sent events, not one JSON document.
  if (language === 'javascript' && isStreaming(req)) code = code.replace('res.json()', 'res.text()');
  // console.log shows objects two levels deep: the whole answer is printed as JSON.
  else if (language === 'javascript') code = code.replace('.then(res => console.log(res))', '.then(res => console.log(JSON.stringify(res, null, 2)))');
  if (language === 'python' && code.includes('os.environ')) code = `import os\n\n${code}`;
  if (language === 'go' && code.includes('os.Getenv(')) code = code.replace('\t"io"\n', '\t"io"\n\t"os"\n');
  const text = language === 'php' ? code.replace(/^<\?php\n/, `<?php\n\n${header.join('\n')}\n`) : `${header.join('\n')}\n${code}`;
  const out = text.endsWith('\n') ? text : `${text}\n`;
  return redactor ? redactor.text(out) : out;
}
