import type { SampleFormat } from './audio-format';

/**
 * Limits read from a sample's own headers before a byte of it is decoded: a compressed frame can
 * stand for far more audio than its size (a FLAC frame of one constant value holds up to 65,535
 * samples per channel in a dozen bytes), so the headers that bound how much one frame may expand are
 * checked first. Every decoder is also fed small pieces (infra/audio-decoder.ts), which bounds what
 * one step of decoding allocates even when a frame lies about its header.
 */
export const AUDIO_LIMITS = {
  /** Channels at most (FLAC's own maximum; Vorbis and Opus could claim 255). */
  maxChannels: 8,
  /** FLAC's largest block (samples per channel in one frame) at most: the FLAC "subset" bound. */
  maxFlacBlockSize: 16_384,
} as const;

const ascii = (b: Uint8Array, at: number, text: string): boolean => {
  if (at + text.length > b.length) return false;
  for (let i = 0; i < text.length; i++) if (b[at + i] !== text.charCodeAt(i)) return false;
  return true;
};

/**
 * Why the file's headers are refused (for a 400 at upload), or null. `head` is the file's first bytes
 * (SNIFF_BYTES of them); headers not found there are left to the decoder to refuse.
 */
export function audioHeaderProblem(head: Uint8Array, format: SampleFormat): string | null {
  if (format === 'flac') return flacProblem(head);
  if (format === 'ogg_vorbis' || format === 'ogg_opus') return oggProblem(head, format);
  return null; // WAV is plain PCM (no expansion); an MP3 frame is at most 1,152 samples per channel of 2
}

function flacProblem(head: Uint8Array): string | null {
  let at = 0;
  if (ascii(head, 0, 'ID3')) {
    const size = ((head[6] ?? 0) << 21) | ((head[7] ?? 0) << 14) | ((head[8] ?? 0) << 7) | (head[9] ?? 0);
    at = 10 + size + ((head[5] ?? 0) & 0x10 ? 10 : 0);
  }
  // "fLaC", then the first metadata block, which must be STREAMINFO (type 0) of 34 bytes.
  const info = at + 8;
  // Without STREAMINFO first, the decoder says why it does not decode (frames are bounded anyway).
  if (!ascii(head, at, 'fLaC') || ((head[at + 4] ?? 0xff) & 0x7f) !== 0 || head.length < info + 18) return null;
  const maxBlock = ((head[info + 2] ?? 0) << 8) | (head[info + 3] ?? 0);
  const channels = (((head[info + 12] ?? 0) >> 1) & 7) + 1;
  if (maxBlock > AUDIO_LIMITS.maxFlacBlockSize)
    return `its FLAC blocks of up to ${maxBlock} samples are larger than ${AUDIO_LIMITS.maxFlacBlockSize}`;
  if (channels > AUDIO_LIMITS.maxChannels) return `it has ${channels} channels (at most ${AUDIO_LIMITS.maxChannels})`;
  return null;
}

function oggProblem(head: Uint8Array, format: 'ogg_vorbis' | 'ogg_opus'): string | null {
  // The identification header starts after the first page's 27-byte header and its segment table.
  const body = 27 + (head[26] ?? 0);
  const opus = format === 'ogg_opus';
  // Not the codec's identification header: the decoder says why it does not decode.
  if (!(opus ? ascii(head, body, 'OpusHead') : head[body] === 1 && ascii(head, body + 1, 'vorbis'))) return null;
  const channels = head[opus ? body + 9 : body + 11]; // OpusHead: channel count; Vorbis: audio_channels
  if (channels === undefined || channels === 0) return null;
  if (channels > AUDIO_LIMITS.maxChannels) return `it has ${channels} channels (at most ${AUDIO_LIMITS.maxChannels})`;
  return null;
}
