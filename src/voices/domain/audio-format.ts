/**
 * The audio formats voice samples may be in (docs/voices.md, "API"), told from a file's first
 * bytes, never from its name or declared type. A file that sniffs as one of them still has to decode
 * (infra/audio-decoder.ts); what is measured is the decoded audio.
 */
export const SAMPLE_FORMATS = ['wav', 'flac', 'mp3', 'ogg_vorbis', 'ogg_opus'] as const;
export type SampleFormat = (typeof SAMPLE_FORMATS)[number];

/** How many leading bytes `sniffAudioFormat` wants (an ID3 tag before MP3 or FLAC audio may need more). */
export const SNIFF_BYTES = 64 * 1024;

const ascii = (b: Uint8Array, at: number, text: string): boolean => {
  if (at + text.length > b.length) return false;
  for (let i = 0; i < text.length; i++) if (b[at + i] !== text.charCodeAt(i)) return false;
  return true;
};

/** The format of a file from its first bytes, or null when it is none of the accepted ones. */
export function sniffAudioFormat(head: Uint8Array): SampleFormat | null {
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WAVE')) return 'wav';
  if (ascii(head, 0, 'fLaC')) return 'flac';
  if (ascii(head, 0, 'OggS')) {
    // The first page holds the codec's identification header (RFC 7845, Vorbis I spec): it starts
    // after the 27-byte page header and the segment table.
    const segments = head[26];
    if (segments === undefined) return null;
    const body = 27 + segments;
    if (ascii(head, body, 'OpusHead')) return 'ogg_opus';
    if (head[body] === 1 && ascii(head, body + 1, 'vorbis')) return 'ogg_vorbis';
    return null;
  }
  let at = 0;
  if (ascii(head, 0, 'ID3')) {
    // ID3v2: a 10-byte header whose size is four 7-bit bytes, plus a footer when flagged.
    const size = ((head[6] ?? 0) << 21) | ((head[7] ?? 0) << 14) | ((head[8] ?? 0) << 7) | (head[9] ?? 0);
    at = 10 + size + ((head[5] ?? 0) & 0x10 ? 10 : 0);
    if (ascii(head, at, 'fLaC')) return 'flac';
  }
  return isMp3Frame(head, at) ? 'mp3' : null;
}

const MPEG1_L3_KBPS = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MPEG2_L3_KBPS = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const MPEG1_RATES = [44100, 48000, 32000];

/** Length in bytes of the MPEG audio layer III frame at `at`, or null when there is none. */
function mp3FrameLength(b: Uint8Array, at: number): number | null {
  const b1 = b[at + 1];
  const b2 = b[at + 2];
  if (b[at] !== 0xff || b1 === undefined || b2 === undefined || (b1 & 0xe0) !== 0xe0) return null;
  const version = (b1 >> 3) & 3; // 0: MPEG 2.5, 1: reserved, 2: MPEG 2, 3: MPEG 1
  const layer = (b1 >> 1) & 3; // 1: layer III
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  if (version === 1 || layer !== 1 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const padding = (b2 >> 1) & 1;
  const rate = (MPEG1_RATES[rateIndex] ?? 0) / (version === 3 ? 1 : version === 2 ? 2 : 4);
  const kbps = (version === 3 ? MPEG1_L3_KBPS : MPEG2_L3_KBPS)[bitrateIndex] ?? 0;
  return Math.floor(((version === 3 ? 144 : 72) * kbps * 1000) / rate) + padding;
}

/** An MP3 frame header at `at`, followed by another where the first one ends (when the bytes reach it). */
function isMp3Frame(b: Uint8Array, at: number): boolean {
  const length = mp3FrameLength(b, at);
  if (length === null) return false;
  const next = at + length;
  return next + 3 > b.length || mp3FrameLength(b, next) !== null;
}

/** The file extension samples of a format are stored with. */
export const FORMAT_EXTENSION: Record<SampleFormat, string> = {
  wav: 'wav',
  flac: 'flac',
  mp3: 'mp3',
  ogg_vorbis: 'ogg',
  ogg_opus: 'opus',
};
