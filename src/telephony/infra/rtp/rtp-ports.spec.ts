import { parsePortRange, RtpPortAllocator } from './rtp-ports';

describe('RTP ports', () => {
  it('parses RTP_PORTS and refuses nonsense', () => {
    expect(parsePortRange('40000-40999')).toEqual({ first: 40000, last: 40999 });
    expect(() => parsePortRange('40000')).toThrow(/RTP_PORTS/);
    expect(() => parsePortRange('80-90')).toThrow(/RTP_PORTS/);
    expect(() => parsePortRange('40010-40000')).toThrow(/RTP_PORTS/);
  });

  it('hands out even ports whose odd neighbour is in the range, until none is free', () => {
    const ports = new RtpPortAllocator({ first: 40001, last: 40007 });
    expect(ports.capacity).toBe(3);
    expect([ports.allocate(), ports.allocate(), ports.allocate()].sort()).toEqual([40002, 40004, 40006]);
    expect(ports.allocate()).toBeNull();
    ports.free(40004);
    expect(ports.allocate()).toBe(40004);
  });

  it("picks pairs at random, so that the next call's port cannot be told from the last one", () => {
    const ports = new RtpPortAllocator({ first: 40000, last: 40999 });
    const firsts = new Set<number>();
    const steps = new Set<number>();
    for (let run = 0; run < 50; run++) {
      const a = ports.allocate() ?? 0;
      const b = ports.allocate() ?? 0;
      firsts.add(a);
      steps.add(b - a);
      ports.free(a);
      ports.free(b);
    }
    // In sequence, every run would give the same pair (40000, then +2): at random, nearly all differ.
    expect(firsts.size).toBeGreaterThan(40);
    expect(steps.size).toBeGreaterThan(40);
  });
});
