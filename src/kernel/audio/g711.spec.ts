import {
  alawToLinear,
  decodeAlaw,
  decodeUlaw,
  encodeAlaw,
  encodeUlaw,
  linearToAlaw,
  linearToUlaw,
  ulawToLinear,
} from './g711';

describe('G.711 μ-law', () => {
  it('encodes the reference points of the standard', () => {
    expect(linearToUlaw(0)).toBe(0xff);
    expect(linearToUlaw(-1)).toBe(0x7f);
    expect(linearToUlaw(32767)).toBe(0x80);
    expect(linearToUlaw(-32768)).toBe(0x00);
    expect(ulawToLinear(0xff)).toBe(0);
    expect(ulawToLinear(0x80)).toBe(32124);
    expect(ulawToLinear(0x00)).toBe(-32124);
  });

  it('round-trips every code, and any sample within the step of its segment', () => {
    for (let b = 0; b < 256; b++) {
      if (b === 0x7f) continue; // −0 decodes to 0, which encodes as +0 (0xff)
      expect(linearToUlaw(ulawToLinear(b))).toBe(b);
    }
    for (let s = -32000; s <= 32000; s += 7) {
      const back = ulawToLinear(linearToUlaw(s));
      expect(Math.abs(back - s)).toBeLessThanOrEqual(Math.max(8, Math.abs(s) / 16));
    }
  });

  it('converts whole frames', () => {
    const frame = Int16Array.from({ length: 160 }, (_, i) => Math.round(Math.sin(i / 5) * 10_000));
    const decoded = decodeUlaw(encodeUlaw(frame));
    expect(decoded).toHaveLength(160);
    decoded.forEach((v, i) => expect(Math.abs(v - frame[i]!)).toBeLessThan(700));
  });
});

describe('G.711 A-law', () => {
  it('encodes the reference points of the standard', () => {
    expect(linearToAlaw(0)).toBe(0xd5);
    expect(linearToAlaw(-1)).toBe(0x55);
    expect(linearToAlaw(32767)).toBe(0xaa);
    expect(linearToAlaw(-32768)).toBe(0x2a);
    expect(alawToLinear(0xd5)).toBe(8);
    expect(alawToLinear(0xaa)).toBe(32256);
    expect(alawToLinear(0x2a)).toBe(-32256);
  });

  it('round-trips every code, and any sample within the step of its segment', () => {
    for (let b = 0; b < 256; b++) expect(linearToAlaw(alawToLinear(b))).toBe(b);
    for (let s = -32000; s <= 32000; s += 7) {
      const back = alawToLinear(linearToAlaw(s));
      expect(Math.abs(back - s)).toBeLessThanOrEqual(Math.max(16, Math.abs(s) / 16));
    }
  });

  it('converts whole frames', () => {
    const frame = Int16Array.from({ length: 160 }, (_, i) => Math.round(Math.sin(i / 5) * 10_000));
    const decoded = decodeAlaw(encodeAlaw(frame));
    expect(decoded).toHaveLength(160);
    decoded.forEach((v, i) => expect(Math.abs(v - frame[i]!)).toBeLessThan(700));
  });
});
