import type { RTCRtpCodecParameters } from 'werift';
import { decodeUlaw, encodeUlaw } from '../../kernel/audio/g711';
import { RateConverter } from '../../kernel/audio/rate-converter';
import type { TimelineRecorder } from '../../kernel/media/dual-channel-recorder';
import { JitterBuffer } from '../../kernel/media/jitter-buffer';
import { OPUS_FRAME, OPUS_RATE, OpusDecoder, OpusEncoder, offersStereo } from './opus-codec';

/**
 * The audio of one call of the agent's peer, for the codec the offer and answer settled on: Opus
 * (48 kHz, preferred) or PCMU (8 kHz). Inbound: RTP packets put back in order (a 60 ms reorder window: JitterBuffer.reorder), decoded
 * (a lost packet concealed: Opus's own concealment, or silence for PCMU), cut into 20 ms frames for
 * the listeners, and recorded on the participant's channel at their place on the timeline (by RTP
 * timestamp). Outbound: 20 ms frames encoded for RTP, and recorded on the agent's channel. The
 * recording is at the recorder's rate (16 kHz for Opus calls): converted here with a low-pass.
 */

export interface CallCodec {
  name: 'opus' | 'pcmu';
  /** The payload type the offer gave the codec (the answer keeps it). */
  payloadType: number;
  /** The codec's sample rate and RTP clock. */
  rate: number;
  /** Samples in one 20 ms frame at `rate`. */
  frame: number;
  /** Channels the participant may send (Opus with sprop-stereo=1: two, mixed to one here). */
  channels: 1 | 2;
}

/** The codec of the call: the first the answer negotiated that the agent speaks (Opus before PCMU). */
export function callCodecOf(negotiated: readonly RTCRtpCodecParameters[], offerSdp: string): CallCodec | null {
  for (const codec of negotiated) {
    const name = codec.mimeType.toLowerCase();
    if (name === 'audio/opus')
      return {
        name: 'opus',
        payloadType: codec.payloadType,
        rate: OPUS_RATE,
        frame: OPUS_FRAME,
        channels: offersStereo(offerSdp, codec.payloadType) ? 2 : 1,
      };
    if (name === 'audio/pcmu')
      return { name: 'pcmu', payloadType: codec.payloadType, rate: 8000, frame: 160, channels: 1 };
  }
  return null;
}

/** The participant's side: from RTP packets to 20 ms frames and the recording. */
export class InboundAudio {
  private readonly reorder: JitterBuffer<{ timestamp: number; payload: Buffer }>;
  private readonly decoder: OpusDecoder | null;
  private readonly toRecording: RateConverter;
  /** The timeline anchor: where on the recording (in codec samples) the anchored RTP timestamp is. */
  private anchor = { ts: 0, position: -1 };
  /** Where the next decoded sample goes (codec samples from the recording's start). */
  private next = 0;
  private lastLength: number;
  private pending = new Int16Array(0);

  constructor(
    private readonly codec: CallCodec,
    private readonly recorder: TimelineRecorder,
    /** Milliseconds since the recording started (its timeline's clock). */
    private readonly elapsed: () => number,
    private readonly onFrame: (frame: Int16Array) => void,
  ) {
    this.decoder = codec.name === 'opus' ? new OpusDecoder(codec.channels) : null;
    this.toRecording = new RateConverter(codec.rate, recorder.sampleRate);
    this.lastLength = codec.frame;
    this.reorder = JitterBuffer.reorder({
      packet: (p) => this.heard(p.timestamp, this.decode(p.payload)),
      lost: () => this.heard(null, this.conceal()),
    });
  }

  push(sequenceNumber: number, timestamp: number, payload: Buffer, now: number): void {
    this.reorder.push(sequenceNumber, { timestamp, payload }, now);
  }

  tick(now: number): void {
    this.reorder.tick(now);
  }

  close(): void {
    this.decoder?.close();
  }

  private decode(payload: Buffer): Int16Array | null {
    if (!this.decoder) return decodeUlaw(payload);
    try {
      return this.decoder.decode(payload);
    } catch {
      return null; // a corrupt packet: concealed like a lost one
    }
  }

  private conceal(): Int16Array {
    return this.decoder ? this.decoder.conceal(this.lastLength) : new Int16Array(this.lastLength);
  }

  /**
   * Places decoded audio on the timeline: by its RTP timestamp, anchored at the first packet's
   * arrival and re-anchored when the timestamps stray from the clock by more than a second (the
   * browser restarted its stream); concealment (no timestamp) follows on from the last audio.
   */
  private heard(ts: number | null, decoded: Int16Array | null): void {
    const samples = decoded ?? this.conceal();
    if (samples.length === 0) return;
    const rate = this.codec.rate;
    let position = this.next;
    if (ts !== null) {
      const byClock = Math.round((this.elapsed() * rate) / 1000);
      position = this.anchor.position < 0 ? -1 : this.anchor.position + ((ts - this.anchor.ts) >>> 0);
      if (position < 0 || Math.abs(position - byClock) > rate) {
        this.anchor = { ts, position: byClock };
        position = byClock;
      }
    }
    this.lastLength = samples.length;
    this.next = position + samples.length;
    const ratio = this.recorder.sampleRate / rate;
    this.recorder.write(1, Math.round(position * ratio), this.toRecording.process(samples));
    this.frames(samples);
  }

  /** Hands the audio on in exact 20 ms frames (a packet may hold 10, 20, 40 or 60 ms). */
  private frames(samples: Int16Array): void {
    const size = this.codec.frame;
    if (this.pending.length === 0 && samples.length === size) return this.onFrame(samples);
    const all = new Int16Array(this.pending.length + samples.length);
    all.set(this.pending);
    all.set(samples, this.pending.length);
    let at = 0;
    for (; at + size <= all.length; at += size) this.onFrame(all.slice(at, at + size));
    this.pending = all.slice(at);
  }
}

/** The agent's side: 20 ms frames to RTP payloads, recorded as sent. */
export class OutboundAudio {
  private readonly encoder: OpusEncoder | null;
  private readonly toRecording: RateConverter;
  private readonly silence: Int16Array;

  constructor(
    private readonly codec: CallCodec,
    private readonly recorder: TimelineRecorder,
  ) {
    this.encoder = codec.name === 'opus' ? new OpusEncoder() : null;
    this.toRecording = new RateConverter(codec.rate, recorder.sampleRate);
    this.silence = new Int16Array(codec.frame);
  }

  /**
   * The payload for one frame (null: silence), recorded at `position` (codec samples from the
   * recording's start) when it is not silence. A frame of another length is cut or padded.
   */
  payload(frame: Int16Array | null, position: number): Buffer {
    let pcm = frame ?? this.silence;
    if (pcm.length !== this.codec.frame) {
      const fitted = new Int16Array(this.codec.frame);
      fitted.set(pcm.subarray(0, this.codec.frame));
      pcm = fitted;
    }
    const recorded = this.toRecording.process(pcm);
    if (frame) this.recorder.write(0, Math.round((position * this.recorder.sampleRate) / this.codec.rate), recorded);
    return this.encoder ? this.encoder.encode(pcm) : encodeUlaw(pcm);
  }

  close(): void {
    this.encoder?.close();
  }
}
