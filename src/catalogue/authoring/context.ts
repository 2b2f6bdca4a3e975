// Builds an AuthoringContext from a notebook's cells: the vars cells' variables (with where each is
// defined, for go-to-definition and "define it"), the named cells, and the caller's live sources.
import { analyseCell, SPEC_VARIABLE, type CellResult, type NotebookCellData } from '../../notebook/api';
import type { ModelOffer } from '../offers';
import type { SpecState } from '../specCatalogue';
import type { AuthoringContext, NamedCell, VariableDef } from './types';

export interface ContextSources {
  /** The active environment: its vars cells' values win. */
  environment?: string;
  extraVariables?: Iterable<string>;
  result?(name: string): CellResult | undefined;
  models?(service: string, connection: string | undefined): readonly ModelOffer[] | undefined;
  channels?(connection: string | undefined): readonly string[] | undefined;
  connectionNames?(service: string): readonly string[] | undefined;
  mask?: (text: string) => string;
  /** The OpenAPI document a vars cell names (`spec = ./openapi.yaml`), as known now (never waits). */
  spec?(ref: string): SpecState;
}

export function notebookContext(
  cells: readonly Pick<NotebookCellData, 'kind' | 'language' | 'value' | 'metadata'>[],
  sources: ContextSources = {},
): AuthoringContext {
  const variables = new Map<string, VariableDef>();
  const named = new Map<string, NamedCell>();
  let varsCell: AuthoringContext['varsCell'];
  const notebookChannels = new Set<string>();
  const scriptVariables = new Set<string>();
  cells.forEach((cell, cellIndex) => {
    if (cell.kind !== 'code') return;
    for (const name of scriptSetNames(cell.value)) scriptVariables.add(name);
    const attributes = cell.metadata.attributes ?? {};
    if (cell.language === 'realtime') {
      // Channels other cells of this notebook name are offered too (the connection may list none yet).
      const m = /^\s*(?:PUBLISH|LISTEN|CHANNEL|USERS)\s+([^\s{}]+)/im.exec(cell.value);
      if (m) notebookChannels.add(m[1]);
    }
    if (cell.language !== 'vars') {
      if (attributes.name !== undefined && !named.has(attributes.name)) named.set(attributes.name, { cellIndex, language: cell.language });
      return;
    }
    const env = attributes.env;
    if (env === undefined && !varsCell) {
      const lines = cell.value.split(/\r\n|\r|\n/);
      varsCell = { index: cellIndex, end: { line: lines.length - 1, col: lines[lines.length - 1].length } };
    }
    // Fence line 0: entry lines are then 1-based lines of the cell's own text.
    const spec = analyseCell({ ...cell, kind: 'code' }, 0).spec;
    if (spec?.kind !== 'vars') return;
    for (const e of spec.entries) {
      const known = variables.get(e.name);
      // The active environment's value wins, as when the cell runs; else the first definition.
      const wins = !known || (env !== undefined && env === sources.environment && known.env !== env);
      if (wins) variables.set(e.name, { value: e.value, cellIndex, line: e.line - 1, env });
    }
  });
  const specDef = variables.get(SPEC_VARIABLE);
  return {
    spec: specDef && sources.spec ? { def: specDef, state: sources.spec(specDef.value) } : undefined,
    variables,
    extraVariables: new Set([...(sources.extraVariables ?? []), ...scriptVariables]),
    cells: named,
    varsCell,
    result: (name) => sources.result?.(name),
    models: (service, connection) => sources.models?.(service, connection),
    channels: (connection) => {
      const listed = sources.channels?.(connection) ?? [];
      return [...new Set([...listed, ...notebookChannels])];
    },
    connectionNames: (service) => sources.connectionNames?.(service),
    mask: sources.mask ?? ((t) => t),
  };
}

/**
 * Names a cell's scripts set with a literal name (`pm.environment.set("token", …)`,
 * `client.global.set('id', …)`): defined for the cells that use them, as when the notebook runs. A
 * name computed at run time cannot be known here; its uses stay flagged.
 */
const SCRIPT_SET =
  /\b(?:pm\s*\.\s*(?:environment|variables|collectionVariables|globals)|client\s*\.\s*global|request\s*\.\s*variables)\s*\.\s*set\s*\(\s*(['"`])([^'"`\\\n]+)\1/g;

function scriptSetNames(text: string): string[] {
  if (!text.includes('.set')) return [];
  return [...text.matchAll(SCRIPT_SET)].map((m) => m[2]);
}
