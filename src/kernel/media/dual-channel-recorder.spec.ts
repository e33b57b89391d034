import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Writable } from 'node:stream';
import { decodePcm16Wav } from '../audio/wav';
import { DualChannelRecorder } from './dual-channel-recorder';

const RATE = { sampleRate: 8000 };

describe('DualChannelRecorder', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'recorder-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const ramp = (n: number, from: number) => Int16Array.from({ length: n }, (_, i) => from + i);

  it('interleaves the two directions on one timeline: gaps are silence, overlaps keep what came first', async () => {
    const path = join(dir, 'rec_1.wav');
    const recorder = await DualChannelRecorder.create(path, RATE);
    recorder.write(0, 0, ramp(4, 100)); // agent: samples 0-3
    recorder.write(1, 2, ramp(3, 200)); // participant: 2-4 (0-1 silent)
    recorder.write(1, 3, ramp(3, 900)); // overlaps 3-4: only 5 is new
    recorder.write(0, 8, ramp(2, 300)); // agent: 4-7 silent, 8-9
    expect(await recorder.finish()).toBeCloseTo(10 / 8000);
    expect(await recorder.finish()).toBeCloseTo(10 / 8000);
    const wav = decodePcm16Wav(readFileSync(path));
    expect(wav).toMatchObject({ sampleRate: 8000, channels: 2 });
    const left = wav.samples.filter((_, i) => i % 2 === 0);
    const right = wav.samples.filter((_, i) => i % 2 === 1);
    expect([...left]).toEqual([100, 101, 102, 103, 0, 0, 0, 0, 300, 301]);
    expect([...right]).toEqual([0, 0, 200, 201, 202, 902, 0, 0, 0, 0]);
    expect(readdirSync(dir)).toEqual(['rec_1.wav']);
  });

  it('records at 16 kHz when asked (an Opus call): the WAV says so, and the length is in its samples', async () => {
    const path = join(dir, 'rec_16k.wav');
    const recorder = await DualChannelRecorder.create(path, { sampleRate: 16000 });
    expect(recorder.sampleRate).toBe(16000);
    recorder.write(0, 0, ramp(320, 1));
    recorder.write(1, 16000, ramp(320, 1)); // one second later
    expect(await recorder.finish()).toBeCloseTo(16320 / 16000);
    expect(decodePcm16Wav(readFileSync(path))).toMatchObject({ sampleRate: 16000, channels: 2 });
  });

  it('a phone call: frames paired by tick (position = tick × 160); a side with no frames yet is silence', async () => {
    const path = join(dir, 'a', 'call.wav');
    const recorder = await DualChannelRecorder.create(path, RATE);
    const frame = (value: number) => new Int16Array(160).fill(value);
    // Five ticks of the agent before the other side's media starts, then both, then the other side alone.
    let tick = 0;
    for (; tick < 5; tick++) recorder.write(0, tick * 160, frame(100));
    for (; tick < 15; tick++) {
      recorder.write(0, tick * 160, frame(200));
      recorder.write(1, tick * 160, frame(-300));
    }
    recorder.write(1, tick * 160, frame(-400));
    const seconds = await recorder.finish();
    expect(await recorder.finish()).toBe(seconds);
    const wav = decodePcm16Wav(readFileSync(path));
    expect(wav).toMatchObject({ channels: 2, sampleRate: 8000 });
    const left = wav.samples.filter((_, i) => i % 2 === 0);
    const right = wav.samples.filter((_, i) => i % 2 === 1);
    expect(left.length).toBe(16 * 160);
    expect(seconds).toBeCloseTo((16 * 160) / 8000, 5);
    expect(left[0]).toBe(100);
    expect(right[0]).toBe(0); // the agent ran ahead: the other side was silent then
    expect(left.at(-1)).toBe(0); // the other side's last frame, against silence
    expect(right.at(-1)).toBe(-400);
    expect(right.filter((v) => v === -300).length).toBe(10 * 160);
    expect(readdirSync(join(dir, 'a'))).toEqual(['call.wav']);
  });

  it('a persona call: 30 s at 16 kHz reach the disk in half-second writes (the recorder holds no more)', async () => {
    const path = join(dir, 'sub', 'persona.wav');
    const chunks: number[] = [];
    const recorder = await DualChannelRecorder.create(path, {
      sampleRate: 16_000,
      openStream: (raw) => {
        const file = createWriteStream(raw);
        return new Writable({
          write(chunk: Buffer, _encoding, done) {
            chunks.push(chunk.length);
            file.write(chunk);
            done();
          },
          final(done) {
            file.end(() => done());
          },
        });
      },
    });
    for (let f = 0; f < 1_500; f++) {
      recorder.write(0, f * 320, new Int16Array(320).fill(f % 1000));
      recorder.write(1, f * 320, new Int16Array(320).fill(-(f % 1000)));
      // Each channel's stream is let go at every 25 frames (half a second): never more is held.
      expect(chunks.length).toBe(Math.floor((f + 1) / 25) * 25 * 2);
    }
    expect(recorder.dataBytes).toBe(1_500 * 320 * 4);
    expect(await recorder.finish()).toBeCloseTo(30, 5);
    const wav = decodePcm16Wav(readFileSync(path));
    expect({ channels: wav.channels, rate: wav.sampleRate, samples: wav.samples.length }).toEqual({
      channels: 2,
      rate: 16_000,
      samples: 1_500 * 640,
    });
    expect(wav.samples[640 * 7]).toBe(7);
    expect(wav.samples[640 * 7 + 1]).toBe(-7);
    expect(wav.samples.at(-2)).toBe(499);
  });

  it('an empty recording is a valid WAV of no samples', async () => {
    const path = join(dir, 'empty.wav');
    const recorder = await DualChannelRecorder.create(path, { sampleRate: 16_000 });
    expect(await recorder.finish()).toBe(0);
    expect(decodePcm16Wav(readFileSync(path))).toMatchObject({ sampleRate: 16_000, channels: 2 });
    expect(decodePcm16Wav(readFileSync(path)).samples.length).toBe(0);
  });

  it('discards a call that never started, leaving nothing behind', async () => {
    const recorder = await DualChannelRecorder.create(join(dir, 'rec_2.wav'), RATE);
    recorder.write(1, 0, ramp(10, 1));
    await recorder.discard();
    await recorder.discard(); // once
    expect(readdirSync(dir)).toEqual([]);
    recorder.write(0, 10, ramp(10, 1)); // ignored
    expect(await recorder.finish()).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('discard waits for the streams to close before removing the files (an open that lands late made one again)', async () => {
    // A stream whose file appears only as it closes, 20 ms after being destroyed: as a file stream
    // whose open was still pending when the call was dropped.
    const late = (raw: string) =>
      new Writable({
        write: (_chunk, _encoding, done) => done(),
        destroy: (err, done) =>
          setTimeout(() => {
            writeFileSync(raw, 'opened late');
            done(err);
          }, 20),
      });
    const recorder = await DualChannelRecorder.create(join(dir, 'rec_race.wav'), { ...RATE, openStream: late });
    recorder.write(0, 0, ramp(160, 1));
    await recorder.discard();
    await new Promise((r) => setTimeout(r, 40)); // past the late opens
    expect(readdirSync(dir)).toEqual([]);
  });

  it('discard after finish removes the WAV too (it was not stored); during finish it waits for it first', async () => {
    const done = await DualChannelRecorder.create(join(dir, 'rec_done.wav'), RATE);
    done.write(0, 0, ramp(160, 1));
    await done.finish();
    expect(readdirSync(dir)).toEqual(['rec_done.wav']);
    await done.discard();
    expect(readdirSync(dir)).toEqual([]);

    const busy = await DualChannelRecorder.create(join(dir, 'rec_busy.wav'), RATE);
    busy.write(1, 0, ramp(8000, 1));
    const finishing = busy.finish();
    await busy.discard();
    await expect(finishing).resolves.toBeCloseTo(1);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a track whose file fails (a full disk: /dev/full) is reported once, never thrown; finish rejects, nothing is left', async () => {
    const path = join(dir, 'rec_3.wav');
    // The agent's track on a real device that fails every write with ENOSPC; the other on disk.
    const recorder = await DualChannelRecorder.create(path, {
      ...RATE,
      openStream: (raw) => createWriteStream(raw.endsWith('.0.raw') ? '/dev/full' : raw),
    });
    const failures: Error[] = [];
    recorder.onFailed((err) => failures.push(err));
    // 40 frames of 20 ms: the streams are let go (and the device fails) after the first 25.
    for (let i = 0; i < 40; i++) {
      recorder.write(0, i * 160, ramp(160, 0));
      recorder.write(1, i * 160, ramp(160, 0));
      await new Promise((r) => setImmediate(r));
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(failures.map((e) => (e as NodeJS.ErrnoException).code)).toEqual(['ENOSPC']);
    expect((recorder.failure as NodeJS.ErrnoException).code).toBe('ENOSPC');
    recorder.write(0, 5000, ramp(160, 0)); // after the failure: ignored, no throw
    await expect(recorder.finish()).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a recording directory that cannot be written fails at create, not later', async () => {
    const notADir = join(dir, 'file');
    writeFileSync(notADir, 'x');
    await expect(DualChannelRecorder.create(join(notADir, 'rec_4.wav'), RATE)).rejects.toThrow();
    // The directory exists, but the file cannot be opened there.
    await expect(
      DualChannelRecorder.create(join(dir, 'rec_5.wav'), {
        ...RATE,
        openStream: (raw) => createWriteStream(join(dir, 'missing', basename(raw))),
      }),
    ).rejects.toMatchObject({ code: 'ENOENT' });
    expect(readdirSync(dir)).toEqual(['file']);
  });

  it('a WAV that cannot be written rejects finish and leaves no raw file behind', async () => {
    const path = join(dir, 'rec_6.wav');
    const recorder = await DualChannelRecorder.create(path, RATE);
    recorder.write(0, 0, ramp(160, 1));
    mkdirSync(`${path}.partial`); // where the WAV is written aside: not a file
    await expect(recorder.finish()).rejects.toMatchObject({ code: 'EISDIR' });
    expect(readdirSync(dir)).toEqual(['rec_6.wav.partial']);
  });
});
