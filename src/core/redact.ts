import { remembered } from './once';
import { isSecretName, isSecretParam, mayHoldSecretName } from './secretNames';

/**
 * Every line the extension prints goes through a Redactor: auth headers, key-like query
 * parameters, signatures, and any secret value it has been told about are replaced with "***".
 */
/** Headers masked whole besides those named like keys (isSecretName): what they carry is a session. */
const SESSION_HEADERS = new Set(['cookie', 'set-cookie']);

export const MASK = '***';

/** Strings up to this long are remembered by Redactor.text(): names, ids, short values. */
const SEEN_MAX_CHARS = 200;
/** At most ~1 MB of remembered strings. */
const SEEN_MAX_ENTRIES = 2048;

export class Redactor {
  private readonly secrets = new Set<string>();
  /** The secrets longest first, worked out once per change: text() runs for every string of an answer. */
  private ordered: string[] | undefined;
  /** Each secret's other spellings (URL-encoded, \u-escaped, inside base64), worked out with `ordered`. */
  private encoded: string[] | undefined;
  /** `ordered` and `encoded` together: what a cut may have left a piece of. */
  private allSpellings: Spellings | undefined;
  /**
   * text() of short strings already seen, until the secrets change. An answer repeats most of its
   * strings ("object": "model" in every element of a list) and answers repeat each other, and a
   * 20-cell CLI run spent ~8% of its time in text() (issue 39). Bounded: emptied when full.
   */
  private readonly seen = new Map<string, string>();
  /** text() worked out (a field, not a method: handed to remembered() without a closure per call). */
  private readonly textOnce = (text: string): string => this.maskPatterns(this.maskSecrets(text));

  /** Secrets shorter than this are not masked by value: masking "a" would garble every line. */
  static readonly MIN_SECRET_LENGTH = 6;

  addSecret(value: string | undefined): void {
    if (value && value.length >= Redactor.MIN_SECRET_LENGTH && !this.secrets.has(value)) {
      this.secrets.add(value);
      this.secretsChanged();
    }
  }

  removeSecret(value: string | undefined): void {
    if (value && this.secrets.delete(value)) this.secretsChanged();
  }

  private secretsChanged(): void {
    this.ordered = this.encoded = this.allSpellings = undefined;
    this.seen.clear();
  }

  /** Masks known secret values anywhere in `text`, plus bearer tokens and key-like query params. */
  text(text: string): string {
    return text.length > SEEN_MAX_CHARS ? this.textOnce(text) : remembered(this.seen, text, SEEN_MAX_ENTRIES, this.textOnce);
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
    const out = this.maskWholeSecrets(text);
    this.allSpellings ??= spellingsOf(this.ordered!.concat(this.encoded!));
    return maskCutPieces(out, this.allSpellings);
  }

  /**
   * True when `text` holds a whole known secret, in any spelling of maskSecrets(). A piece of one
   * (a zip code that a random key happens to end in) is not one: only output masks pieces.
   */
  holdsSecret(text: string): boolean {
    return this.secrets.size > 0 && this.maskWholeSecrets(text) !== text;
  }

