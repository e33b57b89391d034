import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodePcm16Wav } from '../../kernel/audio/wav';
import { DualRecorder } from './dual-recorder';

const frame = (value: number) => new Int16Array(160).fill(value);

describe('DualRecorder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dual-recorder-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('pairs the sides frame by frame, agent left; a side with no frames yet is silence', async () => {
    const path = join(dir, 'a', 'call.wav');
    const recorder = await DualRecorder.create(path);
    // Five agent frames before the other side's media starts, then both, then the other side alone.
    for (let i = 0; i < 5; i++) recorder.agentFrame(frame(100));
    for (let i = 0; i < 10; i++) {
      recorder.agentFrame(frame(200));
      recorder.otherFrame(frame(-300));
    }
    recorder.otherFrame(frame(-400));
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
    expect(left.at(-1)).toBe(0); // the other side's last frame, paired with silence
    expect(right.at(-1)).toBe(-400);
    expect(right.filter((v) => v === -300).length).toBe(10 * 160);
    expect(existsSync(`${path}.pcm`)).toBe(false);
  });

  it('discard leaves nothing behind', async () => {
    const path = join(dir, 'b.wav');
    const recorder = await DualRecorder.create(path);
    recorder.agentFrame(frame(1));
    await recorder.discard();
    expect(existsSync(path)).toBe(false);
    expect(existsSync(`${path}.pcm`)).toBe(false);
  });
});
