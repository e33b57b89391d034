import OpusScript from 'opusscript';
import { OPUS_FRAME, OpusDecoder, OpusEncoder, offersStereo } from './opus-codec';

const tone = (hz: number, n: number, from = 0) =>
  Int16Array.from({ length: n }, (_, i) => Math.round(Math.sin((2 * Math.PI * hz * (from + i)) / 48000) * 8000));
const rms = (xs: Int16Array) => Math.sqrt(xs.reduce((s, v) => s + v * v, 0) / Math.max(1, xs.length));

describe('opus codec (opusscript)', () => {
  it('encodes 20 ms mono frames and decodes them back, mono and stereo-mixed', () => {
    const encoder = new OpusEncoder();
    const mono = new OpusDecoder(1);
    const stereo = new OpusDecoder(2);
    const heard: Int16Array[] = [];
    const mixed: Int16Array[] = [];
    for (let f = 0; f < 50; f++) {
      const packet = encoder.encode(tone(440, OPUS_FRAME, f * OPUS_FRAME));
      expect(packet.length).toBeLessThan(200); // 32 kbit/s: about 80 bytes a frame
      heard.push(mono.decode(packet));
      mixed.push(stereo.decode(packet));
    }
    expect(heard.every((f) => f.length === OPUS_FRAME)).toBe(true);
    expect(mixed.every((f) => f.length === OPUS_FRAME)).toBe(true);
    const late = (fs: Int16Array[]) => Int16Array.from(fs.slice(10).flatMap((f) => [...f]));
    // The tone's level comes through (8000 peak: about 5657 RMS).
    expect(rms(late(heard))).toBeGreaterThan(4500);
    expect(rms(late(heard))).toBeLessThan(7000);
    expect(rms(late(mixed))).toBeGreaterThan(4500);
    // A lost packet is concealed with a 20 ms guess; a corrupt one throws.
    expect(mono.conceal(OPUS_FRAME).length).toBe(OPUS_FRAME);
    expect(mono.decode(encoder.encode(tone(440, OPUS_FRAME))).length).toBe(OPUS_FRAME);
    expect(mono.decode(Buffer.alloc(0)).length).toBe(0);
    expect(() => encoder.encode(new Int16Array(100))).toThrow(RangeError);
    encoder.close();
    mono.close();
    stereo.close();
    // Closed, a codec's memory may be another's: it refuses to run rather than touch it.
    expect(() => mono.decode(Buffer.from([1, 2, 3]))).toThrow('closed');
    expect(() => encoder.encode(tone(440, OPUS_FRAME))).toThrow('closed');
  });

  it('makes the same packets and samples as opusscript’s own class, for one codec', () => {
    const ours = new OpusEncoder();
    const theirs = new OpusScript(48000, 1, OpusScript.Application.VOIP);
    theirs.setBitrate(32_000);
    theirs.encoderCTL(4012, 1);
    theirs.encoderCTL(4014, 5);
    const decoder = new OpusDecoder(1);
    const theirDecoder = new OpusScript(48000, 1, OpusScript.Application.VOIP);
    try {
      for (let f = 0; f < 20; f++) {
        const frame = tone(523, OPUS_FRAME, f * OPUS_FRAME);
        const packet = ours.encode(frame);
        expect(packet.equals(theirs.encode(Buffer.from(frame.buffer), OPUS_FRAME))).toBe(true);
        const pcm = theirDecoder.decode(packet);
        expect(decoder.decode(packet)).toEqual(
          new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.length)),
        );
      }
    } finally {
      ours.close();
      decoder.close();
      theirs.delete();
      theirDecoder.delete();
    }
  });

  it('carries 100 rooms’ codecs at once, each its own audio (opusscript’s class overran its heap at 77 codecs)', () => {
    const pairs = Array.from({ length: 100 }, () => ({ encoder: new OpusEncoder(), decoder: new OpusDecoder(1) }));
    try {
      const levels: number[] = [];
      for (let f = 0; f < 10; f++) {
        // Interleaved: every codec encodes and decodes between the others' frames.
        pairs.forEach(({ encoder, decoder }, i) => {
          const heard = decoder.decode(encoder.encode(tone(300 + 10 * i, OPUS_FRAME, f * OPUS_FRAME)));
          if (f === 9) levels.push(rms(heard));
        });
      }
      // Each tone comes through at its level (8000 peak: about 5657 RMS), none garbled by another.
      expect(Math.min(...levels)).toBeGreaterThan(4500);
      expect(Math.max(...levels)).toBeLessThan(7000);
    } finally {
      for (const { encoder, decoder } of pairs) {
        encoder.close();
        decoder.close();
      }
    }
  });

  it('reads sprop-stereo from the offer’s fmtp for that payload type', () => {
    const sdp = 'a=rtpmap:111 opus/48000/2\r\na=fmtp:111 minptime=10;useinbandfec=1;sprop-stereo=1\r\n';
    expect(offersStereo(sdp, 111)).toBe(true);
    expect(offersStereo(sdp.replace('sprop-stereo=1', 'stereo=1'), 111)).toBe(false);
    expect(offersStereo(sdp, 96)).toBe(false);
  });
});
