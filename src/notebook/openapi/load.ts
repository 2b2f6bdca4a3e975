// An OpenAPI document (3.0, 3.1) or Swagger 2.0 definition, JSON or YAML, read into one bundled
// object: every `$ref` to another file is brought in by @apidevtools/swagger-parser (it knows
// relative files, cycles and JSON pointers) and left as a local `#/…` reference, so the document
// stays a tree (no cycles) that JSON Schema validators and samplers read as it is. Files are read
// ONLY through the file gate: inside the spec's folder, regular files, capped; never the network.
import SwaggerParser from '@apidevtools/swagger-parser';
import { load, YAMLException } from 'js-yaml';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileRefusal, readFileInside } from '../../core/fileGate';
import { ImportError } from '../import/types';

/** The largest file a spec may be or bring in by `$ref` (OpenAI's document is ~2 MB of YAML). */
export const MAX_SPEC_BYTES = 16 * 1024 * 1024;

export type SpecDialect = '2.0' | '3.0' | '3.1';

export interface LoadedSpec {
  dialect: SpecDialect;
  /** The bundled document: external `$ref`s brought in, internal ones (`#/components/…`) kept. */
  root: Record<string, unknown>;
}

/** A plain object (not an array, not null). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Which dialect `doc` is written in, or undefined when it is no OpenAPI/Swagger document. */
export function dialectOf(doc: unknown): SpecDialect | undefined {
  if (!isRecord(doc)) return undefined;
  if (typeof doc.swagger === 'string' && doc.swagger.startsWith('2.')) return '2.0';
  if (typeof doc.openapi === 'string' && /^3\.0\./.test(doc.openapi)) return '3.0';
  if (typeof doc.openapi === 'string' && /^3\.[1-9]\./.test(doc.openapi)) return '3.1';
  return undefined;
}

/** True when `text` reads as an OpenAPI or Swagger document (by content: an `openapi:`/`swagger:` key at the top). */
export function looksLikeOpenApi(text: string): boolean {
  const head = text.slice(0, 4096);
  return /^\s*["']?(openapi|swagger)["']?\s*:\s*["']?[23]\./m.test(head);
}

/** The text parsed (YAML is a superset of JSON); a syntax error names the line. */
export function parseSpecText(text: string, source: string): unknown {
  try {
    return load(text);
  } catch (e) {
    if (e instanceof YAMLException) {
      const line = (e.mark?.line ?? 0) + 1;
      throw new ImportError(source, `line ${line}`, `not readable as YAML or JSON (${e.reason ?? 'syntax error'}): fix the document there`);
    }
    throw e;
  }
}

const escapeToken = (t: string) => t.replace(/~/g, '~0').replace(/\//g, '~1');

interface Place {
  key: string;
  parent?: Place;
}

const keysTo = (p: Place | undefined): string[] => (p ? [...keysTo(p.parent), p.key] : []);

/** Every `$ref` of the document and where it is (walked without recursion: documents nest deep). */
function referencesOf(doc: unknown): Array<{ ref: string; at: () => string[] }> {
  const out: Array<{ ref: string; at: () => string[] }> = [];
  const stack: Array<{ node: object; place?: Place }> = typeof doc === 'object' && doc !== null ? [{ node: doc }] : [];
  while (stack.length) {
    const { node, place } = stack.pop()!;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && !Array.isArray(node)) out.push({ ref, at: () => keysTo(place) });
    for (const key in node) {
      const v = (node as Record<string, unknown>)[key];
      if (typeof v === 'object' && v !== null) stack.push({ node: v, place: { key, parent: place } });
    }
  }
  return out;
}

/** A local reference (`#/components/schemas/Pet`) names something in the document. */
function pointsSomewhere(doc: Record<string, unknown>, ref: string): boolean {
  let at: unknown = doc;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isRecord(at) && !Array.isArray(at)) return false;
    if (!Object.prototype.hasOwnProperty.call(at, key)) return false;
    at = (at as Record<string, unknown>)[key];
  }
  return true;
}

