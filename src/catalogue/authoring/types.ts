// What the authoring logic (completions, hover, diagnostics, definitions) takes and gives, in
// plain positions: a cell's text, 0-based lines of the cell's own text (-1 = its fence line, which
// the editor hides) and 0-based columns. The editor adapts these to VS Code; `check` to file lines.
import type { CellResult } from '../../notebook/api';
import type { ModelOffer } from '../offers';
import type { SpecState } from '../specCatalogue';

export interface CellInput {
  /** Its index in the notebook. */
  index: number;
  language: string;
  value: string;
  attributes: Readonly<Record<string, string>>;
}

export interface Position {
  line: number;
  col: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export interface TextEdit {
  range: Range;
  newText: string;
}

export type CompletionKind = 'method' | 'path' | 'header' | 'value' | 'field' | 'variable' | 'cell' | 'subject' | 'operator' | 'verb' | 'channel' | 'model';

export interface Completion {
  label: string;
  kind: CompletionKind;
  detail?: string;
  documentation?: string;
  /** Replaces `range` (the word being typed). Defaults to the label. */
  insertText?: string;
  range: Range;
  /** Orders the list (lower first); else by label. */
  sortText?: string;
}

export interface Hover {
  range: Range;
  /** Markdown lines. */
  lines: string[];
}

export type Severity = 'error' | 'warning' | 'information';

export interface QuickFix {
  title: string;
  /** The cell the edit is in (another cell for "define it in the vars cell"). */
  cellIndex: number;
  edit: TextEdit;
}

export interface Diagnostic {
  range: Range;
  severity: Severity;
  message: string;
  /** Stable name of the rule (for --json and tests). */
  code: string;
  fixes?: QuickFix[];
}

export interface Definition {
  cellIndex: number;
  range: Range;
}

export interface VariableDef {
  value: string;
  cellIndex: number;
  line: number;
  /** The vars cell's env= (undefined: every environment). */
  env?: string;
}

export interface NamedCell {
  cellIndex: number;
  language: string;
}

/**
 * What a cell is written against: the notebook's variables and named cells, their last results,
 * and what the connection offers. Built once per notebook change (see notebookContext), read per keystroke.
 */
export interface AuthoringContext {
  /** Every variable a vars cell defines (the active environment's value first). */
  variables: ReadonlyMap<string, VariableDef>;
  /** Variables given from outside (--var, data rows): defined, but in no cell. */
  extraVariables: ReadonlySet<string>;
  cells: ReadonlyMap<string, NamedCell>;
  /** The first vars cell without env= and where its text ends: where "define it" puts a new variable. */
  varsCell?: { index: number; end: Position };
  /** The last result of a named cell, if it has run. */
  result(name: string): CellResult | undefined;
  /** The models the cell's connection offers; undefined = not known (never a reason to warn). */
  models(service: string, connection: string | undefined): readonly ModelOffer[] | undefined;
  channels(connection: string | undefined): readonly string[] | undefined;
  /** The connection names of a service; undefined = not known. */
  connectionNames(service: string): readonly string[] | undefined;
  /** Masks secrets in a value before it is shown. */
  mask: (text: string) => string;
  /** The notebook's OpenAPI document: the vars line naming it, and what is known of it now. */
  spec?: { def: VariableDef; state: SpecState };
}
