// The operations of the OpenAPI document a notebook names (`spec = ./openapi.yaml`), as catalogue
// Operations of service `http`: the same shape as the three services' operations, so a spec-aware
// http cell completes, hovers and is checked by the one authoring code. The editor and `check` ask
// synchronously (`get`: the state now, never waiting); a document not read yet, or changed since
// (its size or mtime), is read in the background through the file gate and `onDidLoad` says when.
import path from 'node:path';
import { errorText } from '../core/errors';
import { FileRefusal } from '../core/fileGate';
import { hasReference, ImportError, loadSpecFile, specFileVersion, specModel, type LoadedSpec, type SpecModel } from '../notebook/api';
import { jsonSchemaField, jsonSchemaFields } from './jsonSchemaFields';
import { HTTP_METHODS, type HttpMethod, type Operation, type OperationParameter } from './operations';
import type { FieldSpec } from './schemaFields';

export interface SpecCatalogue {
  /** As the notebook writes it: `./openapi.yaml`. */
  ref: string;
  title: string;
  /** The servers' URLs (their variables filled with defaults), without a trailing `/`. */
  servers: readonly string[];
  /** The operations a cell can send (GET, POST, PUT, PATCH, DELETE), in the document's order. */
  operations: readonly Operation[];
}

export type SpecState = { kind: 'ready'; spec: SpecCatalogue } | { kind: 'loading' } | { kind: 'failed'; message: string };

/** Read on first use: OpenAI's document has hundreds of bodies, a cell needs one. */
function lazy(read: () => readonly FieldSpec[]): () => readonly FieldSpec[] {
  let fields: readonly FieldSpec[] | undefined;
  return () => (fields ??= read());
}

/** A loaded document's operations in the catalogue's shape. */
export function specCatalogue(model: SpecModel, ref: string): SpecCatalogue {
  const root = model.root;
  const operations: Operation[] = [];
  for (const op of model.operations) {
    if (!(HTTP_METHODS as readonly string[]).includes(op.method)) continue;
    const body = op.body;
    const parameters = op.parameters.flatMap((p): OperationParameter[] =>
      p.in === 'cookie' ? [] : [{ ...jsonSchemaField(p.name, p.schema, root, p.required), in: p.in, ...(p.description ? { description: p.description } : {}) }],
    );
    operations.push({
      id: `spec.${op.id}`,
      service: 'http',
      method: op.method as HttpMethod,
      path: op.path,
      summary: op.summary ?? op.id,
      ...(op.description ? { description: op.description } : {}),
      ...(body?.schema && /json/i.test(body.contentType) ? { body: lazy(() => jsonSchemaFields(body.schema, root)) } : {}),
      ...(body?.required ? { bodyRequired: true } : {}),
      parameters,
    });
  }
  return { ref, title: model.title, servers: model.servers.map((s) => s.url), operations };
}

/** Why a spec could not be read, as the tail of a sentence that starts with its name. */
function failure(ref: string, e: unknown): string {
  if (e instanceof FileRefusal) return `the spec "${ref}" could not be read: ${e.message}`;
  if (e instanceof ImportError) return `the spec "${ref}" is not usable: ${e.where}: ${e.detail}`;
  return `the spec "${ref}" could not be read: ${errorText(e)}`;
}

export class SpecCatalogueCache {
  private readonly entries = new Map<string, { version: string; state: SpecState; done: Promise<SpecState> }>();
  private readonly converted = new WeakMap<LoadedSpec, SpecCatalogue>();

  /** `onDidLoad`: a document was read (or failed) after `get` had to answer without it. */
  constructor(private readonly onDidLoad?: (file: string) => void) {}

  /** The spec at `ref` (relative to `baseDir`, the notebook's folder) as it is known now. */
  get(ref: string, baseDir: string): SpecState {
    return this.entry(ref, baseDir).state;
  }

  /** The spec once read (for `check`, which has time to wait). */
  load(ref: string, baseDir: string): Promise<SpecState> {
    return this.entry(ref, baseDir).done;
  }

  private entry(ref: string, baseDir: string): { state: SpecState; done: Promise<SpecState> } {
    if (hasReference(ref)) {
      const state: SpecState = { kind: 'failed', message: `a variable cannot choose the spec file ("${ref}"): write its path out` };
      return { state, done: Promise.resolve(state) };
    }
    const file = path.resolve(baseDir, ref);
    const version = specFileVersion(file);
    const known = this.entries.get(file);
    if (known?.version === version) return known;
    // While a changed document is read again, the last one still answers.
    const entry = {
      version,
      state: known?.state.kind === 'ready' ? known.state : ({ kind: 'loading' } as SpecState),
      done: Promise.resolve<SpecState>({ kind: 'loading' }),
    };
    entry.done = loadSpecFile(ref, baseDir).then(
      (loaded): SpecState => {
        let spec = this.converted.get(loaded);
        if (!spec) {
          spec = specCatalogue(specModel(loaded), ref);
          this.converted.set(loaded, spec);
        }
        return { kind: 'ready', spec };
      },
      (e: unknown): SpecState => ({ kind: 'failed', message: failure(ref, e) }),
    );
    void entry.done.then((state) => {
      if (this.entries.get(file) !== entry) return;
      entry.state = state;
      this.onDidLoad?.(file);
    });
    this.entries.set(file, entry);
    return entry;
  }
}
