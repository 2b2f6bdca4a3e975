// ONE credential resolver for every front end: a connection's key is a value (a stored key, an
// environment variable), the output of a token command, or an Entra ID token; tokens are cached
// until shortly before they expire, and every value it hands out is known to the redactor first.
// The front ends differ only in where a stored key lives and how Entra signs in (the editor:
// VS Code's "microsoft" provider; the CLI: @azure/identity), which they pass in.
import { systemClock, type Clock } from '../clock';
import type { Redactor } from '../redact';
import { TokenCache, type Token } from './tokenCache';
import { runTokenCommand, type TokenCommandOptions } from './tokenCommand';

/** Where a connection's bearer token comes from, when not from a key (connections.ts: `credential`). */
export type TokenSource = { kind: 'tokenCommand'; command: string } | { kind: 'entra'; scope: string };

/** The scope Azure OpenAI and AI Foundry accept Entra ID tokens for. */
export const COGNITIVE_SERVICES_SCOPE = 'https://cognitiveservices.azure.com/.default';

/** Signs in to Entra ID and returns a token for `scope` (renewed by asking again). */
export type EntraTokenProvider = (scope: string, signal?: AbortSignal) => Promise<Token>;

export interface CredentialResolverOptions {
  redactor: Redactor;
  clock?: Pick<Clock, 'now'>;
  /** How a token command runs (default: in the shell, with this environment and folder). */
  runCommand?: (command: string, signal?: AbortSignal) => Promise<Token>;
  commandOptions?: Omit<TokenCommandOptions, 'signal'>;
  /** How Entra ID tokens are obtained; absent = a connection that asks for Entra fails with what to do. */
  entra?: EntraTokenProvider;
}

/** What a source is called in messages: never the token, and the command as the user wrote it. */
export function describeTokenSource(source: TokenSource): string {
  return source.kind === 'tokenCommand' ? `the token command \`${source.command}\`` : `Entra ID sign-in (scope ${source.scope})`;
}

export class CredentialResolver {
  /** One cache per source, not per connection: connections sharing a command run it once. */
  private readonly caches = new Map<string, TokenCache>();

  constructor(private readonly opts: CredentialResolverOptions) {}

  /** A key the front end read (SecretStorage, an environment variable): known to the redactor, handed back. */
  value(key: string | undefined): string | undefined {
    this.opts.redactor.addSecret(key);
    return key;
  }

  /** The bearer token of `source`: cached, or fetched (the command run, the sign-in asked) now. */
  token(source: TokenSource, signal?: AbortSignal): Promise<string> {
    return this.cache(source).get(signal);
  }

  /** The token `source` holds now without fetching one (what a connection shows). */
  current(source: TokenSource): Token | undefined {
    return this.caches.get(cacheKey(source))?.current;
  }

  /** Forgets the token of `source` (sign-out; a refused token), or every token. */
  clear(source?: TokenSource): void {
    if (!source) for (const c of this.caches.values()) c.clear();
    else this.caches.get(cacheKey(source))?.clear();
  }

  /**
   * The server refused `value` (401): it is forgotten if it is still the token of `source`, so the
   * next request fetches another (a token revoked, or rotated before its stated expiry). True: a
   * request may be sent once more, since the token it gets now is not the refused one.
   */
  refused(source: TokenSource, value: string): boolean {
    const cache = this.caches.get(cacheKey(source));
    if (cache?.current?.value === value) cache.clear();
    return true;
  }

  /** Forgets every Entra ID token (the editor's sign-out), keeping command tokens. */
  clearEntra(): void {
    for (const [key, cache] of this.caches) if (key.startsWith('entra:')) cache.clear();
  }

  private cache(source: TokenSource): TokenCache {
    const key = cacheKey(source);
    let cache = this.caches.get(key);
    if (!cache) {
      cache = new TokenCache(
        (signal) => this.fetch(source, signal),
        this.opts.clock ?? systemClock,
        (t) => this.opts.redactor.addSecret(t.value),
      );
      this.caches.set(key, cache);
    }
    return cache;
  }

  private fetch(source: TokenSource, signal?: AbortSignal): Promise<Token> {
    if (source.kind === 'tokenCommand') {
      const run = this.opts.runCommand ?? ((command, s) => runTokenCommand(command, { ...this.opts.commandOptions, signal: s }));
      return run(source.command, signal);
    }
    if (!this.opts.entra) return Promise.reject(new Error('Entra ID sign-in is not available here'));
    return this.opts.entra(source.scope, signal);
  }
}

function cacheKey(source: TokenSource): string {
  return source.kind === 'tokenCommand' ? `command:${source.command}` : `entra:${source.scope}`;
}
