/**
 * PCM WAV files: 16-bit little-endian, interleaved channels. The simulator synthesises a dual-channel
 * recording (agent left, caller right) of the call's length so that players and tools can open it;
 * rooms record real audio in the same layout.
 */

/** The canonical 44-byte header of a 16-bit PCM WAV holding `dataBytes` bytes of samples. */
export function wavHeader(channels: number, sampleRate: number, dataBytes: number): Buffer {
  const buf = Buffer.alloc(44);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + dataBytes, 4);
  buf.write('WAVE', 8, 'ascii');
  buf.write('fmt ', 12, 'ascii');
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20); // PCM
  buf.writeUInt16LE(channels, 22);
  buf.writeUInt32LE(sampleRate, 24);
  buf.writeUInt32LE(sampleRate * channels * 2, 28);
  buf.writeUInt16LE(channels * 2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(dataBytes, 40);
  return buf;
}

export interface PcmAudio {
  sampleRate: number;
  channels: number;
  /** Interleaved samples. */
  samples: Int16Array;
}

/**
 * Reads a 16-bit PCM WAV (any chunk layout: it walks the chunks to `fmt ` and `data`). Throws on
 * anything else; meant for audio the platform ships or wrote itself.
 */
export function decodePcm16Wav(buf: Buffer): PcmAudio {
  if (buf.length < 12 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE')
    throw new Error('not a RIFF/WAVE file');
  let format: { channels: number; sampleRate: number; bits: number; tag: number } | null = null;
  for (let at = 12; at + 8 <= buf.length;) {
    const id = buf.toString('ascii', at, at + 4);
    const size = buf.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'fmt ') {
      format = {
        tag: buf.readUInt16LE(body),
        channels: buf.readUInt16LE(body + 2),
        sampleRate: buf.readUInt32LE(body + 4),
        bits: buf.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      if (!format || format.tag !== 1 || format.bits !== 16) throw new Error('not 16-bit PCM');
      const end = Math.min(buf.length, body + size);
      const samples = new Int16Array(Math.floor((end - body) / 2));
      for (let i = 0; i < samples.length; i++) samples[i] = buf.readInt16LE(body + i * 2);
      return { sampleRate: format.sampleRate, channels: format.channels, samples };
    }
    at = body + size + (size % 2);
  }
  throw new Error('no data chunk');
}

export function synthesiseDualChannelWav(durationSeconds: number, sampleRate = 8000): Buffer {
  const channels = 2;
  const frames = Math.max(1, Math.round(durationSeconds * sampleRate));
  const dataBytes = frames * channels * 2;
  const buf = Buffer.alloc(44 + dataBytes);
  wavHeader(channels, sampleRate, dataBytes).copy(buf, 0);
  for (let i = 0; i < frames; i++) {
    const t = i / sampleRate;
    // Alternate "speakers" every 3 s so each channel has speech-like bursts and silences.
    const agentTalks = Math.floor(t / 3) % 2 === 0;
    const agent = agentTalks ? Math.sin(2 * Math.PI * 220 * t) * 0.3 : 0;
    const caller = agentTalks ? 0 : Math.sin(2 * Math.PI * 330 * t) * 0.3;
    buf.writeInt16LE(Math.round(agent * 32767), 44 + i * 4);
    buf.writeInt16LE(Math.round(caller * 32767), 44 + i * 4 + 2);
  }
  return buf;
}