/** A `$ref` resolver's file as a path (the parser hands over plain paths or file:// URLs). */
function pathOf(url: string): string {
  return url.startsWith('file:') ? fileURLToPath(url) : url;
}

interface RefError extends Error {
  source?: string;
  path?: string[];
  targetRef?: string;
}

/** The parser's error as a sentence naming the reference or the file, and what to do. */
function refProblem(e: RefError, source: string, folder: string): ImportError {
  const inFile = e.source ? path.relative(folder, pathOf(e.source.replace(/#.*$/, ''))) || path.basename(source) : path.basename(source);
  const at = e.path?.length ? `#/${e.path.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}` : undefined;
  if (e.name === 'MissingPointerError')
    return new ImportError(source, at ? `${inFile} ${at}` : inFile, `${e.message.replace(/\.$/, '')}: fix the $ref or add what it points to`);
  // A refusal of the gate (outside the folder, too large, missing) comes wrapped in a ResolverError.
  return new ImportError(source, at ? `${inFile} ${at}` : inFile, `a $ref could not be read: ${e.message.replace(/^Error reading file /, 'file ')}`);
}

/**
 * The document at `file` (its text already read as `text`), with its `$ref`s to other files
 * resolved through the file gate (only files in the spec's folder or below). Throws ImportError:
 * not an OpenAPI document, a syntax error (its line), a broken `$ref` (its pointer).
 */
export async function loadSpec(text: string, file: string): Promise<LoadedSpec> {
  const source = file;
  const parsed = parseSpecText(text, source);
  const dialect = dialectOf(parsed);
  if (!dialect || !isRecord(parsed))
    throw new ImportError(source, 'line 1', 'not an OpenAPI document: it needs "openapi: 3.0.x" or "3.1.x", or "swagger: 2.0", at the top');
  // A document whose `$ref`s all point into itself has nothing to bring in: the parser's bundling
  // (a third of the time of OpenAI's document) is skipped, its references checked here instead.
  const refs = referencesOf(parsed);
  if (refs.every((r) => r.ref.startsWith('#'))) {
    const broken = refs.find((r) => !pointsSomewhere(parsed, r.ref));
    if (broken)
      throw new ImportError(
        source,
        `${path.basename(source)} #/${broken.at().map(escapeToken).join('/')}`,
        `Missing $ref pointer "${broken.ref}": fix the $ref or add what it points to`,
      );
    return { dialect, root: parsed };
  }
  const folder = path.dirname(path.resolve(file));
  // The parser wraps a resolver's error in its own message ("Error reading file …"): the gate's reason is kept here.
  let refusal: string | undefined;
  const gate = {
    order: 1,
    canRead: true,
    read: async (f: { url: string }): Promise<Buffer> => {
      const wanted = pathOf(f.url);
      try {
        return await readFileInside(path.relative(folder, wanted), {
          folder,
          folderName: "the spec's folder",
          use: 'read by a $ref',
          example: './schemas.yaml',
          maxBytes: MAX_SPEC_BYTES,
        });
      } catch (e) {
        if (e instanceof FileRefusal) refusal = `${path.relative(folder, wanted) || wanted}: ${e.message}`;
        throw e;
      }
    },
  };
  try {
    const options: SwaggerParser.Options = { resolve: { file: false, http: false, gate } };
    const bundled = await SwaggerParser.bundle(path.resolve(file), parsed as Parameters<typeof SwaggerParser.bundle>[1] & object, options);
    return { dialect, root: bundled as unknown as Record<string, unknown> };
  } catch (e) {
    if (e instanceof ImportError) throw e;
    if (refusal !== undefined) throw new ImportError(source, 'a $ref', refusal);
    if (e instanceof Error) throw refProblem(e, source, folder);
    throw e;
  }
}
