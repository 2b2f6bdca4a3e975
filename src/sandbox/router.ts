// The one routing style of the sandbox services: method + path pattern -> handler. Patterns are
// written the way the services document their paths, with `{name}` for one segment and
// `{name...}` for the rest of the path (Google's geocode address may contain slashes):
//   /v1/models/{model}   /apps/{appId}/channels/{channel}/users   /v4/geocode/address/{address...}
// Literal segments may hold a colon (`/v1/places:searchText`), so `:name` is not a parameter.
// Segments are percent-decoded once, before matching, and a malformed escape is a client error
// (400), never an exception out of a request or upgrade handler.

export type PathParams = Record<string, string>;

export type RouteMatch<H> =
  | { kind: 'found'; handler: H; params: PathParams }
  /** A segment has malformed percent-encoding (`%zz`, a lone `%E0`): answer 400. */
  | { kind: 'bad-path' }
  /** The path exists with other methods. */
  | { kind: 'wrong-method'; allowed: string[] }
  | { kind: 'not-found' };

type Segment = { literal: string } | { param: string; rest: boolean };

interface Route<H> {
  method: string;
  segments: Segment[];
  handler: H;
}

function parsePattern(pattern: string): Segment[] {
  if (!pattern.startsWith('/')) throw new Error(`route pattern must start with "/": ${pattern}`);
  const parts = pattern.slice(1).split('/');
  return parts.map((part, i) => {
    const m = /^\{(\w+)(\.\.\.)?\}$/.exec(part);
    if (!m) return { literal: part };
    if (m[2] && i !== parts.length - 1) throw new Error(`a {name...} parameter must come last: ${pattern}`);
    return { param: m[1], rest: m[2] !== undefined };
  });
}

/**
 * The request target as a URL. The target is taken as a path even when it starts with `//`
 * (which `new URL(target, base)` would read as a host); an absolute-form target keeps its path.
 * Undefined when it is no URL at all.
 */
export function requestUrl(target: string | undefined): URL | undefined {
  const raw = target ?? '/';
  try {
    return raw.startsWith('/') ? new URL(`http://sandbox${raw}`) : new URL(raw);
  } catch {
    return undefined;
  }
}

/** The decoded segments of a path (`/a/b%2Fc` -> `['a', 'b/c']`), or undefined when an escape is malformed. */
export function pathSegments(pathname: string): string[] | undefined {
  const out: string[] = [];
  for (const raw of pathname.replace(/^\//, '').split('/')) {
    try {
      out.push(decodeURIComponent(raw));
    } catch {
      return undefined;
    }
  }
  return out;
}

export class Router<H> {
  private readonly routes: Route<H>[] = [];

  add(method: string, pattern: string, handler: H): this {
    this.routes.push({ method: method.toUpperCase(), segments: parsePattern(pattern), handler });
    return this;
  }

  /** Matches a raw (still percent-encoded) pathname. */
  match(method: string, pathname: string): RouteMatch<H> {
    const segments = pathSegments(pathname);
    return segments ? this.matchSegments(method, segments) : { kind: 'bad-path' };
  }

  /** Matches already decoded segments (for services that rewrite a path prefix first). */
  matchSegments(method: string, segments: readonly string[]): RouteMatch<H> {
    const allowed: string[] = [];
    for (const route of this.routes) {
      const params = bind(route.segments, segments);
      if (!params) continue;
      if (route.method === method.toUpperCase()) return { kind: 'found', handler: route.handler, params };
      if (!allowed.includes(route.method)) allowed.push(route.method);
    }
    return allowed.length ? { kind: 'wrong-method', allowed } : { kind: 'not-found' };
  }
}

function bind(pattern: readonly Segment[], segments: readonly string[]): PathParams | undefined {
  const params: PathParams = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i];
    const s = segments[i];
    if (s === undefined) return undefined;
    if ('literal' in p) {
      if (p.literal !== s) return undefined;
    } else if (p.rest) {
      const rest = segments.slice(i).join('/');
      if (rest === '') return undefined;
      params[p.param] = rest;
      return params;
    } else {
      if (s === '') return undefined;
      params[p.param] = s;
    }
  }
  return segments.length === pattern.length ? params : undefined;
}
