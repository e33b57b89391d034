import { createRequire } from 'node:module';
import OpusScript from 'opusscript';

/**
 * Opus for the agent's peer, through opusscript's build of libopus 1.4 in WebAssembly (no native
 * build, runs in the service process). The agent speaks mono 20 ms frames at 48 kHz, at a voice
 * bitrate; what the participant sends is decoded at 48 kHz, as one channel or two (mixed to one) as
 * the offer announced (`sprop-stereo=1`). Its CPU per frame is measured by `npm run bench --
 * room_audio` (the figures: docs/benchmarks.md and decision 122).
 *
 * The WebAssembly module is called directly, not through opusscript's `OpusScript` class: that class
 * (0.1.1, the latest) places its PCM buffers at twice their allocated address (a byte address used
 * as a 16-bit index), so each codec reads and writes memory it does not own, and past about 77 codecs
 * in one process the 16 MB heap is overrun (`RangeError: offset is out of bounds`). Here each buffer
 * is allocated at the size the module's C side uses (every byte of PCM held in a 16-bit cell) and
 * addressed where it was allocated; the packets and samples are the same as the class's (checked in
 * opus-codec.spec.ts).
 */

/** What opusscript's WebAssembly module exposes (its Emscripten glue). */
interface OpusNative {
  OpusScriptHandler: {
    new (rate: number, channels: number, application: number): OpusHandler;
    destroy_handler(handler: OpusHandler): void;
  };
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  /** Views of the heap: read each time (fixed at 16 MB, but the glue owns them). */
  HEAPU8: Uint8Array;
  HEAPU16: Uint16Array;
}

interface OpusHandler {
  /** PCM at `pcm` as one byte per 16-bit cell (`bytes` of them) → a packet at `out`; its length, or < 0. */
  _encode(pcm: number, bytes: number, out: number, frameSize: number): number;
  /** A packet → PCM at `out`, one byte per 16-bit cell; samples per channel, or < 0. */
  _decode(packet: number, bytes: number, out: number): number;
  _encoder_ctl(ctl: number, arg: number): number;
}

let nativeModule: OpusNative | null = null;

/** The one WebAssembly instance of the process, compiled when the first codec is made. */
function opusNative(): OpusNative {
  nativeModule ??= (createRequire(__filename)('opusscript/build/opusscript_native_wasm.js') as () => OpusNative)();
  return nativeModule;
}

/** Opus's largest frame (120 ms at 48 kHz) in samples per channel; what a decode may return. */
const MAX_FRAME = 5760;
/** The largest packet (RFC 6716: 1275 bytes per frame, three frames). */
const MAX_PACKET = 1276 * 3;

/** A handler and its buffers in the module's heap, freed by `close`. */
class OpusCodec {
  readonly native = opusNative();
  readonly handler: OpusHandler;
  /** PCM in or out: 2 bytes per sample, each byte in a 16-bit cell. */
  readonly pcm: number;
  readonly packet: number;
  private closed = false;

  /** `maxFrame`: the most samples per channel it holds (an encoder's frame, or any decoded packet). */
  constructor(channels: number, maxFrame: number) {
    this.handler = new this.native.OpusScriptHandler(OPUS_RATE, channels, OpusScript.Application.VOIP);
    this.pcm = this.native._malloc(maxFrame * channels * 2 * 2);
    this.packet = this.native._malloc(MAX_PACKET);
    if (this.pcm === 0 || this.packet === 0) {
      this.close();
      throw new Error('The Opus module has no memory left for another codec.');
    }
  }

