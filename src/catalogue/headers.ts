// Request headers a cell may set, with the values worth offering. Key headers are left out on
// purpose: a service cell's key comes from its connection, an http cell's from {{$secret name}}.
import type { CodeLanguage } from '../notebook/api';

export interface HeaderSpec {
  name: string;
  detail: string;
  values?: readonly string[];
  /** Cell languages it applies to. */
  languages: readonly CodeLanguage[];
}

const REQUESTS: readonly CodeLanguage[] = ['llm', 'maps', 'http'];

export const FIELD_MASK_HEADER = 'X-Goog-FieldMask';

export const HEADERS: readonly HeaderSpec[] = [
  {
    name: 'Content-Type',
    detail: 'the body’s format',
    values: ['application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=----awb'],
    languages: REQUESTS,
  },
  { name: 'Accept', detail: 'the answer formats wanted', values: ['application/json', 'text/event-stream', '*/*'], languages: REQUESTS },
  {
    name: FIELD_MASK_HEADER,
    detail: 'the answer’s fields (Places and Routes require it; the dearest field decides the SKU)',
    languages: ['maps'],
  },
  { name: 'Accept-Language', detail: 'the language of names and addresses', values: ['en', 'en-US', 'de', 'fr', 'pt-PT', 'ja'], languages: REQUESTS },
  { name: 'Cache-Control', detail: 'caching of the answer', values: ['no-cache', 'no-store'], languages: REQUESTS },
  { name: 'If-None-Match', detail: 'answer 304 when the entity tag still matches', languages: ['http'] },
  { name: 'User-Agent', detail: 'the client’s name', languages: ['http'] },
  { name: 'X-Request-Id', detail: 'an id to find this request in the server’s logs', languages: REQUESTS },
  { name: 'Authorization', detail: 'a key, always by reference', values: ['Bearer {{$secret name}}', 'Bearer {{$env TOKEN}}'], languages: ['http'] },
];

export function headersFor(language: string): readonly HeaderSpec[] {
  return HEADERS.filter((h) => (h.languages as readonly string[]).includes(language));
}

export function findHeader(name: string): HeaderSpec | undefined {
  const lower = name.toLowerCase();
  return HEADERS.find((h) => h.name.toLowerCase() === lower);
}
