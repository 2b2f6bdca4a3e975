// Small, valid, deterministic media files for the image and speech endpoints: a PNG (striped in two
// colours taken from the prompt), 16-bit PCM audio (a short tone per word, optionally in a WAV
// container) and a silent MP3. Built by hand so the sandbox needs no codec: every byte follows the
// PNG, RIFF/WAVE and MPEG-1 Layer III specifications.
import { deflateSync } from 'node:zlib';
import { fnv1a } from './answer';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

const STRIPE = 64;

/** An RGB PNG of `width` x `height`: horizontal stripes in two colours derived from `seed`. */
export function stripedPng(seed: string, width: number, height: number): Buffer {
  const h = fnv1a(seed);
  const colours = [
    [h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff],
    [255 - (h & 0xff), 255 - ((h >>> 8) & 0xff), (h >>> 24) & 0xff],
  ];
  // Each row: filter byte 0, then RGB pixels. Rows of one stripe are identical, so they compress to almost nothing.
  const rows = colours.map((rgb) => {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
    return row;
  });
  const raw = Buffer.alloc(height * rows[0].length);
  for (let y = 0; y < height; y++) rows[Math.floor(y / STRIPE) % 2].copy(raw, y * rows[0].length);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** OpenAI's `pcm` format: 24 kHz, 16-bit signed little-endian, mono. */
export const PCM_SAMPLE_RATE = 24_000;
const WORD_SECONDS = 0.25;
const GAP_SECONDS = 0.05;
/** Longest audio the sandbox makes: enough to hear, small enough to hold (1.4 MB of PCM). */
export const MAX_SPEECH_SECONDS = 30;

/** Seconds of speech for `text` at `speed` (OpenAI's 0.25–4): a quarter second per word, within 0.5 s and MAX_SPEECH_SECONDS. */
export function speechSeconds(text: string, speed = 1): number {
  const words = text.split(/\s+/).filter(Boolean).length;
  return Math.min(MAX_SPEECH_SECONDS, Math.max(0.5, (words * (WORD_SECONDS + GAP_SECONDS)) / speed));
}

/** A tone per word of `text` (pitch from the word), with short silences between: raw PCM. */
export function speechPcm(text: string, speed = 1): Buffer {
  const seconds = speechSeconds(text, speed);
  const samples = Math.round(seconds * PCM_SAMPLE_RATE);
  const pcm = Buffer.alloc(samples * 2);
  const words = text.split(/\s+/).filter(Boolean);
  const perWord = Math.round(((WORD_SECONDS + GAP_SECONDS) / speed) * PCM_SAMPLE_RATE);
  const toneSamples = Math.round((WORD_SECONDS / speed) * PCM_SAMPLE_RATE);
  for (let i = 0; i < samples; i++) {
    const word = words.length ? words[Math.floor(i / perWord) % words.length] : '';
    const at = i % perWord;
    if (!word || at >= toneSamples) continue;
    const hz = 220 + (fnv1a(word) % 440);
    const fade = Math.min(1, at / 240, (toneSamples - at) / 240);
    pcm.writeInt16LE(Math.round(Math.sin((2 * Math.PI * hz * at) / PCM_SAMPLE_RATE) * 8000 * fade), i * 2);
  }
  return pcm;
}

/** PCM wrapped in a RIFF/WAVE header (PCM format 1, mono, 16-bit, PCM_SAMPLE_RATE). */
export function wavOf(pcm: Buffer): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(PCM_SAMPLE_RATE, 24);
  header.writeUInt32LE(PCM_SAMPLE_RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}

/**
 * A silent MP3 of about `seconds`: MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz, mono, no CRC)
 * whose side information and main data are all zero, which every decoder plays as silence.
 */
export function silentMp3(seconds: number): Buffer {
  const frameBytes = Math.floor((144 * 128_000) / 44_100); // 417
  const frames = Math.max(1, Math.ceil((seconds * 44_100) / 1152));
  const frame = Buffer.alloc(frameBytes);
  frame.set([0xff, 0xfb, 0x90, 0xc4]);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}
