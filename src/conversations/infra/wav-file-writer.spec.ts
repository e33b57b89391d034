import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodePcm16Wav } from '../../kernel/audio/wav';
import { WavFileWriter } from './wav-file-writer';

describe('WavFileWriter (a recording streamed to disk as it comes)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wav-writer-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes a dual-channel WAV whose header, in place, gives the length; it holds at most one block', async () => {
    const path = join(dir, 'sub', 'call.wav');
    const writer = await WavFileWriter.create(path, 2, 16_000);
    // 30 s of 20 ms stereo frames at 16 kHz (640 interleaved samples each), as a loopback call sends them.
    let most = 0;
    for (let f = 0; f < 1_500; f++) {
      const frame = new Int16Array(640);
      for (let i = 0; i < 640; i++) frame[i] = i % 2 === 0 ? f % 1000 : -(f % 1000);
      writer.write(frame);
      most = Math.max(most, writer.blockBytes);
      if (f % 50 === 49) await new Promise((r) => setImmediate(r));
    }
    await writer.finish();
    await writer.finish(); // once, however often called
    // What it keeps is the block being filled: 64 KB whatever the length (the call is 1.9 MB).
    expect(most).toBeLessThanOrEqual(64 * 1024);
    expect(writer.dataBytes).toBe(1_500 * 640 * 2);
    expect((await stat(path)).size).toBe(44 + writer.dataBytes);
    const wav = decodePcm16Wav(await readFile(path));
    expect({ channels: wav.channels, rate: wav.sampleRate, samples: wav.samples.length }).toEqual({
      channels: 2,
      rate: 16_000,
      samples: 1_500 * 640,
    });
    expect(wav.samples[640 * 7]).toBe(7);
    expect(wav.samples[640 * 7 + 1]).toBe(-7);
    expect(wav.samples.at(-2)).toBe(499);
  });

  it('an empty recording is a valid WAV of no samples; a discarded one leaves no file', async () => {
    const empty = await WavFileWriter.create(join(dir, 'empty.wav'), 2, 16_000);
    await empty.finish();
    expect(decodePcm16Wav(await readFile(join(dir, 'empty.wav'))).samples.length).toBe(0);
    const dropped = await WavFileWriter.create(join(dir, 'dropped.wav'), 2, 16_000);
    dropped.write(new Int16Array(640));
    await dropped.discard();
    await expect(stat(join(dir, 'dropped.wav'))).rejects.toThrow();
    dropped.write(new Int16Array(640));
    expect(dropped.dataBytes).toBe(1_280);
  });
});
