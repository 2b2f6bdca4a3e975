// A connection's bearer token from a command the user already trusts with their account
// (`az account get-access-token …`, `gcloud auth print-access-token`), instead of a stored key.
// The command prints the token alone (plain text, kept for the whole run) or JSON with the token
// and when it expires (az's `-o json`: accessToken + expiresOn / expires_on), so it is run again
// only once that time comes near.
import type { spawn as Spawn } from 'node:child_process';
import * as z from 'zod/mini';
import type { Token } from './tokenCache';
import { once } from '../once';
import { sharedAcrossBundles } from '../sharedClass';

/** How long a token command may take (az can be slow to start); it is killed after this. */
export const TOKEN_COMMAND_TIMEOUT_MS = 120_000;
/** A token is one line; more output than this is not a token command's answer. */
const MAX_OUTPUT_BYTES = 64 * 1024;
/** How much of a failing command's own message is repeated to the user. */
const MAX_MESSAGE_CHARS = 1_000;

export class TokenCommandError extends Error {
  static {
    sharedAcrossBundles(this, 'api-workbench.TokenCommandError');
  }

  constructor(message: string) {
    super(message);
    this.name = 'TokenCommandError';
  }
}

export interface TokenCommandOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** After the command exits, how long its output pipes may stay open (something it left running holds them). */
const PIPES_AFTER_EXIT_MS = 500;
/** Process groups are a POSIX notion; on Windows only the shell itself can be ended. */
const OWN_PROCESS_GROUP = process.platform !== 'win32';

/**
 * Runs `command` in the shell and reads its token. Rejects with a TokenCommandError that carries
 * the command's own message (its stderr, e.g. "Please run 'az login'", with whatever it printed
 * on stdout masked: that may be the token) when it fails, prints nothing, or is not done in time.
 * The command runs in its own process group, so the limit ends whatever it started as well, and
 * the promise settles at the limit even when a child it left behind still holds its output open.
 */
export function runTokenCommand(command: string, opts: TokenCommandOptions = {}): Promise<Token> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- node:child_process (with dgram and net) costs a CLI run ~5 ms at start; only a connection with a token command needs it (issue 39)
  const spawn = (require('node:child_process') as { spawn: typeof Spawn }).spawn;
  const timeoutMs = opts.timeoutMs ?? TOKEN_COMMAND_TIMEOUT_MS;
  return new Promise<Token>((resolve, reject) => {
    const child = spawn(command, {
      shell: true,
      detached: OWN_PROCESS_GROUP,
      env: opts.env ?? process.env,
      cwd: opts.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let failure: string | undefined;
    let settled = false;
    let afterExit: NodeJS.Timeout | undefined;
    const killAll = () => {
      try {
        if (OWN_PROCESS_GROUP && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // The group is gone already.
      }
    };
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(afterExit);
      opts.signal?.removeEventListener('abort', onAbort);
      // Whatever the command left running is ended, and its pipes are no longer waited on.
      killAll();
      child.stdout.destroy();
      child.stderr.destroy();
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = tail(maskOutput(Buffer.concat(err).toString('utf8'), stdout));
      const said = stderr ? `: ${stderr}` : '';
      if (failure) return reject(new TokenCommandError(`the token command ${failure}${said}`));
      if (code !== 0)
        return reject(new TokenCommandError(`the token command failed (${signal ? `killed by ${signal}` : `exit ${code}`})${said || ' and said nothing'}`));
      try {
        resolve(parseTokenOutput(stdout));
      } catch (e) {
        reject(e instanceof TokenCommandError ? e : new TokenCommandError(String(e)));
      }
    };
    const stop = (why: string) => {
      failure ??= why;
      finish(null, null);
    };
    const timer = setTimeout(() => stop(`did not finish within ${Math.round(timeoutMs / 1000)} s`), timeoutMs);
    const onAbort = () => stop('was cancelled');
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES) return stop(`printed more than ${MAX_OUTPUT_BYTES / 1024} KiB, which is not a token`);
      into.push(chunk);
    };
    child.stdout.on('data', collect(out));
    child.stderr.on('data', collect(err));
    child.on('error', (e) => stop(`could not be started (${e.message})`));
    // 'close' waits for the pipes too; a child the command left running may hold them for ever.
    child.on('exit', (code, signal) => (afterExit = setTimeout(() => finish(code, signal), PIPES_AFTER_EXIT_MS)));
    child.on('close', finish);
  });
}

