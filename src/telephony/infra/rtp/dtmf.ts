/**
 * RFC 4733 telephone events (DTMF over RTP): the 4-byte payload (event, end bit, volume, duration),
 * the digits they stand for, a receiver that reports each digit once (events are repeated with the
 * same RTP timestamp, and the end packet three times), and the packets that send one digit.
 */
const DIGITS = '0123456789*#ABCD';

export const digitOfEvent = (event: number): string | null => DIGITS[event] ?? null;

export function eventOfDigit(digit: string): number {
  const event = DIGITS.indexOf(digit.toUpperCase());
  if (event < 0) throw new Error(`Not a DTMF digit: ${digit}`);
  return event;
}

export interface TelephoneEvent {
  event: number;
  end: boolean;
  volume: number;
  duration: number;
}

export function parseTelephoneEvent(payload: Buffer): TelephoneEvent | null {
  if (payload.length < 4) return null;
  const flags = payload.readUInt8(1);
  return {
    event: payload.readUInt8(0),
    end: (flags & 0x80) !== 0,
    volume: flags & 0x3f,
    duration: payload.readUInt16BE(2),
  };
}

export function serialiseTelephoneEvent(e: TelephoneEvent): Buffer {
  const out = Buffer.alloc(4);
  out[0] = e.event;
  out[1] = (e.end ? 0x80 : 0) | (e.volume & 0x3f);
  out.writeUInt16BE(Math.min(e.duration, 0xffff), 2);
  return out;
}

/** Reports a digit the first time a packet of its event (one RTP timestamp) arrives. */
export class DtmfReceiver {
  private lastTimestamp: number | null = null;

  constructor(private readonly onDigit: (digit: string) => void) {}

  receive(timestamp: number, payload: Buffer): void {
    const event = parseTelephoneEvent(payload);
    if (!event || timestamp === this.lastTimestamp) return;
    this.lastTimestamp = timestamp;
    const digit = digitOfEvent(event.event);
    if (digit) this.onDigit(digit);
  }
}

/** One digit as the payloads of consecutive 20 ms packets: 100 ms of tone, then the end three times. */
export function digitPayloads(digit: string, toneMs = 100): { payload: Buffer; marker: boolean }[] {
  const event = eventOfDigit(digit);
  const packets: { payload: Buffer; marker: boolean }[] = [];
  const steps = Math.max(1, Math.round(toneMs / 20));
  for (let i = 1; i <= steps; i++) {
    packets.push({
      payload: serialiseTelephoneEvent({ event, end: false, volume: 10, duration: i * 160 }),
      marker: i === 1,
    });
  }
  for (let i = 0; i < 3; i++) {
    packets.push({
      payload: serialiseTelephoneEvent({ event, end: true, volume: 10, duration: steps * 160 }),
      marker: false,
    });
  }
  return packets;
}
