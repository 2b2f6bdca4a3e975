// The one place that makes undici dispatchers: every HTTP request of every client goes through
// defaultDispatcher() unless a test hands a client its own. The front end (CLI, editor) says once
// which proxies and certificate authorities to use (configureNetwork); a change replaces the pool.
import type { Dispatcher } from 'undici';
import { undici } from '../lazy';
import { describeFailure } from './failures';
import { DIRECT, proxyAuthorization, proxyFor, type NetSettings } from './settings';

interface NetworkState {
  settings: NetSettings;
  /** Settings still to be read (configureNetworkOnFirstUse): read by the first request, then dropped. */
  pending?: () => NetSettings;
  pool?: { dispatcher: Dispatcher; all: Dispatcher[] };
}

/**
 * Kept on globalThis: the editor's service modules are bundles of their own, each with its own copy
 * of this file, and a proxy set once (at activation, or when the http.* settings change) must reach
 * the requests of all of them.
 */
const STATE_KEY = Symbol.for('api-workbench.network');
function state(): NetworkState {
  const holder = globalThis as { [STATE_KEY]?: NetworkState };
  return (holder[STATE_KEY] ??= { settings: DIRECT });
}

/** Use `next` for every request and socket from now on; the previous pool finishes what it has and closes. */
export function configureNetwork(next: NetSettings): void {
  const s = state();
  const old = s.pool;
  s.settings = next;
  s.pending = undefined;
  s.pool = undefined;
  if (old) for (const d of old.all) void d.close().catch(() => undefined);
}

/**
 * As configureNetwork, with settings read when a request first needs them. The editor reads its
 * http.* settings this way: validating them and loading certificate files cost activation several
 * milliseconds in every window, most of which never send a request (issue 39).
 */
export function configureNetworkOnFirstUse(read: () => NetSettings): void {
  configureNetwork(DIRECT);
  state().pending = read;
}

/** The state with any pending settings read. */
function settled(): NetworkState {
  const s = state();
  const read = s.pending;
  if (read) {
    s.pending = undefined;
    s.settings = read();
  }
  return s;
}

export function networkSettings(): NetSettings {
  return settled().settings;
}

/**
 * The connection pool of every client without a dispatcher of its own. It is ours, not undici's
 * global one: that global is shared with Node's built-in fetch (and whatever else sets it), so its
 * settings and its bugs would be someone else's. Requests go direct or through a proxy per target
 * (proxyFor), one ProxyAgent per proxy.
 */
export function defaultDispatcher(): Dispatcher {
  const s = settled();
  return (s.pool ??= makePool(s.settings)).dispatcher;
}

function makePool(s: NetSettings): { dispatcher: Dispatcher; all: Dispatcher[] } {
  const { Agent, ProxyAgent } = undici();
  const tlsOptions = s.ca ? { ca: s.ca } : {};
  const direct = new Agent({ connect: tlsOptions });
  const all: Dispatcher[] = [direct];
  const viaProxy = new Map<string, Dispatcher>();
  const agentFor = (proxy: URL): Dispatcher => {
    let agent = viaProxy.get(proxy.href);
    if (!agent) {
      const auth = proxyAuthorization(proxy, s);
      agent = new ProxyAgent({
        uri: proxy.href,
        // Our header wins over undici's own reading of credentials in the URI (the editor's http.proxyAuthorization).
        ...(auth ? { token: auth } : {}),
        // Plain http is forwarded (absolute URI), as proxies expect: many allow CONNECT only to 443.
        proxyTunnel: false,
        requestTls: tlsOptions,
        proxyTls: { ...tlsOptions, rejectUnauthorized: s.proxyStrictSSL },
      });
      viaProxy.set(proxy.href, agent);
      all.push(agent);
    }
    return agent;
  };
  const dispatcher = direct.compose((dispatch) => (opts, handler) => {
    const proxy = opts.origin === undefined ? undefined : proxyFor(new URL(String(opts.origin)), s);
    return proxy ? agentFor(proxy).dispatch(opts, handler) : dispatch(opts, handler);
  });
  return { dispatcher, all };
}

/**
 * `e`, a failed request to `target`, with a proxy's or certificate's part in words where it had one.
 * The cause chain is searched: fetch() wraps the proxy's refusal two levels deep.
 */
export function explainFailure(e: unknown, target: URL): unknown {
  const proxy = proxyFor(target, networkSettings());
  let current: unknown = e;
  for (let depth = 0; current !== undefined && current !== null && depth < 4; depth++) {
    const described = describeFailure(current, target, proxy);
    if (described) return described;
    current = (current as { cause?: unknown }).cause;
  }
  return e;
}
