// What the maps commands share with the commands kept in files of their own (Route Matrix): the
// outcome a command returns, and the part of MapsCommands they call, so those files need not import
// commands.ts (which registers them).
import vscode from 'vscode';
import type { HttpConnection } from '../../core/connections';
import { validate } from '../../core/validate';
import type { MapsCallOptions, MapsResult as CallResult } from '../../services/maps/client';
import type { MapsClient } from '../../services/maps/client';
import type { MapsOperation } from '../../services/maps/fieldMasks';
import type { MapLine, MapMarker } from '../../services/maps/mapMessages';
import type { SkuOptions } from '../../services/maps/sku';
import type { MaskArgs } from '../../features/maps/commandArgs';
import type { MapsResult } from '../../features/maps/results';
import type * as z from 'zod/mini';
import type { MapRendered } from './mapPanel';
import type { MatrixPanel } from './matrixPanel';
import type { MapsInput } from './input';
import { ResultNode } from './tree';

/** What a command returns: for scripts and the in-editor tests. */
export interface CommandOutcome<T = unknown> {
  response: T;
  /** The raw JSON document of the response (kept; opened when `maps.openResponsesIn` is "document"). */
  document: vscode.Uri;
  results: MapsResult[];
  map?: MapRendered;
}

/** What a presenter makes of an answer: results kept in the tree, and what the map draws. */
export interface Presented {
  results: MapsResult[];
  title: string;
  extraMarkers?: MapMarker[];
  /** Drawn on the map, not kept as results (e.g. the matrix's origin → destination pairs). */
  extraLines?: MapLine[];
}

/** Arguments a script or test passes; anything else (a tree node, a URI) means "ask the user". */
export function argsOf<T>(schema: z.ZodMiniType<T>, arg: unknown): Partial<T> {
  if (arg === null || typeof arg !== 'object' || arg instanceof ResultNode || arg instanceof vscode.Uri) return {};
  const v = validate(schema, arg);
  return v.ok ? v.value : {};
}

/** The part of MapsCommands that commands in other files use. */
export interface MapsCommandHost {
  readonly matrixPanel: MatrixPanel;
  connection(): HttpConnection | undefined;
  run<T>(
    title: string,
    op: MapsOperation,
    maskArgs: MaskArgs,
    call: (client: MapsClient, opts: MapsCallOptions) => Promise<CallResult<T>>,
    present: (data: T) => Presented,
    retry: () => Promise<unknown>,
    billing?: { options?: SkuOptions; units?: number },
  ): Promise<CommandOutcome<T> | undefined>;
  readonly input: MapsInput;
}
