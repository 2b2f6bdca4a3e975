// The one place the editor's on-demand bundles are loaded. Each service module (src/editor/<name>/
// index.ts) is built into a bundle of its own, dist/<name>.js beside dist/extension.js (esbuild.mjs),
// and required here the first time it is needed, so activating the extension loads only the
// foundation. The types are the modules' own (not a hand-written shape), and Node's module cache
// makes every caller, in whichever bundle, get the same instance: a class exported by a bundle
// and read through `bundle()` is the class its objects were made with, so `instanceof` holds.
import type * as FoundationBundle from './foundation/index';
import type * as MapsBundle from './maps/index';
import type * as NotebookBundle from './notebook/index';
import type * as RealtimeBundle from './realtime/index';
import type { ServiceModule } from './serviceModule';

export interface Bundles {
  /**
   * Typed by the contract it meets rather than its own module type: the playground in this bundle
   * loads the others through here, and its own type would make an import circle.
   */
  llm: ServiceModule;
  maps: typeof MapsBundle;
  realtime: typeof RealtimeBundle;
  /** The API notebook, with the history's commands and notebook tests (they run the same engine). */
  notebook: typeof NotebookBundle;
  /** The connection commands, the HTTP client factory and the maps tally: not needed to activate. */
  foundation: typeof FoundationBundle;
}
export type BundleName = keyof Bundles;

// Literal paths: esbuild.mjs marks exactly these as external, so each stays a file of its own.
/* eslint-disable @typescript-eslint/no-require-imports -- required on first use, not at activation */
const LOADERS: { [K in BundleName]: () => Bundles[K] } = {
  llm: () => require('./llm.js') as Bundles['llm'],
  maps: () => require('./maps.js') as Bundles['maps'],
  realtime: () => require('./realtime.js') as Bundles['realtime'],
  notebook: () => require('./notebook.js') as Bundles['notebook'],
  foundation: () => require('./foundation.js') as Bundles['foundation'],
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** The bundle's module, loaded now if it was not yet. */
export function bundle<K extends BundleName>(name: K): Bundles[K] {
  return LOADERS[name]();
}
