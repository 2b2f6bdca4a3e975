// The network libraries are bundled into their own files (see esbuild.mjs) and loaded on first use,
// so activating the extension does not pay for parsing them.
import type * as Undici from 'undici';
import type * as Ws from 'ws';

let undiciModule: typeof Undici | undefined;
let wsModule: typeof Ws | undefined;

export function undici(): typeof Undici {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at activation (esbuild.mjs keeps it out of the bundle)
  return (undiciModule ??= require('undici') as typeof Undici);
}

export function ws(): typeof Ws {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at activation
  return (wsModule ??= require('ws') as typeof Ws);
}
