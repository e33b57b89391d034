/**
 * Splits a native FLAC stream into pieces of whole frames before it reaches the decoder, so that
 * one decoding step never holds more than a bounded number of samples. The decoder decodes every
 * frame of a piece at once and believes each frame's own header (not STREAMINFO), and a frame of
 * one constant value is about a dozen bytes for up to 65,535 samples per channel: without this, 16 KB
 * of input could decode to a gigabyte of PCM in one step. A frame whose header declares more than
 * `maxBlockSize` samples is refused.
 *
 * Frames are found as the decoder's own parser finds them: a frame header (sync code, header CRC-8)
 * where the bytes since the previous one end with a CRC-16 of zero.
 */
export class FlacFrameTooLarge extends Error {}

/** No valid frame is this long (16,384 samples of 8 channels of 32 bits verbatim are 512 KB). */
const MAX_FRAME_BYTES = 1024 * 1024;

const ascii = (b: Uint8Array, at: number, text: string): boolean =>
  at + text.length <= b.length && [...text].every((c, i) => b[at + i] === c.charCodeAt(0));

const CRC16 = Uint16Array.from({ length: 256 }, (_, i) => {
  let c = i << 8;
  for (let k = 0; k < 8; k++) c = c & 0x8000 ? (c << 1) ^ 0x8005 : c << 1;
  return c & 0xffff;
});

/** Length of the frame header at `p` (CRC-8 checked), or -1. */
function headerLength(b: Uint8Array, p: number): number {
  if (p + 5 > b.length || b[p] !== 0xff || ((b[p + 1] ?? 0) & 0xfe) !== 0xf8) return -1;
  const bs = (b[p + 2] ?? 0) >> 4;
  const sr = (b[p + 2] ?? 0) & 15;
  if (!bs || sr === 15 || (b[p + 3] ?? 0) >> 4 > 10 || (b[p + 3] ?? 0) & 1) return -1;
  const c = b[p + 4] ?? 0;
  const n = c < 0x80 ? 0 : c < 0xe0 ? 1 : c < 0xf0 ? 2 : c < 0xf8 ? 3 : c < 0xfc ? 4 : c < 0xfe ? 5 : 6;
  const q = p + 5 + n + (bs === 6 ? 1 : bs === 7 ? 2 : 0) + (sr === 12 ? 1 : sr === 13 || sr === 14 ? 2 : 0);
  if (q >= b.length) return -1;
  let crc = 0;
  for (let i = p; i < q; i++) {
    crc ^= b[i] ?? 0;
    for (let k = 0; k < 8; k++) crc = crc & 0x80 ? ((crc << 1) ^ 7) & 0xff : (crc << 1) & 0xff;
  }
  return crc === b[q] ? q - p + 1 : -1;
}

/** Samples per channel the frame header at `p` declares. */
function blockSize(b: Uint8Array, p: number): number {
  const bs = (b[p + 2] ?? 0) >> 4;
  const c = b[p + 4] ?? 0;
  const q = p + 5 + (c < 0x80 ? 0 : c < 0xe0 ? 1 : c < 0xf0 ? 2 : c < 0xf8 ? 3 : c < 0xfc ? 4 : c < 0xfe ? 5 : 6);
  if (bs === 1) return 192;
  if (bs <= 5) return 576 << (bs - 2);
  if (bs === 6) return (b[q] ?? 0) + 1;
  if (bs === 7) return (((b[q] ?? 0) << 8) | (b[q + 1] ?? 0)) + 1;
  return 256 << (bs - 8);
}

const concat = (a: Uint8Array, b: Uint8Array): Uint8Array => {
  if (a.length === 0) return b;
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
};

/**
 * The stream's bytes again, in pieces: first everything before the first frame (an ID3 tag, "fLaC",
 * the metadata blocks), then whole frames, at most `samplesPerPiece` samples per channel a piece
 * (at least one frame); whatever follows the last complete frame comes last.
 */
export async function* flacPieces(
  source: AsyncIterable<Uint8Array>,
  maxBlockSize: number,
  samplesPerPiece: number,
): AsyncGenerator<Uint8Array> {
  let buf: Uint8Array = new Uint8Array(0);
  let meta = true;
  let start = -1; // where the current frame starts in buf
  let scan = 0;
  let crc = 0;
  let pieceEnd = 0; // bytes of buf (from 0) that form the piece being gathered
  let pieceSamples = 0;
  const check = (at: number): number => {
    const size = blockSize(buf, at);
    if (size > maxBlockSize)
      throw new FlacFrameTooLarge(`a FLAC frame of ${size} samples is larger than ${maxBlockSize}`);
    return size;
  };
  for await (const chunk of source) {
    buf = concat(buf, chunk);
    if (meta) {
      let o = 0;
      if (ascii(buf, 0, 'ID3')) {
        if (buf.length < 10) continue;
        o = 10 + (((buf[6] ?? 0) << 21) | ((buf[7] ?? 0) << 14) | ((buf[8] ?? 0) << 7) | (buf[9] ?? 0));
        o += (buf[5] ?? 0) & 0x10 ? 10 : 0;
      }
      if (o + 4 > buf.length) continue;
      if (ascii(buf, o, 'fLaC')) {
        o += 4;
        let last = false;
        while (!last && o + 4 <= buf.length) {
          last = ((buf[o] ?? 0) & 0x80) !== 0;
          o += 4 + (((buf[o + 1] ?? 0) << 16) | ((buf[o + 2] ?? 0) << 8) | (buf[o + 3] ?? 0));
        }
        if (!last || o > buf.length) continue;
      }
      meta = false;
      yield buf.subarray(0, o);
      buf = buf.subarray(o);
    }
    if (start < 0) {
      let p = 0;
      while (p + 1 < buf.length && headerLength(buf, p) < 0) p++;
      if (headerLength(buf, p) < 0) continue;
      start = scan = p;
      crc = 0;
      pieceEnd = p;
      check(p);
    }
    for (;;) {
      let next = -1;
      for (; scan < buf.length; scan++) {
        if (scan > start + 3 && crc === 0 && buf[scan] === 0xff && headerLength(buf, scan) > 0) {
          next = scan;
          break;
        }
        crc = (CRC16[(crc >> 8) ^ (buf[scan] ?? 0)] ?? 0) ^ ((crc << 8) & 0xffff);
      }
      if (next < 0) {
        if (scan - start > MAX_FRAME_BYTES) throw new FlacFrameTooLarge('a FLAC frame is longer than 1 MB');
        break;
      }
      // The frame [start, next) is whole: it joins the piece, or the piece goes first.
      const samples = blockSize(buf, start);
      if (pieceSamples > 0 && pieceSamples + samples > samplesPerPiece) {
        yield buf.subarray(0, pieceEnd);
        buf = buf.subarray(pieceEnd);
        [start, next, scan] = [start - pieceEnd, next - pieceEnd, scan - pieceEnd];
        pieceEnd = pieceSamples = 0;
      }
      pieceSamples += samples;
      pieceEnd = next;
      start = scan = next;
      crc = 0;
      check(start);
    }
  }
  if (buf.length > 0) yield buf;
}
