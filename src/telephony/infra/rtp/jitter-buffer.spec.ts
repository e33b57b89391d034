import { JitterBuffer, PacketLossConcealer } from './jitter-buffer';

const frame = (value: number, samples = 160): Int16Array => new Int16Array(samples).fill(value);
const silence = (samples: number): Int16Array => new Int16Array(samples);

describe('jitter buffer', () => {
  it('keeps nothing of empty payloads, however many come, and plays the audio around them', () => {
    const buffer = new JitterBuffer(60);
    for (let seq = 0; seq < 20_000; seq++) buffer.push(seq, new Int16Array(0));
    expect(buffer.held).toBe(0);
    expect(buffer.pull(silence)).toBeNull();
    for (const seq of [20_000, 20_001, 20_002]) buffer.push(seq, frame(seq % 100));
    expect(buffer.pull(silence)![0]).toBe(0);
  });

  it("holds at most its maximum of audio whatever the packets' sizes (tiny packets skip ahead)", () => {
    const buffer = new JitterBuffer(60);
    for (let seq = 0; seq < 30_000; seq++) buffer.push(seq & 0xffff, new Int16Array(1).fill(1));
    // 300 ms at 8 kHz is 2,400 one-sample packets at most.
    expect(buffer.held).toBeLessThanOrEqual(2400);
  });

  it('waits for 60 ms, then plays in sequence order whatever order packets came in', () => {
    const buffer = new JitterBuffer(60);
    buffer.push(11, frame(11));
    buffer.push(10, frame(10));
    expect(buffer.pull(silence)).toBeNull(); // 40 ms buffered: not yet
    buffer.push(13, frame(13));
    buffer.push(12, frame(12));
    expect([0, 1, 2, 3].map(() => buffer.pull(silence)![0])).toEqual([10, 11, 12, 13]);
  });

  it('drops duplicates and packets that come after their turn; conceals a lost one in place', () => {
    const buffer = new JitterBuffer(60);
    for (const seq of [1, 2, 3]) buffer.push(seq, frame(seq));
    buffer.push(2, frame(2));
    expect(buffer.stats.duplicates).toBe(1);
    expect(buffer.pull(silence)![0]).toBe(1);
    expect(buffer.pull(silence)![0]).toBe(2);
    buffer.push(5, frame(5)); // 4 is lost
    expect(buffer.pull(silence)![0]).toBe(3);
    expect(buffer.pull(() => frame(-1))![0]).toBe(-1);
    expect(buffer.pull(silence)![0]).toBe(5);
    buffer.push(4, frame(4)); // too late now
    expect(buffer.stats).toMatchObject({ late: 1, lost: 1 });
  });

  it('handles the 16-bit sequence wrap and packets of 30 ms', () => {
    const buffer = new JitterBuffer(60);
    buffer.push(65535, frame(1, 240));
    buffer.push(0, frame(2, 240));
    buffer.push(1, frame(3, 240));
    const played = [0, 1, 2, 3].map(() => buffer.pull(silence)!);
    expect(played.map((f) => f.length)).toEqual([160, 160, 160, 160]);
    expect([...played[0]!.slice(0, 1), ...played[1]!.slice(159), ...played[2]!.slice(0, 1)]).toEqual([1, 2, 2]);
  });

  it('skips ahead to its depth when more than 300 ms pile up (a peer clock running fast)', () => {
    const buffer = new JitterBuffer(60);
    for (let seq = 1; seq <= 16; seq++) buffer.push(seq, frame(seq));
    // 320 ms were buffered: the oldest went, 60 ms are left, and playout goes on from there.
    expect([0, 1, 2].map(() => buffer.pull(silence)![0])).toEqual([14, 15, 16]);
    buffer.push(13, frame(13));
    expect(buffer.stats.late).toBe(14);
  });

  it('reports underruns and fills up again after a long gap', () => {
    const buffer = new JitterBuffer(60);
    for (const seq of [1, 2, 3]) buffer.push(seq, frame(seq));
    for (let i = 0; i < 3; i++) buffer.pull(silence);
    for (let i = 0; i < 10; i++) expect(buffer.pull(silence)).toBeNull();
    expect(buffer.stats.underruns).toBe(10);
    buffer.push(50, frame(50));
    expect(buffer.pull(silence)).toBeNull(); // waiting for 60 ms again
    buffer.push(51, frame(51));
    buffer.push(52, frame(52));
    expect(buffer.pull(silence)![0]).toBe(50);
  });
});

describe('packet-loss concealment', () => {
  it('repeats the last frame fading out, then silence', () => {
    const plc = new PacketLossConcealer();
    plc.good(frame(1000));
    expect([0, 1, 2, 3].map(() => plc.conceal()[0])).toEqual([500, 250, 125, 0]);
    plc.good(frame(800));
    expect(plc.conceal()[0]).toBe(400);
  });
});
