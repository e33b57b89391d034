import { JitterBuffer, PacketLossConcealer } from './jitter-buffer';

const frame = (value: number, samples = 160): Int16Array => new Int16Array(samples).fill(value);

describe('jitter buffer: playout (a phone call, one frame per tick of the media clock)', () => {
  it('keeps nothing of empty payloads, however many come, and plays the audio around them', () => {
    const buffer = JitterBuffer.playout();
    for (let seq = 0; seq < 20_000; seq++) buffer.push(seq, new Int16Array(0));
    expect(buffer.held).toBe(0);
    expect(buffer.pull()).toBeNull();
    for (const seq of [20_000, 20_001, 20_002]) buffer.push(seq, frame(seq % 100));
    expect(buffer.pull()![0]).toBe(0);
  });

  it("holds at most its maximum of audio whatever the packets' sizes (tiny packets skip ahead)", () => {
    const buffer = JitterBuffer.playout();
    for (let seq = 0; seq < 30_000; seq++) buffer.push(seq & 0xffff, new Int16Array(1).fill(1));
    // 300 ms at 8 kHz is 2,400 one-sample packets at most.
    expect(buffer.held).toBeLessThanOrEqual(2400);
  });

  it('waits for 60 ms, then plays in sequence order whatever order packets came in', () => {
    const buffer = JitterBuffer.playout();
    buffer.push(11, frame(11));
    buffer.push(10, frame(10));
    expect(buffer.pull()).toBeNull(); // 40 ms buffered: not yet
    buffer.push(13, frame(13));
    buffer.push(12, frame(12));
    expect([0, 1, 2, 3].map(() => buffer.pull()![0])).toEqual([10, 11, 12, 13]);
  });

  it('drops duplicates and packets that come after their turn; conceals a lost one in place', () => {
    const buffer = JitterBuffer.playout({ conceal: (samples) => frame(-1, samples) });
    for (const seq of [1, 2, 3]) buffer.push(seq, frame(seq));
    buffer.push(2, frame(2));
    expect(buffer.stats.duplicates).toBe(1);
    expect(buffer.pull()![0]).toBe(1);
    expect(buffer.pull()![0]).toBe(2);
    buffer.push(5, frame(5)); // 4 is lost
    expect(buffer.pull()![0]).toBe(3);
    expect(buffer.pull()![0]).toBe(-1);
    expect(buffer.pull()![0]).toBe(5);
    buffer.push(4, frame(4)); // too late now
    expect(buffer.stats).toMatchObject({ late: 1, lost: 1 });
  });

  it('handles the 16-bit sequence wrap and packets of 30 ms', () => {
    const buffer = JitterBuffer.playout();
    buffer.push(65535, frame(1, 240));
    buffer.push(0, frame(2, 240));
    buffer.push(1, frame(3, 240));
    const played = [0, 1, 2, 3].map(() => buffer.pull()!);
    expect(played.map((f) => f.length)).toEqual([160, 160, 160, 160]);
    expect([...played[0]!.slice(0, 1), ...played[1]!.slice(159), ...played[2]!.slice(0, 1)]).toEqual([1, 2, 2]);
  });

  it('skips ahead to its depth when more than 300 ms pile up (a peer clock running fast)', () => {
    const buffer = JitterBuffer.playout();
    for (let seq = 1; seq <= 16; seq++) buffer.push(seq, frame(seq));
    // 320 ms were buffered: the oldest went, 60 ms are left, and playout goes on from there.
    expect([0, 1, 2].map(() => buffer.pull()![0])).toEqual([14, 15, 16]);
    buffer.push(13, frame(13));
    expect(buffer.stats.late).toBe(14);
  });

  it('plays 16 kHz audio in 320-sample frames when asked, waiting for its depth in ms', () => {
    const buffer = JitterBuffer.playout({ sampleRate: 16000 });
    buffer.push(1, frame(1, 320));
    buffer.push(2, frame(2, 320));
    expect(buffer.pull()).toBeNull(); // 40 ms
    buffer.push(3, frame(3, 320));
    expect([0, 1, 2].map(() => buffer.pull()!)).toEqual([frame(1, 320), frame(2, 320), frame(3, 320)]);
  });

  it('a restarted sender: what is held of the old stream plays first, then the new one, whatever its numbers', () => {
    const buffer = JitterBuffer.playout();
    for (const seq of [60_000, 60_001, 60_002]) buffer.push(seq, frame(1));
    expect(buffer.pull()![0]).toBe(1);
    for (const seq of [10, 11, 12]) buffer.push(seq, frame(2)); // before 60,000 modulo 2^16: not late
    expect([0, 1, 2, 3, 4].map(() => buffer.pull()![0])).toEqual([1, 1, 2, 2, 2]);
    expect(buffer.stats).toMatchObject({ late: 0, lost: 0 });
  });

  it('reports underruns and fills up again after a long gap', () => {
    const buffer = JitterBuffer.playout();
    for (const seq of [1, 2, 3]) buffer.push(seq, frame(seq));
    for (let i = 0; i < 3; i++) buffer.pull();
    for (let i = 0; i < 10; i++) expect(buffer.pull()).toBeNull();
    expect(buffer.stats.underruns).toBe(10);
    buffer.push(50, frame(50));
    expect(buffer.pull()).toBeNull(); // waiting for 60 ms again
    buffer.push(51, frame(51));
    buffer.push(52, frame(52));
    expect(buffer.pull()![0]).toBe(50);
  });
});

