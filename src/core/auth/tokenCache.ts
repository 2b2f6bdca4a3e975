// One token (from a token command or Entra ID) kept until shortly before it expires, then fetched
// again: every request of a run (or an editor session) shares one fetch, concurrent requests wait
// for the same one, and a token that says nothing of its expiry is kept until cleared.
import { systemClock, type Clock } from '../clock';

export interface Token {
  value: string;
  /** When it stops being accepted, ms since the epoch; undefined = not said (kept for the run). */
  expiresAt?: number;
}

/** A token is renewed this long before it expires (less for a short-lived one: half its life). */
export const RENEW_BEFORE_MS = 5 * 60_000;

export class TokenCache {
  private token: (Token & { fetchedAt: number }) | undefined;
  private pending: Promise<Token> | undefined;

  constructor(
    private readonly fetch: (signal?: AbortSignal) => Promise<Token>,
    private readonly clock: Pick<Clock, 'now'> = systemClock,
    /** Told of each new token before anyone uses it (the redactor learns it here). */
    private readonly onToken?: (token: Token) => void,
  ) {}

  /** The token, fetched when there is none yet or it is about to expire. */
  async get(signal?: AbortSignal): Promise<string> {
    if (this.token && this.fresh(this.token)) return this.token.value;
    if (!this.pending) {
      const started = this.clock.now();
      this.pending = this.fetch(signal).then(
        (t) => {
          this.onToken?.(t);
          this.token = { ...t, fetchedAt: started };
          this.pending = undefined;
          return t;
        },
        (e: unknown) => {
          this.pending = undefined;
          throw e;
        },
      );
    }
    return (await this.pending).value;
  }

  /** The token held now, if any (what a connection shows: signed in, until when). */
  get current(): Token | undefined {
    return this.token && { value: this.token.value, expiresAt: this.token.expiresAt };
  }

  /** Forgets the token (sign-out; a token the server refused): the next get fetches a new one. */
  clear(): void {
    this.token = undefined;
  }

  private fresh(t: Token & { fetchedAt: number }): boolean {
    if (t.expiresAt === undefined) return true;
    const margin = Math.min(RENEW_BEFORE_MS, (t.expiresAt - t.fetchedAt) / 2);
    return this.clock.now() < t.expiresAt - margin;
  }
}

/**
 * When a JWT access token (Entra ID's are) expires, from its `exp` claim; undefined for a token
 * that is not a JWT or says nothing. Read only to know when to ask again: nothing here trusts it.
 */
export function jwtExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const exp = claims && typeof claims === 'object' ? (claims as { exp?: unknown }).exp : undefined;
    return typeof exp === 'number' && Number.isFinite(exp) && exp > 0 ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}
