// Images and speech on the sandbox through the official `openai` client configured only by
// OPENAI_BASE_URL and OPENAI_API_KEY. The files are checked against their formats here, with
// Node's own zlib (crc32, inflate), independently of how the sandbox builds them.
import * as assert from 'node:assert/strict';
import { crc32, inflateSync } from 'node:zlib';
import OpenAI from 'openai';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { useOpenAiEnv } from './openaiEnv';

const KEY = 'sk-sandbox-openai-media-test';

/** Reads a PNG as the format defines it: signature, chunks with CRCs, IHDR, the inflated rows. */
function readPng(png: Buffer): { width: number; height: number; colourType: number; pixels: Buffer } {
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  let at = 8;
  const idat: Buffer[] = [];
  let ihdr: Buffer | undefined;
  let ended = false;
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString('ascii');
    const data = png.subarray(at + 8, at + 8 + length);
    assert.equal(png.readUInt32BE(at + 8 + length), crc32(png.subarray(at + 4, at + 8 + length)), `CRC of ${type}`);
    if (type === 'IHDR') ihdr = data;
    if (type === 'IDAT') idat.push(data);
    if (type === 'IEND') ended = true;
    at += 12 + length;
  }
  assert.ok(ihdr && ended, 'IHDR and IEND');
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  const pixels = inflateSync(Buffer.concat(idat));
  assert.equal(ihdr[8], 8, 'bit depth 8');
  assert.equal(pixels.length, height * (1 + width * 3), 'one filter byte and width RGB pixels per row');
  return { width, height, colourType: ihdr[9], pixels };
}

describe('sandbox: images and speech through the official openai client', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ port: 0, llmKey: KEY, llm: { tokenRate: 0 }, realtime: { demo: false } });
  });
  after(() => sandbox.close());
  useOpenAiEnv(() => sandbox.info.llm.baseUrl, KEY);

  it('gpt-image-1 answers b64_json PNGs of the asked size, the same for the same prompt', async () => {
    const client = new OpenAI();
    const r = await client.images.generate({ model: 'gpt-image-1', prompt: 'a lighthouse at dawn', size: '1536x1024', n: 2 });
    assert.equal(r.data?.length, 2);
    const first = Buffer.from(r.data?.[0].b64_json ?? '', 'base64');
    const png = readPng(first);
    assert.deepEqual([png.width, png.height, png.colourType], [1536, 1024, 2]);
    assert.ok(first.length < 64 * 1024, `small: ${first.length} bytes`);
    assert.notEqual(r.data?.[1].b64_json, r.data?.[0].b64_json, 'each image of n differs');
    const again = await client.images.generate({ model: 'gpt-image-1', prompt: 'a lighthouse at dawn', size: '1536x1024' });
    assert.equal(again.data?.[0].b64_json, r.data?.[0].b64_json, 'deterministic');
    const refused = await client.images.generate({ model: 'gpt-image-1', prompt: 'x', response_format: 'url' }).catch((e: unknown) => e);
    assert.ok(refused instanceof OpenAI.BadRequestError, 'gpt-image-1 takes no response_format');
    assert.equal(refused.param, 'response_format');
  });

  it('dall-e-3 with response_format "url": a URL the sandbox serves without a key; its sizes and n=1 are enforced', async () => {
    const client = new OpenAI();
    const r = await client.images.generate({ model: 'dall-e-3', prompt: 'a red bicycle', size: '1024x1792', response_format: 'url' });
    const url = r.data?.[0].url ?? '';
    assert.ok(url.startsWith(sandbox.info.llm.baseUrl.replace(/\/v1$/, '')), url);
    assert.match(r.data?.[0].revised_prompt ?? '', /a red bicycle/);
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
    const png = readPng(Buffer.from(await res.arrayBuffer()));
    assert.deepEqual([png.width, png.height], [1024, 1792]);
    const missing = await fetch(url.replace(/img_[0-9a-f]+/, 'img_0000'));
    assert.equal(missing.status, 404);
    await missing.body?.cancel();
    const badSize = await client.images.generate({ model: 'dall-e-3', prompt: 'x', size: '256x256' }).catch((e: unknown) => e);
    assert.ok(badSize instanceof OpenAI.BadRequestError);
    assert.equal(badSize.param, 'size');
    const many = await client.images.generate({ model: 'dall-e-3', prompt: 'x', n: 2 }).catch((e: unknown) => e);
    assert.ok(many instanceof OpenAI.BadRequestError);
    assert.equal(many.param, 'n');
  });

  it('speech: wav is a RIFF/WAVE of 24 kHz 16-bit mono tones, pcm the same samples raw', async () => {
    const client = new OpenAI();
    const input = 'Hello from the sandbox speaker';
    const wav = Buffer.from(await (await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input, response_format: 'wav' })).arrayBuffer());
    assert.equal(wav.subarray(0, 4).toString('ascii'), 'RIFF');
    assert.equal(wav.readUInt32LE(4), wav.length - 8, 'RIFF size');
    assert.equal(wav.subarray(8, 16).toString('ascii'), 'WAVEfmt ');
    assert.deepEqual([wav.readUInt16LE(20), wav.readUInt16LE(22), wav.readUInt32LE(24), wav.readUInt16LE(34)], [1, 1, 24_000, 16], 'PCM, mono, 24 kHz, 16-bit');
    assert.equal(wav.subarray(36, 40).toString('ascii'), 'data');
    const dataBytes = wav.readUInt32LE(40);
    assert.equal(dataBytes, wav.length - 44);
    const seconds = dataBytes / 2 / 24_000;
    assert.ok(seconds >= 1 && seconds <= 3, `about a quarter second per word: ${seconds} s`);
    let loud = 0;
    for (let i = 44; i < wav.length; i += 2) if (Math.abs(wav.readInt16LE(i)) > 1000) loud++;
    assert.ok(loud > dataBytes / 8, 'it is not silence');
    const pcm = Buffer.from(
      await (await client.audio.speech.create({ model: 'gpt-4o-mini-tts', voice: 'coral', input, response_format: 'pcm' })).arrayBuffer(),
    );
    assert.deepEqual(pcm, wav.subarray(44));
  });

  it('speech: mp3 (the default) is whole MPEG-1 Layer III frames; opus is a 400 naming the formats to use', async () => {
    const client = new OpenAI();
    const res = await client.audio.speech.create({ model: 'tts-1-hd', voice: 'nova', input: 'one two three four' });
    assert.equal(res.headers.get('content-type'), 'audio/mpeg');
    const mp3 = Buffer.from(await res.arrayBuffer());
    const frameBytes = 417;
    assert.equal(mp3.length % frameBytes, 0, 'whole frames');
    for (let at = 0; at < mp3.length; at += frameBytes) {
      const h = mp3.readUInt32BE(at);
      assert.equal(h >>> 21, 0x7ff, 'frame sync');
      assert.equal((h >>> 19) & 3, 3, 'MPEG-1');
      assert.equal((h >>> 17) & 3, 1, 'Layer III');
      assert.equal((h >>> 12) & 0xf, 9, '128 kbit/s');
      assert.equal((h >>> 10) & 3, 0, '44.1 kHz');
    }
    assert.ok((mp3.length / frameBytes) * (1152 / 44_100) >= 1, 'at least a second for four words');
    const opus = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'x', response_format: 'opus' }).catch((e: unknown) => e);
    assert.ok(opus instanceof OpenAI.BadRequestError);
    assert.equal(opus.param, 'response_format');
    assert.match(opus.message, /ask for response_format "mp3", "wav" or "pcm"/);
  });
});
