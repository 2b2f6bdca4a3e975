// A local sandbox listens on ports that may change between starts and makes a new realtime app id
// each time: a recording names them instead (`{sandbox-llm}`, `{sandbox}/apps/{app}/`), so what was
// recorded against one start replays against the next, in the CLI and the editor alike.
import type { SandboxEndpoints } from '../../core/connections';
import type { UrlAlias } from '../../core/recording/requestKey';

/** The starts of URL of a running sandbox and the stable names a recording writes instead. */
export function sandboxAliases(sandbox: SandboxEndpoints | undefined): UrlAlias[] {
  if (!sandbox) return [];
  const { llm, maps, realtime } = sandbox;
  const realtimeOrigin = `${realtime.tls ? 'https' : 'http'}://${realtime.host.includes(':') ? `[${realtime.host}]` : realtime.host}:${realtime.port}`;
  const byOrigin = new Map<string, string[]>();
  for (const [origin, service] of [
    [new URL(llm.baseUrl).origin, 'llm'],
    [new URL(maps.baseUrl).origin, 'maps'],
    [realtimeOrigin, 'realtime'],
  ])
    byOrigin.set(origin, [...(byOrigin.get(origin) ?? []), service]);
  const name = (origin: string) => {
    const services = byOrigin.get(origin) ?? [];
    return services.length > 1 ? '{sandbox}' : `{sandbox-${services[0]}}`;
  };
  // The app's path first: it is the longer prefix.
  return [[`${realtimeOrigin}/apps/${realtime.appId}/`, `${name(realtimeOrigin)}/apps/{app}/`], ...[...byOrigin.keys()].map((o): UrlAlias => [o, name(o)])];
}
