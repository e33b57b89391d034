import { OpusDecoder, OpusEncoder } from '../src/rooms/infra/opus-codec';
import { MediaStreamTrack, RTCPeerConnection, RTCRtpCodecParameters, RtpHeader, RtpPacket } from 'werift';

/** 20 ms at 48 kHz. */
const FRAME = 960;
const FRAME_MS = 20;
const OPUS_PT = 111;
/** A decoded frame louder than this (RMS) is the agent speaking. */
const VOICE_RMS = 300;

/**
 * A room participant for the agent benchmark: a werift peer offering Opus from 127.0.0.1, as a
 * browser would, that speaks prepared 48 kHz utterances on a real-time 20 ms clock (silence between
 * them) and listens to the agent, noting when each decoded frame of the agent's voice arrived.
 */
/** The service had no room for the call (503 `at_capacity`, docs/capacity.md): refused, not failed. */
export class JoinRefused extends Error {}

export class VoiceClient {
  private queue: Int16Array[] = [];
  // The service's own codec classes: opusscript's class overruns its heap past about 77 codecs (opus-codec.ts).
  private readonly encoder = new OpusEncoder();
  private readonly decoder = new OpusDecoder(1);
  private pacer: NodeJS.Timeout | null = null;
  /** Arrival times of the agent's voiced frames, and of every agent packet (for the jitter). */
  readonly voiced: number[] = [];
  readonly arrivals: number[] = [];
  /** When the last frame of queued speech was sent (null while some is queued). */
  private speechSentAt: number | null = null;
  private firstSpeechFrameAt: number | null = null;

  /** The WHIP resource of the call (its Location): DELETE hangs up. */
  private resource: string | null = null;

  private constructor(
    private readonly pc: RTCPeerConnection,
    private readonly mic: MediaStreamTrack,
  ) {}

  static async join(whipUrl: string): Promise<VoiceClient> {
    const pc = new RTCPeerConnection({
      codecs: {
        audio: [
          new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48000, channels: 2, payloadType: OPUS_PT }),
        ],
        video: [],
      },
      iceServers: [],
      iceUseIpv6: false,
      iceAdditionalHostAddresses: ['127.0.0.1'],
      iceInterfaceAddresses: { udp4: '127.0.0.1' },
    });
    const mic = new MediaStreamTrack({ kind: 'audio' });
    const client = new VoiceClient(pc, mic);
    const transceiver = pc.addTransceiver(mic, { direction: 'sendrecv' });
    transceiver.onTrack.subscribe((track) => track.onReceiveRtp.subscribe((rtp) => client.heard(rtp.payload)));
    await pc.setLocalDescription(await pc.createOffer());
    await new Promise<void>((resolve) => {
      if (pc.iceGatheringState === 'complete') return resolve();
      pc.iceGatheringStateChange.subscribe((s) => s === 'complete' && resolve());
    });
    const res = await fetch(whipUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/sdp' },
      body: pc.localDescription?.sdp ?? '',
    });
    const answer = await res.text();
    if (res.status === 503) {
      await pc.close();
      throw new JoinRefused(answer.slice(0, 200));
    }
    if (res.status !== 201) throw new Error(`WHIP offer: ${res.status} ${answer.slice(0, 200)}`);
    const location = res.headers.get('location');
    client.resource = location ? new URL(location, whipUrl).toString() : null;
    await pc.setRemoteDescription({ type: 'answer', sdp: answer });
    client.startPacer();
    return client;
  }

  /** Queues an utterance (48 kHz mono); resolves with when its first and last frames went out. */
  async speak(pcm: Int16Array): Promise<{ startedAt: number; endedAt: number }> {
    this.speechSentAt = null;
    this.firstSpeechFrameAt = null;
    for (let i = 0; i < pcm.length; i += FRAME) {
      const frame = new Int16Array(FRAME);
      frame.set(pcm.subarray(i, i + FRAME));
      this.queue.push(frame);
    }
    while (this.speechSentAt === null) await sleep(5);
    return { startedAt: this.firstSpeechFrameAt ?? this.speechSentAt, endedAt: this.speechSentAt };
  }

  /** The first voiced agent frame that arrived after `after`, waiting up to `timeoutMs`; null if none. */
  async agentStartsAfter(after: number, timeoutMs: number): Promise<number | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const first = this.voiced.find((t) => t > after);
      if (first !== undefined) return first;
      if (Date.now() > deadline) return null;
      await sleep(5);
    }
  }

  /** Waits until the agent has been quiet for `quietMs`; the time of its last voiced frame. */
  async agentQuiet(quietMs: number, timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const last = this.voiced[this.voiced.length - 1] ?? 0;
      if (Date.now() - last >= quietMs || Date.now() > deadline) return last;
      await sleep(10);
    }
  }

  /** Hangs up (WHIP DELETE, as the page's "Hang up" does) and closes the peer. */
  async close(): Promise<void> {
    if (this.pacer) clearInterval(this.pacer);
    this.pacer = null;
    if (this.resource) await fetch(this.resource, { method: 'DELETE' }).catch(() => undefined);
    this.resource = null;
    await this.pc.close().catch(() => undefined);
    this.encoder.close();
    this.decoder.close();
  }

  private heard(payload: Buffer): void {
    const now = Date.now();
    this.arrivals.push(now);
    let samples: Int16Array;
    try {
      samples = this.decoder.decode(payload);
    } catch {
      return;
    }
    let sum = 0;
    for (const s of samples) sum += s * s;
    if (samples.length > 0 && Math.sqrt(sum / samples.length) > VOICE_RMS) this.voiced.push(now);
  }

  private startPacer(): void {
    const ssrc = (Math.random() * 0xffffffff) >>> 0;
    const silence = new Int16Array(FRAME);
    const t0 = Date.now();
    let sent = 0;
    this.pacer = setInterval(() => {
      const due = Math.floor((Date.now() - t0) / FRAME_MS) + 1;
      for (; sent < due; sent++) {
        const frame = this.queue.shift();
        if (frame && this.firstSpeechFrameAt === null) this.firstSpeechFrameAt = Date.now();
        const pcm = frame ?? silence;
        const packet = this.encoder.encode(pcm);
        const header = new RtpHeader({
          payloadType: OPUS_PT,
          sequenceNumber: sent & 0xffff,
          timestamp: (sent * FRAME) >>> 0,
          ssrc,
          marker: sent === 0,
        });
        this.mic.writeRtp(new RtpPacket(header, packet));
        if (frame && this.queue.length === 0) this.speechSentAt = Date.now();
      }
    }, FRAME_MS);
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