/** Shortest piece of a command's stdout masked in its stderr: shorter words are not token-like. */
const MIN_MASKED_CHARS = 8;

/**
 * `stderr` with everything token-like that the command printed on stdout masked: the whole output,
 * each line and word of it, and every string of it when it is JSON (az's accessToken). A command
 * that failed after printing its token often repeats it in its complaint.
 */
export function maskOutput(stderr: string, stdout: string): string {
  const pieces = new Set<string>();
  const add = (v: string) => {
    const t = v.trim();
    if (t.length >= MIN_MASKED_CHARS) pieces.add(t);
  };
  add(stdout);
  for (const line of stdout.split(/\r?\n/)) add(line);
  for (const word of stdout.split(/[\s"'`,;:{}[\]=]+/)) add(word);
  try {
    const walk = (v: unknown): void => {
      if (typeof v === 'string') add(v);
      else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x);
    };
    walk(JSON.parse(stdout));
  } catch {
    // Not JSON: its words are masked above.
  }
  let masked = stderr;
  // Longest first, so a token is masked whole before a word inside it would be.
  for (const piece of [...pieces].sort((a, b) => b.length - a.length)) masked = masked.split(piece).join('***');
  return masked;
}

function tail(text: string): string {
  const t = text.trim();
  return t.length > MAX_MESSAGE_CHARS ? `…${t.slice(-MAX_MESSAGE_CHARS)}` : t;
}

const jsonTokenSchema = once(() =>
  z.object({
    accessToken: z.optional(z.string().check(z.minLength(1))),
    access_token: z.optional(z.string().check(z.minLength(1))),
    token: z.optional(z.string().check(z.minLength(1))),
    /** az: local time "2025-01-31 12:34:56.000000" (older) */
    expiresOn: z.optional(z.union([z.string(), z.number()])),
    /** az (newer): POSIX seconds */
    expires_on: z.optional(z.union([z.string(), z.number()])),
    /** seconds from now (OAuth's token response) */
    expires_in: z.optional(z.union([z.string(), z.number()])),
    expiresIn: z.optional(z.union([z.string(), z.number()])),
  }),
);

/**
 * The token in a command's output: one line of text, or a JSON object with the token and, when
 * given, its expiry (ms since the epoch). Never puts the output itself in an error: it may be a
 * token.
 */
export function parseTokenOutput(stdout: string, now: number = Date.now()): Token {
  const text = stdout.trim();
  if (!text) throw new TokenCommandError('the token command printed nothing: it should print the token (or JSON with "accessToken")');
  if (text.startsWith('{')) {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new TokenCommandError('the token command printed something that starts like JSON but is not: print the token alone, or valid JSON');
    }
    const parsed = jsonTokenSchema().safeParse(raw);
    const value = parsed.success ? (parsed.data.accessToken ?? parsed.data.access_token ?? parsed.data.token) : undefined;
    if (!parsed.success || value === undefined)
      throw new TokenCommandError('the token command printed JSON without a token: expected "accessToken" (az -o json), "access_token" or "token"');
    const d = parsed.data;
    return { value, expiresAt: expiryOf(d.expires_on, d.expiresOn, d.expires_in ?? d.expiresIn, now) };
  }
  if (/\s/.test(text)) throw new TokenCommandError('the token command printed more than one word: it should print the token alone (e.g. az … -o tsv)');
  return { value: text };
}

function expiryOf(
  posixSeconds: string | number | undefined,
  dateText: string | number | undefined,
  inSeconds: string | number | undefined,
  now: number,
): number | undefined {
  const seconds = Number(posixSeconds);
  if (posixSeconds !== undefined && Number.isFinite(seconds) && seconds > 0) return seconds * 1000;
  if (typeof dateText === 'number' && dateText > 0) return dateText * 1000;
  if (typeof dateText === 'string') {
    // az prints local time without a zone ("2025-01-31 12:34:56.000000"); Date reads that as local too.
    const at = Date.parse(dateText.replace(' ', 'T').replace(/(\.\d{3})\d+/, '$1'));
    if (Number.isFinite(at)) return at;
  }
  const relative = Number(inSeconds);
  if (inSeconds !== undefined && Number.isFinite(relative) && relative > 0) return now + relative * 1000;
  return undefined;
}
