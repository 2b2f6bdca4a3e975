// The encryption master key's check, apart from encryption.ts (which re-exports it) so that what
// only checks a key, like the CLI before a run, does not load tweetnacl with it (issue 39).

/** The master key is 32 bytes, given as base64 (the server library's `encryptionMasterKeyBase64`). */
export const MASTER_KEY_BYTES = 32;

/** Why `base64` is not a usable master key, or undefined when it is. */
export function masterKeyProblem(base64: string): string | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) return 'the encryption master key must be base64';
  const n = Buffer.from(base64, 'base64').length;
  return n === MASTER_KEY_BYTES ? undefined : `the encryption master key must decode to ${MASTER_KEY_BYTES} bytes, not ${n}`;
}
