/**
 * A PCM WAV file: 16-bit little-endian, interleaved channels. The simulator synthesises a dual-channel
 * recording (agent left, caller right) of the call's length so that players and tools can open it.
 */
export function synthesiseDualChannelWav(durationSeconds: number, sampleRate = 8000): Buffer {
  const channels = 2;
  const frames = Math.max(1, Math.round(durationSeconds * sampleRate));
  const dataBytes = frames * channels * 2;
  const buf = Buffer.alloc(44 + dataBytes);
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
