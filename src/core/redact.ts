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
  /** Each secret's other spellings (URL-encoded, \u-escaped, inside base64), worked out with `ordered`. */
  private encoded: string[] | undefined;
  /** `ordered` and `encoded` together: what a cut may have left a piece of. */
  private allSpellings: string[] | undefined;

  /** Secrets shorter than this are not masked by value: masking "a" would garble every line. */
  static readonly MIN_SECRET_LENGTH = 6;

  addSecret(value: string | undefined): void {
    if (value && value.length >= Redactor.MIN_SECRET_LENGTH && !this.secrets.has(value)) {
      this.secrets.add(value);
      this.ordered = this.encoded = this.allSpellings = undefined;
    }
  }

  removeSecret(value: string | undefined): void {
    if (value && this.secrets.delete(value)) this.ordered = this.encoded = this.allSpellings = undefined;
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

  /**
   * Only the known secret values of text(), in every spelling a server or a cut can give them: as
   * is, URL-encoded, JSON-escaped (\u0041, whole or in part), inside base64 (as in `user:key`), and
   * a piece of one at an edge of the text or beside a "…" (where something cut the text before it
   * was masked). Goal: no 5 characters of a key in a row survive.
   */
  maskSecrets(text: string): string {
    if (this.secrets.size === 0) return text;
    let out = text;
    // Longest first, so a secret that contains another is masked whole.
    this.ordered ??= [...this.secrets].sort((a, b) => b.length - a.length);
    this.encoded ??= this.ordered.flatMap(otherSpellings).sort((a, b) => b.length - a.length);
    for (const s of this.ordered) if (out.includes(s)) out = out.split(s).join(MASK);
    for (const s of this.encoded) if (out.includes(s)) out = out.split(s).join(MASK);
    if (out.includes('\\u')) out = maskEscaped(out, this.ordered);
    this.allSpellings ??= this.ordered.concat(this.encoded);
    return maskCutPieces(out, this.allSpellings);
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
    if (out.includes('='))
      out = out.replace(/((?:^|[?&\s])(?:key|api-key|api_key|apikey|auth_signature|signature|access_token|token|secret)=)[^&\s"']+/gi, `$1${MASK}`);
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

/** A run this long of a secret's characters is a leak; a shorter one is left (it would garble text). */
const LEAK_RUN = 5;

/** URL-encoding, full \u escapes, and the base64 of the secret at each of the three byte alignments. */
function otherSpellings(secret: string): string[] {
  const out = new Set<string>();
  const url = encodeURIComponent(secret);
  if (url !== secret) out.add(url);
  const escaped = [...secret].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  out.add(escaped);
  out.add(escaped.toUpperCase().replace(/\\U/g, '\\u'));
  for (let k = 0; k < 3; k++) {
    const b64 = Buffer.from('\0'.repeat(k) + secret, 'utf8').toString('base64');
    const bytes = k + Buffer.byteLength(secret, 'utf8');
    // Only whole groups of three bytes that are all the secret's spell the same whatever surrounds it.
    const core = b64.slice(k === 0 ? 0 : 4, Math.floor(bytes / 3) * 4);
    if (core.length >= 8) out.add(core);
  }
  return [...out];
}

/** Secrets written with some characters as JSON \u escapes: found in the decoded text, masked in the original. */
function maskEscaped(text: string, secrets: readonly string[]): string {
  let decoded = '';
  const from: number[] = [];
  for (let i = 0; i < text.length;) {
    const m = text[i] === '\\' && text[i + 1] === 'u' ? /^[0-9a-fA-F]{4}$/.exec(text.slice(i + 2, i + 6)) : null;
    from.push(i);
    if (m) {
      decoded += String.fromCharCode(parseInt(m[0], 16));
      i += 6;
    } else {
      decoded += text[i];
      i += 1;
    }
  }
  from.push(text.length);
  const ranges: Array<[number, number]> = [];
  for (const s of secrets) {
    for (let at = decoded.indexOf(s); at >= 0; at = decoded.indexOf(s, at + s.length)) ranges.push([from[at], from[at + s.length]]);
  }
  if (!ranges.length) return text;
  ranges.sort((a, b) => b[0] - a[0]);
  let out = text;
  let floor = Infinity;
  for (const [start, end] of ranges) {
    if (end > floor) continue;
    out = out.slice(0, start) + MASK + out.slice(end);
    floor = start;
  }
  return out;
}

/** The start or end of a secret left at an edge of the text, or beside a "…", by a cut made before masking. */
function maskCutPieces(text: string, secrets: readonly string[]): string {
  if (text.length < LEAK_RUN) return text;
  const parts = text.split('…');
  let changed = false;
  for (let i = 0; i < parts.length; i++) {
    const masked = maskEdges(parts[i], secrets);
    if (masked !== parts[i]) {
      parts[i] = masked;
      changed = true;
    }
  }
  return changed ? parts.join('…') : text;
}

function maskEdges(part: string, secrets: readonly string[]): string {
  let out = part;
  for (const s of secrets) {
    // Cheap test first: text() runs for every string of an answer, and almost none end in a secret.
    if (out.length >= LEAK_RUN && s.includes(out.slice(-LEAK_RUN))) {
      for (let len = Math.min(s.length - 1, out.length); len >= LEAK_RUN; len--) {
        if (out.endsWith(s.slice(0, len))) {
          out = out.slice(0, -len) + MASK;
          break;
        }
      }
    }
    if (out.length >= LEAK_RUN && s.includes(out.slice(0, LEAK_RUN))) {
      for (let len = Math.min(s.length - 1, out.length); len >= LEAK_RUN; len--) {
        if (out.startsWith(s.slice(-len))) {
          out = MASK + out.slice(len);
          break;
        }
      }
    }
  }
  return out;
}
