// One shape for what an OpenAPI 3.0/3.1 document or a Swagger 2.0 definition says about each
// operation: its method and path, parameters, body, answers and security. The importer writes
// cells from it, the catalogue offers completions from it and `?? json matches spec` validates
// against it, so 2.0 and 3.x are told apart here only.
import { isRecord, type LoadedSpec, type SpecDialect } from './load';

export type Schema = Record<string, unknown>;
export type ParameterPlace = 'path' | 'query' | 'header' | 'cookie';

export interface SpecParameter {
  name: string;
  in: ParameterPlace;
  required: boolean;
  schema?: Schema;
  example?: unknown;
  description?: string;
}

export interface SpecBody {
  required: boolean;
  contentType: string;
  schema?: Schema;
  example?: unknown;
}

export interface SpecResponse {
  description?: string;
  schema?: Schema;
}

export interface SecurityScheme {
  type: 'http' | 'apiKey' | 'oauth2' | 'openIdConnect' | 'basic' | 'other';
  /** http: bearer, basic. */
  scheme?: string;
  /** apiKey: where and under which name. */
  in?: 'header' | 'query' | 'cookie';
  name?: string;
}

export interface SpecOperation {
  /** The operationId, or one made from the method and path when the document gives none. */
  id: string;
  method: string;
  /** As the document writes it: `/pets/{petId}`. */
  path: string;
  tags: string[];
  summary?: string;
  description?: string;
  parameters: SpecParameter[];
  body?: SpecBody;
  /** By status as written: "200", "4XX", "default". */
  responses: Record<string, SpecResponse>;
  /** Alternatives (any one suffices), each a set of scheme names; [] = no security. */
  security: string[][];
  /** Where it is in the document, for notes: `#/paths/~1pets/get`. */
  pointer: string;
}

export interface SpecServer {
  url: string;
  description?: string;
}

export interface SpecModel {
  dialect: SpecDialect;
  title: string;
  version: string;
  description?: string;
  servers: SpecServer[];
  tags: Array<{ name: string; description?: string }>;
  securitySchemes: Record<string, SecurityScheme>;
  operations: SpecOperation[];
  /** The bundled document: `$ref`s point into it. */
  root: Record<string, unknown>;
}

export const OPERATION_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Follows local `$ref`s (`#/components/…`) to the object they name; other values as they are. */
export function deref(root: Record<string, unknown>, node: unknown, seen = 0): unknown {
  if (!isRecord(node) || typeof node.$ref !== 'string' || !node.$ref.startsWith('#') || seen > 32) return node;
  let at: unknown = root;
  for (const raw of node.$ref.slice(2).split('/')) {
    if (raw === '') continue;
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    at = isRecord(at) || Array.isArray(at) ? (at as Record<string, unknown>)[key] : undefined;
  }
  return deref(root, at, seen + 1);
}

/** The first JSON-ish media type of a content map (application/json, +json, any), else the first. */
function pickMedia(content: unknown): [string, Record<string, unknown>] | undefined {
  if (!isRecord(content)) return undefined;
  const entries = Object.entries(content).filter((e): e is [string, Record<string, unknown>] => isRecord(e[1]));
  return entries.find(([t]) => /json/i.test(t)) ?? entries.find(([t]) => t === '*/*') ?? entries[0];
}

function exampleOf(media: Record<string, unknown>, root: Record<string, unknown>): unknown {
  if (media.example !== undefined) return media.example;
  if (isRecord(media.examples)) {
    const first = deref(root, Object.values(media.examples)[0]);
    if (isRecord(first) && first.value !== undefined) return first.value;
  }
  return undefined;
}

