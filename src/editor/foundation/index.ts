// The foundation's code that activation itself never runs, in a bundle of its own (dist/foundation.js,
// esbuild.mjs), required the first time it is needed (src/extension.ts):
// - the connection and key commands (Connect… with its presets, the connection check, Diagnose,
//   Export for CI), when one of them first runs;
// - the HTTP client factory (undici's wrapper, retries, rate limits, the history recorder), when
//   the first request is made;
// - the maps session tally with its SKU price table, when the first maps request is counted.
// Together ~55 KB that activation loaded and evaluated on every window before (issue 39).
export { connectionCommands } from '../connectionCommands';
export { HttpClientFactory } from '../../features/httpClients';
export { priceTable, SessionCosts } from '../../features/maps/costs';
