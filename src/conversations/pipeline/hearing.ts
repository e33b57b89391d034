import { RateConverter } from '../../kernel/audio/rate-converter';
import type { RecognitionStream } from '../engines/engines';
import { ENDPOINTING, type EndpointEvent, Endpointer, type EndpointingSettings } from './endpointer';
import { VoiceActivityDetector } from './voice-activity';

/** An utterance being recognised; `over`: it began over the agent's voice (maybe a barge-in). */
export interface Utterance {
  stream: RecognitionStream;
  /** ms from the session's start. */
  startedAt: number;
  over: boolean;
}

/** The recogniser and the VAD take 20 ms frames at 16 kHz. */
const ENGINE_RATE = 16000;
const ENGINE_FRAME = 320;

/**
 * What the conversation hears, frame by frame: the transport's audio at 16 kHz in 20 ms frames, each
 * with the VAD's decision and the endpointer's event (the start, a frame, or the end of an utterance).
 */
export class Hearing {
  private readonly vad = new VoiceActivityDetector();
  readonly endpointer: Endpointer;
  private readonly toEngineRate: RateConverter | null;
  private pending = new Int16Array(0);

  constructor(transportRate: number, endpointingMs: number | undefined) {
    this.toEngineRate = transportRate === ENGINE_RATE ? null : new RateConverter(transportRate, ENGINE_RATE);
    const settings: EndpointingSettings =
      endpointingMs === undefined
        ? ENDPOINTING
        : { ...ENDPOINTING, endSilenceFrames: Math.max(1, Math.round(endpointingMs / ENDPOINTING.frameMs)) };
    this.endpointer = new Endpointer(settings);
  }

  /** One frame of the transport: `each` is called for every 20 ms frame at 16 kHz it completes. */
  hear(frame: Int16Array, each: (event: EndpointEvent | null, voiced: boolean) => void): void {
    let pcm = this.toEngineRate ? this.toEngineRate.process(frame) : frame;
    if (this.pending.length > 0 || pcm.length !== ENGINE_FRAME) {
      const joined = new Int16Array(this.pending.length + pcm.length);
      joined.set(this.pending);
      joined.set(pcm, this.pending.length);
      pcm = joined;
    }
    let at = 0;
    for (; at + ENGINE_FRAME <= pcm.length; at += ENGINE_FRAME) {
      const chunk = pcm.subarray(at, at + ENGINE_FRAME);
      const voiced = this.vad.isSpeech(chunk);
      each(this.endpointer.push(chunk, voiced), voiced);
    }
    this.pending = pcm.slice(at);
  }

  close(): void {
    this.endpointer.reset();
    this.vad.close();
  }
}