function parameterOf(raw: unknown, root: Record<string, unknown>, dialect: SpecDialect): SpecParameter | undefined {
  const p = deref(root, raw);
  if (!isRecord(p) || typeof p.name !== 'string') return undefined;
  const place = p.in;
  if (place !== 'path' && place !== 'query' && place !== 'header' && place !== 'cookie') return undefined;
  // Swagger 2.0 writes the schema's keywords on the parameter itself (type, enum, default, format).
  const schema = dialect === '2.0' ? pickSchema2(p) : isRecord(p.schema) ? p.schema : undefined;
  const resolved = deref(root, schema);
  const example = p.example ?? (isRecord(resolved) ? (resolved.example ?? resolved.default) : undefined) ?? p['x-example'];
  return { name: p.name, in: place, required: place === 'path' || p.required === true, schema, example, description: str(p.description) };
}

function pickSchema2(p: Record<string, unknown>): Schema {
  const keys = ['type', 'format', 'enum', 'default', 'items', 'minimum', 'maximum', 'pattern', 'example'];
  return Object.fromEntries(keys.filter((k) => p[k] !== undefined).map((k) => [k, p[k]]));
}

function mergedParameters(pathItem: Record<string, unknown>, op: Record<string, unknown>, root: Record<string, unknown>): unknown[] {
  const byKey = new Map<string, unknown>();
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? (v as unknown[]) : []);
  for (const raw of [...list(pathItem.parameters), ...list(op.parameters)]) {
    const p = deref(root, raw);
    if (isRecord(p)) byKey.set(`${String(p.in)}:${String(p.name)}`, raw);
  }
  return [...byKey.values()];
}

function bodyOf(op: Record<string, unknown>, params: unknown[], doc: Record<string, unknown>, dialect: SpecDialect): SpecBody | undefined {
  if (dialect === '2.0') {
    const consumes = (Array.isArray(op.consumes) ? op.consumes : Array.isArray(doc.consumes) ? doc.consumes : []).filter((c) => typeof c === 'string');
    const body = params.map((p) => deref(doc, p)).find((p) => isRecord(p) && p.in === 'body');
    if (!isRecord(body)) return undefined;
    const schema = isRecord(body.schema) ? body.schema : undefined;
    const resolved = deref(doc, schema);
    return {
      required: body.required === true,
      contentType: consumes.find((c) => /json/i.test(c)) ?? consumes[0] ?? 'application/json',
      schema,
      example: body['x-example'] ?? (isRecord(resolved) ? resolved.example : undefined),
    };
  }
  const rb = deref(doc, op.requestBody);
  if (!isRecord(rb)) return undefined;
  const media = pickMedia(rb.content);
  if (!media) return undefined;
  const schema = isRecord(media[1].schema) ? media[1].schema : undefined;
  const resolved = deref(doc, schema);
  return {
    required: rb.required === true,
    contentType: media[0],
    schema,
    example: exampleOf(media[1], doc) ?? (isRecord(resolved) ? resolved.example : undefined),
  };
}

function responsesOf(op: Record<string, unknown>, doc: Record<string, unknown>, dialect: SpecDialect): Record<string, SpecResponse> {
  const out: Record<string, SpecResponse> = {};
  if (!isRecord(op.responses)) return out;
  for (const [status, raw] of Object.entries(op.responses)) {
    const r = deref(doc, raw);
    if (!isRecord(r)) continue;
    const schema = dialect === '2.0' ? r.schema : pickMedia(r.content)?.[1].schema;
    out[status] = { description: str(r.description), ...(isRecord(schema) ? { schema } : {}) };
  }
  return out;
}

function securityOf(v: unknown): string[][] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.filter(isRecord).map((req) => Object.keys(req));
}

