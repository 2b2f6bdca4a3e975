// The part of the engine's public face (api.ts re-exports all of it) that recording and replaying
// needs: what `api-workbench run --record / --replay` loads, and only then. Kept out of runApi.ts:
// a recording's request keys hash with node:crypto and its listens keep AsyncLocalStorage, which
// every run paid for at start without recording anything (issue 39). Keep changes additive.
export { Cassette, type CassetteMode, type CassetteStorage } from './cassette/cassette';
export type { UrlAlias } from '../core/recording/requestKey';
export { sandboxAliases } from './cassette/aliases';