  /** The codec's parts, to use now; throws once it is closed (its memory may be another codec's). */
  get open(): { native: OpusNative; handler: OpusHandler; pcm: number; packet: number } {
    if (this.closed) throw new Error('This Opus codec is closed.');
    return this;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.native.OpusScriptHandler.destroy_handler(this.handler);
    if (this.pcm !== 0) this.native._free(this.pcm);
    if (this.packet !== 0) this.native._free(this.packet);
  }
}

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
  private readonly codec = new OpusCodec(1, OPUS_FRAME);

  constructor() {
    this.ctl(4002, VOICE_BITRATE); // OPUS_SET_BITRATE
    // Redundancy a receiver (a browser) can use to rebuild a lost packet from the next one.
    this.ctl(SET_INBAND_FEC, 1);
    this.ctl(SET_PACKET_LOSS_PERC, 5);
  }

  /** One 20 ms mono frame (960 samples) → one Opus packet. */
  encode(frame: Int16Array): Buffer {
    if (frame.length !== OPUS_FRAME) throw new RangeError(`An Opus frame here is ${OPUS_FRAME} samples.`);
    const { native, handler, pcm, packet } = this.codec.open;
    const bytes = new Uint8Array(frame.buffer, frame.byteOffset, frame.byteLength);
    native.HEAPU16.set(bytes, pcm >> 1);
    const length = handler._encode(pcm, bytes.length, packet, OPUS_FRAME);
    if (length < 0) throw new Error(`Opus encoding failed (${length}).`);
    return Buffer.from(native.HEAPU8.subarray(packet, packet + length));
  }

  close(): void {
    this.codec.close();
  }

  private ctl(ctl: number, value: number): void {
    const result = this.codec.open.handler._encoder_ctl(ctl, value);
    if (result < 0) throw new Error(`Opus encoder setting ${ctl} failed (${result}).`);
  }
}

export class OpusDecoder {
  private readonly codec: OpusCodec;

  constructor(readonly channels: 1 | 2) {
    this.codec = new OpusCodec(channels, MAX_FRAME);
  }

  /** A packet → its mono samples at 48 kHz (any of Opus's durations, 2.5 to 120 ms). Throws on a corrupt packet. */
  decode(packet: Buffer): Int16Array {
    if (packet.length === 0) return new Int16Array(0);
    return this.run(packet);
  }

  /**
   * `samples` of Opus's packet loss concealment for a lost packet (a guess continuing the voice,
   * fading out). The module conceals 60 ms at a time (an empty packet): the first `samples` are kept.
   */
  conceal(samples: number): Int16Array {
    const guess = this.run(Buffer.alloc(0));
    const out = new Int16Array(samples);
    out.set(guess.subarray(0, samples));
    return out;
  }

  close(): void {
    this.codec.close();
  }

  private run(input: Buffer): Int16Array {
    const { native, handler, pcm, packet } = this.codec.open;
    if (input.length > MAX_PACKET) throw new RangeError('An Opus packet is at most 3,828 bytes.');
    native.HEAPU8.set(input, packet);
    const frames = handler._decode(packet, input.length, pcm);
    if (frames < 0) throw new Error(`Opus decoding failed (${frames}).`);
    // One byte of PCM per 16-bit cell: the cells' low bytes are the samples' bytes, little-endian.
    const cells = native.HEAPU16.subarray(pcm >> 1, (pcm >> 1) + frames * this.channels * 2);
    const out = new Int16Array(frames);
    for (let i = 0; i < frames; i++) {
      const at = i * 2 * this.channels;
      const first = sample(cells, at);
      out[i] = this.channels === 1 ? first : (first + sample(cells, at + 2)) >> 1;
    }
    return out;
  }
}

/** The 16-bit sample whose two bytes are the cells at `at` (low) and `at + 1` (high). */
function sample(cells: Uint16Array, at: number): number {
  const value = ((cells[at] ?? 0) & 0xff) | (((cells[at + 1] ?? 0) & 0xff) << 8);
  return value >= 0x8000 ? value - 0x10000 : value;
}

/** Whether an offer's Opus (payload type `pt`) may carry two channels: its fmtp says sprop-stereo=1. */
export function offersStereo(sdp: string, pt: number): boolean {
  const fmtp = new RegExp(`^a=fmtp:${pt} (.*)$`, 'm').exec(sdp)?.[1] ?? '';
  return /(^|;)\s*sprop-stereo=1/.test(fmtp);
}
