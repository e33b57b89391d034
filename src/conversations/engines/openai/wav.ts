import { decodePcm16Wav, wavHeader } from '../../../kernel/audio/wav';

/**
 * The little of WAV the adapters need, on the kernel's WAV reader and header: a mono file around
 * samples (what the recogniser uploads), and the samples of one (a synthesis server that answers WAV
 * where raw PCM was asked).
 */

export function encodeWav(samples: Int16Array, sampleRate: number): Buffer {
  const data = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  return Buffer.concat([wavHeader(1, sampleRate, data.length), data]);
}

export function isWav(bytes: Buffer): boolean {
  return bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WAVE';
}

/** The samples of a 16-bit PCM WAV (its first channel when it has several); null for anything else. */
export function decodeWav(bytes: Buffer): { sampleRate: number; samples: Int16Array } | null {
  try {
    const { sampleRate, channels, samples } = decodePcm16Wav(bytes);
    if (channels <= 1) return { sampleRate, samples };
    const first = new Int16Array(Math.floor(samples.length / channels));
    for (let i = 0; i < first.length; i++) first[i] = samples[i * channels] ?? 0;
    return { sampleRate, samples: first };
  } catch {
    return null;
  }
}

/** Little-endian 16-bit samples of raw PCM bytes (an odd last byte is dropped). */
export function pcm16le(bytes: Buffer): Int16Array {
  const samples = new Int16Array(Math.floor(bytes.length / 2));
  for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2);
  return samples;
}
