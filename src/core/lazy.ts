// The network libraries are bundled into their own files (see esbuild.mjs) and loaded on first use,
// so activating the extension does not pay for parsing them.
import type * as Undici from 'undici';
import type * as Ws from 'ws';

let undiciModule: typeof Undici | undefined;
let wsModule: typeof Ws | undefined;

export function undici(): typeof Undici {
  return (undiciModule ??= require('undici') as typeof Undici);
}

export function ws(): typeof Ws {
  return (wsModule ??= require('ws') as typeof Ws);
}
