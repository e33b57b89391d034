import { RtpReorder, type ReorderedPacket } from './rtp-reorder';

function harness() {
  const out: (number | 'lost')[] = [];
  const reorder = new RtpReorder({
    packet: (p) => out.push(p.sequenceNumber),
    lost: () => out.push('lost'),
  });
  const packet = (sequenceNumber: number): ReorderedPacket => ({
    sequenceNumber,
    timestamp: sequenceNumber * 960,
    payload: Buffer.from([sequenceNumber & 0xff]),
  });
  return {
    out,
    push: (seq: number, at: number) => reorder.push(packet(seq), at),
    tick: (at: number) => reorder.tick(at),
  };
}

describe('RTP reorder window (60 ms)', () => {
  it('passes packets in order at once, puts a swapped pair back in order, drops late and repeated ones', () => {
    const { out, push } = harness();
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
  });

  it('gives a missing packet up as lost once three further packets came, or after 60 ms', () => {
    const { out, push, tick } = harness();
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
});
