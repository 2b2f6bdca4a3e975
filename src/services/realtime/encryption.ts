// End-to-end encrypted channels (`private-encrypted-*`), byte for byte as the official server
// library does it (pusher-http-node lib/events.js, lib/pusher.js channelSharedSecret) and as
// pusher-js decrypts it (src/core/channels/encrypted_channel.ts): nacl secretbox with a per-channel
// key SHA-256(utf8(channel) ‖ 32-byte master key); the event data is the JSON string
// `{"nonce": base64(24 bytes), "ciphertext": base64(box)}` of the JSON-encoded payload.
import { createHash } from 'node:crypto';
import nacl from 'tweetnacl';

export { MASTER_KEY_BYTES, masterKeyProblem } from './masterKey';

/** The per-channel secretbox key; its base64 is the `shared_secret` of an auth response. */
export function channelSharedSecret(channel: string, masterKeyBase64: string): Uint8Array {
  return createHash('sha256')
    .update(Buffer.concat([Buffer.from(channel, 'utf8'), Buffer.from(masterKeyBase64, 'base64')]))
    .digest();
}

/** Event data for an encrypted channel: the payload JSON-encoded (strings too, as the library does), then boxed. */
export function encryptEventData(channel: string, masterKeyBase64: string, payload: unknown): string {
  const nonce = nacl.randomBytes(nacl.secretbox.nonceLength);
  const box = nacl.secretbox(Buffer.from(JSON.stringify(payload) ?? 'null', 'utf8'), nonce, channelSharedSecret(channel, masterKeyBase64));
  return JSON.stringify({ nonce: Buffer.from(nonce).toString('base64'), ciphertext: Buffer.from(box).toString('base64') });
}

export type Decrypted = { ok: true; plaintext: string } | { ok: false; problem: string };

/** Opens the `{nonce, ciphertext}` an encrypted channel carries (`data` as on the wire: a JSON string or an object). */
export function decryptEventData(key: Uint8Array, data: unknown): Decrypted {
  let v: unknown = data;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return { ok: false, problem: 'the data is not the JSON {nonce, ciphertext} of an encrypted event' };
    }
  }
  const box = v as { nonce?: unknown; ciphertext?: unknown } | null;
  if (typeof box !== 'object' || box === null || typeof box.nonce !== 'string' || typeof box.ciphertext !== 'string') {
    return { ok: false, problem: 'the data has no nonce and ciphertext' };
  }
  const nonce = Buffer.from(box.nonce, 'base64');
  const ciphertext = Buffer.from(box.ciphertext, 'base64');
  if (nonce.length !== nacl.secretbox.nonceLength) return { ok: false, problem: `the nonce is ${nonce.length} bytes, not ${nacl.secretbox.nonceLength}` };
  if (ciphertext.length < nacl.secretbox.overheadLength) return { ok: false, problem: 'the ciphertext is too short' };
  if (key.length !== nacl.secretbox.keyLength) return { ok: false, problem: 'the channel key is not 32 bytes' };
  const opened = nacl.secretbox.open(ciphertext, nonce, key);
  if (!opened) return { ok: false, problem: 'it was encrypted with a different key (check the encryption master key)' };
  return { ok: true, plaintext: Buffer.from(opened).toString('utf8') };
}
