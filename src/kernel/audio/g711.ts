/**
 * G.711 μ-law (PCMU), the codec every WebRTC browser offers: 8 kHz, one byte per sample. The
 * classic segment encoding (ITU-T G.711, as in Sun's g711.c), with the bias of 0x84.
 */
const BIAS = 0x84;
const CLIP = 32635;

export function linearToUlaw(sample: number): number {
  let s = Math.max(-32768, Math.min(32767, Math.round(sample)));
  const sign = s < 0 ? 0x80 : 0;
  if (s < 0) s = -s;
  s = Math.min(s, CLIP) + BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (s >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

export function ulawToLinear(byte: number): number {
  const u = ~byte & 0xff;
  const exponent = (u >> 4) & 0x07;
  const magnitude = ((((u & 0x0f) << 3) + BIAS) << exponent) - BIAS;
  return u & 0x80 ? -magnitude : magnitude;
}

const DECODE = Int16Array.from({ length: 256 }, (_, b) => ulawToLinear(b));

export function decodeUlaw(payload: Uint8Array): Int16Array {
  const out = new Int16Array(payload.length);
  for (let i = 0; i < payload.length; i++) out[i] = DECODE[payload[i] ?? 0xff] ?? 0;
  return out;
}

export function encodeUlaw(samples: Int16Array): Buffer {
  const out = Buffer.alloc(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = linearToUlaw(samples[i] ?? 0);
  return out;
}

/*
 * G.711 A-law (PCMA), the codec of most carriers outside North America: the same 8 kHz byte per
 * sample, 13-bit segments, every even bit inverted (0x55), as in Sun's g711.c.
 */
const ALAW_SEGMENT_ENDS = [0x1f, 0x3f, 0x7f, 0xff, 0x1ff, 0x3ff, 0x7ff, 0xfff];

export function linearToAlaw(sample: number): number {
  let value = Math.max(-32768, Math.min(32767, Math.round(sample))) >> 3;
  let mask = 0xd5;
  if (value < 0) {
    mask = 0x55;
    value = -value - 1;
  }
  const segment = ALAW_SEGMENT_ENDS.findIndex((end) => value <= end);
  if (segment < 0) return 0x7f ^ mask;
  const mantissa = segment < 2 ? (value >> 1) & 0x0f : (value >> segment) & 0x0f;
  return ((segment << 4) | mantissa) ^ mask;
}

export function alawToLinear(byte: number): number {
  const a = (byte ^ 0x55) & 0xff;
  const segment = (a & 0x70) >> 4;
  let magnitude = ((a & 0x0f) << 4) + (segment === 0 ? 8 : 0x108);
  if (segment > 1) magnitude <<= segment - 1;
  return a & 0x80 ? magnitude : -magnitude;
}

const DECODE_ALAW = Int16Array.from({ length: 256 }, (_, b) => alawToLinear(b));

export function decodeAlaw(payload: Uint8Array): Int16Array {
  const out = new Int16Array(payload.length);
  for (let i = 0; i < payload.length; i++) out[i] = DECODE_ALAW[payload[i] ?? 0xd5] ?? 0;
  return out;
}

export function encodeAlaw(samples: Int16Array): Buffer {
  const out = Buffer.alloc(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = linearToAlaw(samples[i] ?? 0);
  return out;
}