  /** maskSecrets() without the pieces a cut may have left. */
  private maskWholeSecrets(text: string): string {
    if (this.secrets.size === 0) return text;
    let out = text;
    // Longest first, so a secret that contains another is masked whole.
    this.ordered ??= [...this.secrets].sort((a, b) => b.length - a.length);
    this.encoded ??= this.ordered.flatMap(otherSpellings).sort((a, b) => b.length - a.length);
    for (const s of this.ordered) if (out.includes(s)) out = out.split(s).join(MASK);
    for (const s of this.encoded) if (out.includes(s)) out = out.split(s).join(MASK);
    // \u escapes mixed with plain characters (`\u0073k_live\/x`): decoded, then looked for.
    if (out.includes('\\u')) out = maskEscaped(out, this.ordered);
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
    // The two name patterns below only mask what a secret name leads, and most texts hold none.
    const names = (out.includes('=') || out.includes('"')) && mayHoldSecretName(out);
    // `client_secret=…`, `auth_signature=…` after any character that cannot be part of a name (a
    // JSON string's opening quote included): the names are the importers' (secretNames.ts).
    if (names && out.includes('='))
      out = out.replace(/(?<![\w.-])([A-Za-z][\w.-]{0,63})=([^&\s"'\\]+)/g, (whole, name: string) => (isSecretParam(name) ? `${name}=${MASK}` : whole));
    // `"client_secret": "…"`, and as a JSON text inside a JSON string holds it: `\"auth\":\"…\"` (a Pusher event's data).
    if (names && out.includes('"'))
      out = out.replace(/(\\?"([A-Za-z][\w.-]{0,63})\\?"\s*:\s*\\?")((?:[^"\\]|\\[^"])*)/g, (whole, head: string, name: string, value: string) =>
        value !== '' && isSecretName(name) ? `${head}${MASK}` : whole,
      );
    // A Pusher channel auth (`app-key:hex signature`) wherever it is echoed, as is or URL-encoded.
    if (out.includes(':') || out.includes('%3A')) out = out.replace(/(?<=\w)(:|%3A)[0-9a-f]{64}(?![0-9a-z])/gi, `$1${MASK}`);
    return out;
  }

  url(url: string | URL): string {
    let u: URL;
    try {
      u = new URL(String(url));
    } catch {
      return this.text(String(url));
    }
    for (const k of [...u.searchParams.keys()]) if (isSecretParam(k)) u.searchParams.set(k, MASK);
    if (u.password) u.password = MASK;
    return this.text(u.toString().replace(/%2A%2A%2A/g, MASK));
  }

  headers(headers: Record<string, string | string[] | undefined>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) {
      if (v === undefined) continue;
      out[k] = SESSION_HEADERS.has(k.toLowerCase()) || isSecretName(k) ? MASK : this.text(Array.isArray(v) ? v.join(', ') : v);
    }
    return out;
  }
}

/** A run this long of a secret's characters is a leak; a shorter one is left (it would garble text). */
const LEAK_RUN = 5;

/** URL-encoding, JSON string escapes, full \u escapes, and the base64 of the secret at each of the three byte alignments. */
function otherSpellings(secret: string): string[] {
  const out = new Set<string>();
  const url = encodeURIComponent(secret);
  if (url !== secret) out.add(url);
  // As a JSON string holds it, `/` escaped as PHP's json_encode and others write it by default.
  const json = JSON.stringify(secret).slice(1, -1).replace(/\//g, '\\/');
  if (json !== secret) out.add(json);
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

/** JSON's two-character escapes and what they stand for. */
const JSON_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** Secrets written with some characters as JSON escapes (\u0041, \/): found in the decoded text, masked in the original. */
function maskEscaped(text: string, secrets: readonly string[]): string {
  let decoded = '';
  const from: number[] = [];
  for (let i = 0; i < text.length;) {
    from.push(i);
    const escaped = text[i] === '\\' ? text[i + 1] : undefined;
    const hex = escaped === 'u' ? /^[0-9a-fA-F]{4}$/.exec(text.slice(i + 2, i + 6)) : null;
    if (hex) {
      decoded += String.fromCharCode(parseInt(hex[0], 16));
      i += 6;
    } else if (escaped !== undefined && Object.hasOwn(JSON_ESCAPES, escaped)) {
      decoded += JSON_ESCAPES[escaped];
      i += 2;
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
/** Every spelling of the secrets, and every run of LEAK_RUN characters in any of them. */
interface Spellings {
  readonly all: readonly string[];
  readonly runs: ReadonlySet<string>;
}

function spellingsOf(all: readonly string[]): Spellings {
  const runs = new Set<string>();
  for (const s of all) for (let i = 0; i + LEAK_RUN <= s.length; i++) runs.add(s.slice(i, i + LEAK_RUN));
  return { all, runs };
}

function maskCutPieces(text: string, secrets: Spellings): string {
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

function maskEdges(part: string, secrets: Spellings): string {
  // One lookup for all spellings: text() runs for every string of an answer, and the redactor was
  // ~8% of a CPU profile of a 20-cell CLI run, mostly testing each string's edges against each
  // spelling (issue 39). An edge that is in no spelling cannot end or start a piece of one.
  if (part.length < LEAK_RUN || (!secrets.runs.has(part.slice(-LEAK_RUN)) && !secrets.runs.has(part.slice(0, LEAK_RUN)))) return part;
  let out = part;
  for (const s of secrets.all) {
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