function schemesOf(doc: Record<string, unknown>, dialect: SpecDialect): Record<string, SecurityScheme> {
  const raw = dialect === '2.0' ? doc.securityDefinitions : isRecord(doc.components) ? doc.components.securitySchemes : undefined;
  const out: Record<string, SecurityScheme> = {};
  if (!isRecord(raw)) return out;
  for (const [name, value] of Object.entries(raw)) {
    const s = deref(doc, value);
    if (!isRecord(s)) continue;
    const t = s.type;
    const where = s.in === 'header' || s.in === 'query' || s.in === 'cookie' ? s.in : undefined;
    // Swagger 2.0 has no bearer scheme: an apiKey in the Authorization header is how it spells one.
    if (t === 'apiKey' && dialect === '2.0' && where === 'header' && str(s.name)?.toLowerCase() === 'authorization')
      out[name] = { type: 'http', scheme: 'bearer' };
    else if (t === 'apiKey') out[name] = { type: 'apiKey', in: where ?? 'header', name: str(s.name) ?? name };
    else if (t === 'http') out[name] = { type: 'http', scheme: str(s.scheme)?.toLowerCase() };
    else if (t === 'basic') out[name] = { type: 'http', scheme: 'basic' };
    else if (t === 'oauth2' || t === 'openIdConnect') out[name] = { type: t };
    else out[name] = { type: 'other' };
  }
  return out;
}

function serversOf(doc: Record<string, unknown>, dialect: SpecDialect): SpecServer[] {
  if (dialect === '2.0') {
    if (typeof doc.host !== 'string') return [];
    const schemes = Array.isArray(doc.schemes) && doc.schemes.length ? doc.schemes.filter((s) => typeof s === 'string') : ['https'];
    const base = typeof doc.basePath === 'string' ? doc.basePath.replace(/\/+$/, '') : '';
    return schemes.map((s) => ({ url: `${s}://${doc.host as string}${base}` }));
  }
  if (!Array.isArray(doc.servers)) return [];
  return doc.servers.filter(isRecord).flatMap((s) => {
    if (typeof s.url !== 'string') return [];
    // Server variables take their defaults: `http://127.0.0.1:{port}/v1` → `…:8089/v1`.
    const vars = isRecord(s.variables) ? s.variables : {};
    const url = s.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
      const v = vars[name];
      return isRecord(v) && (typeof v.default === 'string' || typeof v.default === 'number') ? String(v.default) : whole;
    });
    return [{ url: url.replace(/\/+$/, ''), description: str(s.description) }];
  });
}

/** The operations of a loaded document in the document's order, with everything a cell needs. */
export function specModel(spec: LoadedSpec): SpecModel {
  const doc = spec.root;
  const info = isRecord(doc.info) ? doc.info : {};
  const globalSecurity = securityOf(doc.security) ?? [];
  const operations: SpecOperation[] = [];
  const paths = isRecord(doc.paths) ? doc.paths : {};
  for (const [p, rawItem] of Object.entries(paths)) {
    const item = deref(doc, rawItem);
    if (!isRecord(item)) continue;
    for (const method of OPERATION_METHODS) {
      const op = item[method];
      if (!isRecord(op)) continue;
      const params = mergedParameters(item, op, doc);
      const pointer = `#/paths/${escapePointer(p)}/${method}`;
      operations.push({
        id: str(op.operationId) ?? `${method}${p.replace(/[^A-Za-z0-9]+(.)?/g, (_w, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
        method: method.toUpperCase(),
        path: p,
        tags: Array.isArray(op.tags) ? op.tags.filter((t): t is string => typeof t === 'string') : [],
        summary: str(op.summary),
        description: str(op.description),
        parameters: params.map((raw) => parameterOf(raw, doc, spec.dialect)).filter((x): x is SpecParameter => x !== undefined),
        body: bodyOf(op, params, doc, spec.dialect),
        responses: responsesOf(op, doc, spec.dialect),
        security: securityOf(op.security) ?? globalSecurity,
        pointer,
      });
    }
  }
  return {
    dialect: spec.dialect,
    title: str(info.title) ?? 'API',
    version: str(info.version) ?? '',
    description: str(info.description),
    servers: serversOf(doc, spec.dialect),
    tags: (Array.isArray(doc.tags) ? doc.tags : [])
      .filter(isRecord)
      .flatMap((t) => (typeof t.name === 'string' ? [{ name: t.name, description: str(t.description) }] : [])),
    securitySchemes: schemesOf(doc, spec.dialect),
    operations,
    root: doc,
  };
}
