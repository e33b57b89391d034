/**
 * The little of WAV the adapters need: a 16-bit mono PCM file around samples (what the recogniser
 * uploads), and reading one back (a synthesis server that answers WAV where raw PCM was asked).
 */

export function encodeWav(samples: Int16Array, sampleRate: number): Buffer {
  const data = samples.length * 2;
  const wav = Buffer.alloc(44 + data);
  wav.write('RIFF', 0, 'latin1');
  wav.writeUInt32LE(36 + data, 4);
  wav.write('WAVE', 8, 'latin1');
  wav.write('fmt ', 12, 'latin1');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(sampleRate, 24);
  wav.writeUInt32LE(sampleRate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'latin1');
  wav.writeUInt32LE(data, 40);
  Buffer.from(samples.buffer, samples.byteOffset, data).copy(wav, 44);
  return wav;
}

export function isWav(bytes: Buffer): boolean {
  return bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WAVE';
}

/**
 * The samples of a 16-bit PCM WAV, mono or the first channel of several; null when it is another
 * encoding or malformed. A streamed WAV's sizes (0 or 0xFFFFFFFF) are read as "to the end".
 */
export function decodeWav(bytes: Buffer): { sampleRate: number; samples: Int16Array } | null {
  if (!isWav(bytes)) return null;
  let format: { channels: number; sampleRate: number; bits: number; tag: number } | null = null;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const id = bytes.toString('latin1', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'fmt ' && body + 16 <= bytes.length) {
      format = {
        tag: bytes.readUInt16LE(body),
        channels: bytes.readUInt16LE(body + 2),
        sampleRate: bytes.readUInt32LE(body + 4),
        bits: bytes.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      // WAVE_FORMAT_EXTENSIBLE (0xfffe) carries PCM too; its subformat is not checked.
      if (!format || (format.tag !== 1 && format.tag !== 0xfffe) || format.bits !== 16 || format.channels < 1) {
        return null;
      }
      const end = size === 0 || size === 0xffffffff ? bytes.length : Math.min(bytes.length, body + size);
      const frames = Math.floor((end - body) / (2 * format.channels));
      const samples = new Int16Array(frames);
      for (let i = 0; i < frames; i++) samples[i] = bytes.readInt16LE(body + i * 2 * format.channels);
      return { sampleRate: format.sampleRate, samples };
    }
    at = body + size + (size % 2);
  }
  return null;
}

/** Little-endian 16-bit samples of raw PCM bytes (an odd last byte is dropped). */
export function pcm16le(bytes: Buffer): Int16Array {
  const samples = new Int16Array(Math.floor(bytes.length / 2));
  for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2);
  return samples;
}
