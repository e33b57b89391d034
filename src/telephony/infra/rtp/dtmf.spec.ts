import { digitPayloads, DtmfReceiver, parseTelephoneEvent } from './dtmf';

describe('RFC 4733 DTMF', () => {
  it('sends a digit as growing durations, the first marked, then the end three times', () => {
    const packets = digitPayloads('#');
    expect(packets).toHaveLength(8);
    expect(packets[0]!.marker).toBe(true);
    const events = packets.map((p) => parseTelephoneEvent(p.payload)!);
    expect(events.map((e) => e.event)).toEqual(Array(8).fill(11));
    expect(events.map((e) => e.duration)).toEqual([160, 320, 480, 640, 800, 800, 800, 800]);
    expect(events.map((e) => e.end)).toEqual([false, false, false, false, false, true, true, true]);
    expect(() => digitPayloads('x')).toThrow(/Not a DTMF digit/);
  });

  it('reports each digit once, however many packets carry it', () => {
    const digits: string[] = [];
    const receiver = new DtmfReceiver((d) => digits.push(d));
    for (const p of digitPayloads('5')) receiver.receive(1000, p.payload);
    for (const p of digitPayloads('5')) receiver.receive(3000, p.payload);
    for (const p of digitPayloads('*')) receiver.receive(5000, p.payload);
    receiver.receive(7000, Buffer.alloc(2)); // truncated: ignored
    expect(digits).toEqual(['5', '5', '*']);
  });
});
