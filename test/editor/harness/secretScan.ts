// After an in-editor run: search every file the editor could have written for the secret values the
// suite used. A key belongs in SecretStorage only; finding it in settings, logs, state databases or
// the workspace is a leak. Reports file names and the encoding found, never the value.
import { existsSync, readFileSync } from 'node:fs';
import { lstat, open, readdir } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod/mini';
import { parseJson, validate } from '../../../src/core/validate';

export interface SecretHit {
  file: string;
  /** Which secret (its index in the secrets file) and how it was encoded, e.g. "#2 utf8". */
  what: string;
}

export interface SecretScanResult {
  values: number;
  skipped: number;
  filesScanned: number;
  bytesScanned: number;
  hits: SecretHit[];
}

/** Shorter values would match by chance in binary files. */
export const MIN_SECRET_LENGTH = 8;

/** The secrets file: one JSON string per line, appended by suiteApi.recordSecret. */
export function readSecretsFile(file: string): string[] {
  if (!existsSync(file)) return [];
  const values = new Set<string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const json = parseJson(line);
    const v = json.ok ? validate(z.string(), json.value) : undefined;
    if (v?.ok) values.add(v.value);
  }
  return [...values];
}

/** The value as it could appear on disk: raw, UTF-16 (Chromium/SQLite text), JSON- and URL-escaped, base64 at each alignment. */
function encodings(value: string): { form: string; bytes: Buffer }[] {
  const forms: { form: string; bytes: Buffer }[] = [
    { form: 'utf8', bytes: Buffer.from(value, 'utf8') },
    { form: 'utf16le', bytes: Buffer.from(value, 'utf16le') },
  ];
  const json = JSON.stringify(value).slice(1, -1);
  if (json !== value) forms.push({ form: 'json-escaped', bytes: Buffer.from(json, 'utf8') });
  const url = encodeURIComponent(value);
  if (url !== value) forms.push({ form: 'url-encoded', bytes: Buffer.from(url, 'utf8') });
  for (let shift = 0; shift < 3; shift++) {
    // Base64 of the value inside a larger buffer: drop the 4-character groups it shares with its neighbours.
    const b64 = Buffer.concat([Buffer.alloc(shift), Buffer.from(value, 'utf8')])
      .toString('base64')
      .replace(/=+$/, '');
    const core = b64.slice(shift ? 4 : 0, b64.length - 4);
    if (core.length >= MIN_SECRET_LENGTH) forms.push({ form: `base64+${shift}`, bytes: Buffer.from(core, 'ascii') });
  }
  return forms;
}

async function* walk(dir: string, exclude: ReadonlySet<string>): AsyncGenerator<string> {
  if (exclude.has(dir)) return;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    // Symlinks are not followed: a linked extension points back into the checkout, which is not editor output.
    if (e.isDirectory()) yield* walk(p, exclude);
    else if (e.isFile()) yield p;
  }
}

const CHUNK = 4 * 1024 * 1024;

/** Every file under `roots` (but not under `exclude`), binary or not, read in chunks that overlap by the longest needle. */
export async function scanForSecrets(values: string[], roots: string[], exclude: string[] = []): Promise<SecretScanResult> {
  const skip = new Set(exclude.map((d) => path.resolve(d)));
  const usable = values.filter((v) => v.length >= MIN_SECRET_LENGTH);
  const needles = usable.flatMap((v) => encodings(v).map((e) => ({ what: `#${values.indexOf(v) + 1} ${e.form}`, bytes: e.bytes })));
  const overlap = Math.max(0, ...needles.map((n) => n.bytes.length)) - 1;
  const result: SecretScanResult = { values: usable.length, skipped: values.length - usable.length, filesScanned: 0, bytesScanned: 0, hits: [] };
  if (needles.length === 0) return result;
  for (const root of roots) {
    if (!existsSync(root) || !(await lstat(root)).isDirectory()) continue;
    for await (const file of walk(path.resolve(root), skip)) {
      const found = new Set<string>();
      let fh;
      try {
        fh = await open(file, 'r');
      } catch {
        continue; // a socket or a file removed while scanning
      }
      try {
        const buf = Buffer.alloc(CHUNK + overlap);
        let carry = 0;
        let pos = 0;
        for (;;) {
          const { bytesRead } = await fh.read(buf, carry, CHUNK, pos);
          if (bytesRead === 0) break;
          pos += bytesRead;
          const view = buf.subarray(0, carry + bytesRead);
          for (const n of needles) if (!found.has(n.what) && view.includes(n.bytes)) found.add(n.what);
          carry = Math.min(overlap, view.length);
          view.copy(buf, 0, view.length - carry);
        }
        result.filesScanned++;
        result.bytesScanned += pos;
      } finally {
        await fh.close();
      }
      for (const what of found) result.hits.push({ file, what });
    }
  }
  return result;
}
