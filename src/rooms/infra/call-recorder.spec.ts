import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { decodePcm16Wav } from '../../kernel/audio/wav';
import { CallRecorder } from './call-recorder';

describe('call recorder', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'recorder-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const ramp = (n: number, from: number) => Int16Array.from({ length: n }, (_, i) => from + i);

  it('interleaves the two directions on one timeline: gaps are silence, overlaps keep what came first', async () => {
    const path = join(dir, 'rec_1.wav');
    const recorder = await CallRecorder.create(path);
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
    const recorder = await CallRecorder.create(path, { sampleRate: 16000 });
    expect(recorder.sampleRate).toBe(16000);
    recorder.write(0, 0, ramp(320, 1));
    recorder.write(1, 16000, ramp(320, 1)); // one second later
    expect(await recorder.finish()).toBeCloseTo(16320 / 16000);
    expect(decodePcm16Wav(readFileSync(path))).toMatchObject({ sampleRate: 16000, channels: 2 });
  });

  it('discards a call that never started, leaving nothing behind', async () => {
    const recorder = await CallRecorder.create(join(dir, 'rec_2.wav'));
    recorder.write(1, 0, ramp(10, 1));
    await recorder.discard();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a track whose file fails (a full disk: /dev/full) is reported once, never thrown; finish rejects, nothing is left', async () => {
    const path = join(dir, 'rec_3.wav');
    // The agent's track on a real device that fails every write with ENOSPC; the other on disk.
    const recorder = await CallRecorder.create(path, {
      openStream: (raw) => createWriteStream(raw.endsWith('.0.raw') ? '/dev/full' : raw),
    });
    const failures: Error[] = [];
    recorder.onFailed((err) => failures.push(err));
    for (let i = 0; i < 20; i++) {
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
    await expect(CallRecorder.create(join(notADir, 'rec_4.wav'))).rejects.toThrow();
    // The directory exists, but the file cannot be opened there.
    await expect(
      CallRecorder.create(join(dir, 'rec_5.wav'), {
        openStream: (raw) => createWriteStream(join(dir, 'missing', basename(raw))),
      }),
    ).rejects.toMatchObject({ code: 'ENOENT' });
    expect(readdirSync(dir)).toEqual(['file']);
  });

  it('a WAV that cannot be written rejects finish and leaves no raw file behind', async () => {
    const path = join(dir, 'rec_6.wav');
    const recorder = await CallRecorder.create(path);
    recorder.write(0, 0, ramp(160, 1));
    mkdirSync(`${path}.partial`); // where the WAV is written aside: not a file
    await expect(recorder.finish()).rejects.toMatchObject({ code: 'EISDIR' });
    expect(readdirSync(dir)).toEqual(['rec_6.wav.partial']);
  });
});
