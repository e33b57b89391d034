import OpusScript from 'opusscript';

/**
 * Opus for the agent's peer, through opusscript (libopus 1.4 compiled to WebAssembly: no native
 * build, runs in the service process). The agent speaks mono 20 ms frames at 48 kHz, at a voice
 * bitrate; what the participant sends is decoded at 48 kHz, as one channel or two (mixed to one) as
 * the offer announced (`sprop-stereo=1`). Its CPU per frame is measured by `npm run bench --
 * room_audio` (the figures: docs/benchmarks.md and decision 122).
 */

export const OPUS_RATE = 48000;
/** 20 ms at 48 kHz: the frame the agent sends, and the unit the participant's audio is handed on in. */
export const OPUS_FRAME = 960;
/** Enough for speech at 48 kHz (wideband and then some), small enough for any connection. */
const VOICE_BITRATE = 32_000;
/** The encoder's CTL for in-band forward error correction (OPUS_SET_INBAND_FEC). */
const SET_INBAND_FEC = 4012;
/** The encoder's CTL for the expected packet loss in per cent (OPUS_SET_PACKET_LOSS_PERC). */
const SET_PACKET_LOSS_PERC = 4014;

export class OpusEncoder {
  private readonly opus = new OpusScript(OPUS_RATE, 1, OpusScript.Application.VOIP);

  constructor() {
    this.opus.setBitrate(VOICE_BITRATE);
    // Redundancy a receiver (a browser) can use to rebuild a lost packet from the next one.
    this.opus.encoderCTL(SET_INBAND_FEC, 1);
    this.opus.encoderCTL(SET_PACKET_LOSS_PERC, 5);
  }

  /** One 20 ms mono frame (960 samples) → one Opus packet. */
  encode(frame: Int16Array): Buffer {
    if (frame.length !== OPUS_FRAME) throw new RangeError(`An Opus frame here is ${OPUS_FRAME} samples.`);
    return this.opus.encode(Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength), OPUS_FRAME);
  }

  close(): void {
    this.opus.delete();
  }
}

export class OpusDecoder {
  private readonly opus: OpusScript;

  constructor(readonly channels: 1 | 2) {
    this.opus = new OpusScript(OPUS_RATE, channels, OpusScript.Application.VOIP);
  }

  /** A packet → its mono samples at 48 kHz (any of Opus's durations, 2.5 to 120 ms). Throws on a corrupt packet. */
  decode(packet: Buffer): Int16Array {
    if (packet.length === 0) return new Int16Array(0);
    return this.mono(this.opus.decode(packet));
  }

  /**
   * `samples` of Opus's packet loss concealment for a lost packet (a guess continuing the voice,
   * fading out). opusscript conceals 60 ms at a time (an empty packet): the first `samples` are kept.
   */
  conceal(samples: number): Int16Array {
    const guess = this.mono(this.opus.decode(Buffer.alloc(0)));
    const out = new Int16Array(samples);
    out.set(guess.subarray(0, samples));
    return out;
  }

  close(): void {
    this.opus.delete();
  }

  private mono(pcm: Buffer): Int16Array {
    const frames = Math.floor(pcm.length / 2 / this.channels);
    const out = new Int16Array(frames);
    if (this.channels === 1) for (let i = 0; i < frames; i++) out[i] = pcm.readInt16LE(i * 2);
    else for (let i = 0; i < frames; i++) out[i] = (pcm.readInt16LE(i * 4) + pcm.readInt16LE(i * 4 + 2)) >> 1;
    return out;
  }
}

/** Whether an offer's Opus (payload type `pt`) may carry two channels: its fmtp says sprop-stereo=1. */
export function offersStereo(sdp: string, pt: number): boolean {
  const fmtp = new RegExp(`^a=fmtp:${pt} (.*)$`, 'm').exec(sdp)?.[1] ?? '';
  return /(^|;)\s*sprop-stereo=1/.test(fmtp);
}