describe('jitter buffer: reorder window (a room participant, 60 ms)', () => {
  interface Packet {
    sequenceNumber: number;
    payload: Buffer;
  }
  function harness() {
    const out: (number | 'lost')[] = [];
    const reorder = JitterBuffer.reorder<Packet>({
      packet: (p) => out.push(p.sequenceNumber),
      lost: () => out.push('lost'),
    });
    const packet = (sequenceNumber: number): Packet => ({
      sequenceNumber,
      payload: Buffer.from([sequenceNumber & 0xff]),
    });
    return {
      out,
      reorder,
      push: (seq: number, at: number) => reorder.push(seq, packet(seq), at),
      tick: (at: number) => reorder.tick(at),
    };
  }

  it('passes packets in order at once, puts a swapped pair back in order, drops late and repeated ones', () => {
    const { out, push, reorder } = harness();
    push(10, 0);
    push(11, 20);
    expect(out).toEqual([10, 11]);
    push(13, 40); // 12 is late: 13 waits
    expect(out).toEqual([10, 11]);
    push(12, 45);
    expect(out).toEqual([10, 11, 12, 13]);
    push(13, 50); // a duplicate
    push(9, 50); // older than what was handed on
    push(14, 60);
    push(14, 61);
    expect(out).toEqual([10, 11, 12, 13, 14]);
    // A repeat of a packet already handed on counts as late; a duplicate is one held twice.
    expect(reorder.stats).toMatchObject({ received: 8, late: 3, duplicates: 0, lost: 0 });
  });

  it('gives a missing packet up as lost once three further packets came, or after 60 ms', () => {
    const { out, push, tick, reorder } = harness();
    push(1, 0);
    push(3, 40);
    push(4, 60);
    expect(out).toEqual([1]);
    push(5, 80); // three places beyond the gap
    expect(out).toEqual([1, 'lost', 3, 4, 5]);
    push(7, 120);
    tick(160);
    expect(out).toEqual([1, 'lost', 3, 4, 5]);
    tick(181); // 7 has waited more than 60 ms
    expect(out).toEqual([1, 'lost', 3, 4, 5, 'lost', 7]);
    push(6, 200); // the lost packet, too late now
    expect(out.length).toBe(7);
    expect(reorder.stats).toMatchObject({ lost: 2, late: 1 });
  });

  it('conceals at most 50 packets of a long gap', () => {
    const { out, push, tick } = harness();
    push(1, 0);
    push(200, 20);
    tick(100);
    expect(out.filter((o) => o === 'lost').length).toBe(50);
    expect(out.at(-1)).toBe(200);
  });

  it('wraps around 65535, and starts again on a jump (a restarted sender)', () => {
    const { out, push } = harness();
    push(65534, 0);
    push(65535, 20);
    push(0, 40);
    push(1, 60);
    push(30_000, 80); // a new stream
    push(30_001, 100);
    expect(out).toEqual([65534, 65535, 0, 1, 30_000, 30_001]);
  });

  it('on a restart hands on what it held of the old stream first, and takes a new stream numbered "before" the old', () => {
    const { out, push } = harness();
    push(40_000, 0);
    push(40_002, 20); // waits for 40,001
    push(100, 40); // the sender restarted: 40,001 is given up, 40,002 goes on, then the new stream
    push(101, 60);
    expect(out).toEqual([40_000, 'lost', 40_002, 100, 101]);
  });

  it('is not read by pull: a reorder window hands packets on by itself', () => {
    expect(() => harness().reorder.pull()).toThrow(/playout/);
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
