// One OpenAPI operation → the request it stands for: URL (`{{baseUrl}}/pets/{{petId}}?limit=2`),
// required query parameters and headers with their examples, credentials by reference
// (`{{$secret <scheme>}}`, never a key), a body from the operation's example or sampled from its
// schema (openapi-sampler: required fields, enums, formats), and the checks the answer must pass.
import { sample } from 'openapi-sampler';
import { type SecurityScheme, type SpecModel, type SpecOperation, type SpecParameter } from '../openapi/model';
import { isRecord } from '../openapi/load';

export interface OperationRequest {
  method: string;
  /** Path and query after `{{baseUrl}}`: `/pets/{{petId}}?limit=2`. */
  target: string;
  headers: Array<[string, string]>;
  body?: string;
  checks: string[];
  /** Path parameters and their example values, for the vars cell. */
  pathVars: Array<[string, string]>;
  /** Why no body could be written (a multipart or binary body), when so. */
  bodyProblem?: string;
}

/** A parameter's example, default or a sample of its schema, as text. */
function exampleText(p: SpecParameter, model: SpecModel): string {
  let v = p.example;
  if (v === undefined && p.schema) v = sampleOf(p.schema, model);
  if (v === undefined || v === null) return '';
  return typeof v === 'string' ? v : Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(',') : JSON.stringify(v);
}

function sampleOf(schema: Record<string, unknown>, model: SpecModel): unknown {
  try {
    return sample(schema, { skipReadOnly: true, quiet: true, maxSampleDepth: 8 }, model.root);
  } catch {
    return undefined;
  }
}

/** `{{$secret name}}` for a scheme: the name a secret is stored under (letters, digits, _ . -). */
export function secretReference(scheme: string): string {
  return `{{$secret ${scheme.replace(/[^\w.-]+/g, '_')}}}`;
}

/** Where one security scheme puts its credential in a request. */
function credential(name: string, s: SecurityScheme): { header?: [string, string]; query?: [string, string] } {
  const ref = secretReference(name);
  if (s.type === 'apiKey' && s.in === 'query') return { query: [s.name ?? name, ref] };
  if (s.type === 'apiKey' && s.in === 'cookie') return { header: ['Cookie', `${s.name ?? name}=${ref}`] };
  if (s.type === 'apiKey') return { header: [s.name ?? name, ref] };
  if (s.type === 'http' && s.scheme === 'basic') return { header: ['Authorization', `Basic ${ref}`] };
  return { header: ['Authorization', `Bearer ${ref}`] };
}

/** The first 2xx status the operation documents ("200", "201"; "2XX" counts as 200). */
export function firstSuccess(op: SpecOperation): string | undefined {
  const s = Object.keys(op.responses)
    .filter((k) => /^2(\d\d|XX)$/i.test(k))
    .sort()[0];
  return s && /X/i.test(s) ? '200' : s;
}

function bodyText(op: SpecOperation, model: SpecModel): { text?: string; problem?: string } {
  const b = op.body;
  if (!b) return {};
  const value = b.example ?? (b.schema ? sampleOf(b.schema, model) : undefined);
  if (/json/i.test(b.contentType)) return { text: JSON.stringify(value ?? {}, null, 2) };
  if (/x-www-form-urlencoded/i.test(b.contentType) && isRecord(value))
    return { text: new URLSearchParams(Object.entries(value).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString() };
  if (/^text\//i.test(b.contentType) && typeof value === 'string') return { text: value };
  return { problem: `its body is ${b.contentType}, which the importer does not write: add the body to the cell by hand (see ${op.pointer}/requestBody)` };
}

export function operationRequest(op: SpecOperation, model: SpecModel): OperationRequest {
  const pathVars: Array<[string, string]> = [];
  const target = op.path.replace(/\{([^}]+)\}/g, (_w, name: string) => {
    const p = op.parameters.find((x) => x.in === 'path' && x.name === name);
    const variable = name.replace(/[^\w-]+/g, '_');
    pathVars.push([variable, p ? exampleText(p, model) : '']);
    return `{{${variable}}}`;
  });
  const query: Array<[string, string]> = [];
  const headers: Array<[string, string]> = [];
  for (const p of op.parameters) {
    if (!p.required) continue;
    if (p.in === 'query') query.push([p.name, exampleText(p, model)]);
    else if (p.in === 'header') headers.push([p.name, exampleText(p, model)]);
  }
  // The first alternative the document lists; each scheme of it by reference.
  for (const scheme of op.security[0] ?? []) {
    const s = model.securitySchemes[scheme];
    if (!s) continue;
    const c = credential(scheme, s);
    if (c.header) headers.push(c.header);
    if (c.query) query.push(c.query);
  }
  const body = bodyText(op, model);
  if (body.text !== undefined) headers.push(['Content-Type', op.body!.contentType]);
  const q = query.map(([k, v]) => `${encodeURIComponent(k)}=${v.startsWith('{{') ? v : encodeURIComponent(v)}`).join('&');
  const ok = firstSuccess(op);
  const checks = ok ? [`?? status == ${ok}`] : [];
  if (ok && op.responses[ok]?.schema) checks.push('?? json matches spec');
  return {
    method: op.method,
    target: q ? `${target}?${q}` : target,
    headers,
    ...(body.text !== undefined ? { body: body.text } : {}),
    checks,
    pathVars,
    ...(body.problem ? { bodyProblem: body.problem } : {}),
  };
}
