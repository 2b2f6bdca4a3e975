/**
 * Every line the extension prints goes through a Redactor: auth headers, key-like query
 * parameters, signatures, and any secret value it has been told about are replaced with "***".
 */
const SENSITIVE_HEADERS = new Set([
  'authorization',
  'api-key',
  'x-api-key',
  'x-goog-api-key',
  'x-pusher-signature',
  'proxy-authorization',
  'cookie',
  'set-cookie',
]);

const SENSITIVE_QUERY = new Set(['key', 'api-key', 'api_key', 'apikey', 'auth_signature', 'signature', 'access_token', 'token', 'secret']);

export const MASK = '***';

export class Redactor {
  private readonly secrets = new Set<string>();
  /** The secrets longest first, worked out once per change: text() runs for every string of an answer. */
  private ordered: string[] | undefined;

  /** Secrets shorter than this are not masked by value: masking "a" would garble every line. */
  static readonly MIN_SECRET_LENGTH = 6;

  addSecret(value: string | undefined): void {
    if (value && value.length >= Redactor.MIN_SECRET_LENGTH && !this.secrets.has(value)) {
      this.secrets.add(value);
      this.ordered = undefined;
    }
  }

  removeSecret(value: string | undefined): void {
    if (value && this.secrets.delete(value)) this.ordered = undefined;
  }

  /** Masks known secret values anywhere in `text`, plus bearer tokens and key-like query params. */
  text(text: string): string {
    return this.maskPatterns(this.maskSecrets(text));
  }

  /** True when a known secret value contains `part`. */
  secretsHold(part: string): boolean {
    for (const s of this.secrets) if (s.includes(part)) return true;
    return false;
  }

  /** Only the known secret values of text(). */
  maskSecrets(text: string): string {
    let out = text;
    // Longest first, so a secret that contains another is masked whole.
    this.ordered ??= [...this.secrets].sort((a, b) => b.length - a.length);
    for (const s of this.ordered) if (out.includes(s)) out = out.split(s).join(MASK);
    return out;
  }

  /**
   * Only the patterns of text(): bearer tokens, key-like query parameters, secret-named JSON
   * members. No match spans a `","` between JSON strings (see redactTree.ts, which relies on it).
   */
  maskPatterns(text: string): string {
    let out = text;
    // Each pattern needs its one character or word: a string without it is skipped unscanned (a
    // 20 MB answer has hundreds of thousands of strings, and most have none of them).
    if (/bearer/i.test(out)) out = out.replace(/\b(Bearer)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${MASK}`);
    if (out.includes('=')) out = out.replace(/([?&](?:key|api-key|api_key|apikey|auth_signature|signature|access_token|token|secret)=)[^&\s"']+/gi, `$1${MASK}`);
    if (out.includes('"')) out = out.replace(/("(?:auth|auth_signature|signature|apiKey|api_key|secret)"\s*:\s*")[^"]*"/g, `$1${MASK}"`);
    return out;
  }

  url(url: string | URL): string {
    let u: URL;
    try {
      u = new URL(String(url));
    } catch {
      return this.text(String(url));
    }
    for (const k of [...u.searchParams.keys()]) if (SENSITIVE_QUERY.has(k.toLowerCase())) u.searchParams.set(k, MASK);
    if (u.password) u.password = MASK;
    return this.text(u.toString().replace(/%2A%2A%2A/g, MASK));
  }

  headers(headers: Record<string, string | string[] | undefined>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) {
      if (v === undefined) continue;
      out[k] = SENSITIVE_HEADERS.has(k.toLowerCase()) ? MASK : this.text(Array.isArray(v) ? v.join(', ') : v);
    }
    return out;
  }
}
