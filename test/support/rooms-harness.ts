/**
 * Helpers for the rooms e2e suites: Debian's chromium driven by playwright-core (never a downloaded
 * browser) with a fake microphone, a PCM WAV decoder independent of the project's, and what the
 * suites measure on a recording (per-channel RMS, correlation with the shipped greeting).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { REPO_ROOT } from './process';

export const CHROMIUM = '/usr/bin/chromium';

/** Headless, and nothing reaching out of the machine (no background networking, no QUIC, no updates). */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Headless chromium with a fresh profile, a fake microphone granted without a prompt, and nothing
 * reaching out of the machine (no background networking, no QUIC, no updates). The microphone plays
 * Chromium's beep, or `microphoneWav` (16-bit PCM, any rate: Chromium converts it) once, then silence.
 */
export async function launchBrowser(options: { microphoneWav?: string } = {}): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'rooms-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      ...CHROMIUM_ARGS,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      '--autoplay-policy=no-user-gesture-required',
      // Host candidates on 127.0.0.1 too (Chromium leaves loopback out by default): the call stays on
      // loopback, and works on a machine whose only interface is loopback.
      '--allow-loopback-in-peer-connection',
      // `%noloop`: played once (Chromium loops the file otherwise).
      ...(options.microphoneWav ? [`--use-file-for-fake-audio-capture=${options.microphoneWav}%noloop`] : []),
    ],
  });
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface Pcm {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** One array per channel, samples as numbers in [-32768, 32767]. */
  channelData: number[][];
}

/** Decodes a 16-bit PCM WAV by walking its chunks (written here, not shared with src/). */
export function decodeWav(buf: Buffer): Pcm {
  if (buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') throw new Error('not a WAV');
  let channels = 0;
  let sampleRate = 0;
  let bitsPerSample = 0;
  let format = 0;
  for (let at = 12; at + 8 <= buf.length;) {
    const id = buf.toString('ascii', at, at + 4);
    const size = buf.readUInt32LE(at + 4);
    if (id === 'fmt ') {
      format = buf.readUInt16LE(at + 8);
      channels = buf.readUInt16LE(at + 10);
      sampleRate = buf.readUInt32LE(at + 12);
      bitsPerSample = buf.readUInt16LE(at + 22);
    } else if (id === 'data') {
      if (format !== 1 || bitsPerSample !== 16)
        throw new Error(`not 16-bit PCM (format ${format}, ${bitsPerSample} bits)`);
      const frames = Math.floor(Math.min(size, buf.length - at - 8) / (2 * channels));
      const channelData = Array.from({ length: channels }, () => new Array<number>(frames));
      for (let i = 0; i < frames; i++)
        for (let c = 0; c < channels; c++) channelData[c]![i] = buf.readInt16LE(at + 8 + (i * channels + c) * 2);
      return { sampleRate, channels, bitsPerSample, channelData };
    }
    at += 8 + size + (size % 2);
  }
  throw new Error('no data chunk');
}

export function rms(samples: readonly number[], from = 0, to = samples.length): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += (samples[i] ?? 0) ** 2;
  return to > from ? Math.sqrt(sum / (to - from)) : 0;
}

/** The greeting the simulator's agent says, as shipped. */
export function shippedGreeting(): number[] {
  const pcm = decodeWav(readFileSync(join(REPO_ROOT, 'src', 'rooms', 'assets', 'greeting.wav')));
  return pcm.channelData[0]!;
}

/** Normalised cross-correlation of `needle` with `haystack` shifted by `offset` (1: an exact copy). */
function correlationAt(haystack: readonly number[], needle: readonly number[], offset: number): number {
  let dot = 0;
  let energy = 0;
  let needleEnergy = 0;
  for (let i = 0; i < needle.length; i++) {
    const h = haystack[offset + i] ?? 0;
    dot += needle[i]! * h;
    energy += h * h;
    needleEnergy += needle[i]! * needle[i]!;
  }
  return energy === 0 || needleEnergy === 0 ? 0 : dot / Math.sqrt(needleEnergy * energy);
}

/** Mean absolute amplitude per block of `size` samples: speech's envelope, for a coarse alignment. */
function envelope(samples: readonly number[], size: number): number[] {
  const out: number[] = [];
  for (let i = 0; i + size <= samples.length; i += size) {
    let sum = 0;
    for (let j = i; j < i + size; j++) sum += Math.abs(samples[j]!);
    out.push(sum / size);
  }
  return out;
}

/**
 * Where `needle` (e.g. the shipped greeting) best matches inside `haystack` (a recorded channel, same
 * rate), and how well: the envelopes (10 ms blocks at 8 kHz) are aligned first, then the offset is
 * refined sample by sample around it. r is the normalised cross-correlation there: about 1 for the
 * same audio through G.711, near 0 for other sound.
 */
export function bestCorrelation(haystack: readonly number[], needle: readonly number[]): { r: number; offset: number } {
  const block = 80;
  const [h, n] = [envelope(haystack, block), envelope(needle, block)];
  const centre = (xs: number[]) => {
    const mean = xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    return xs.map((x) => x - mean);
  };
  const nc = centre(n);
  let coarse = { r: -Infinity, offset: 0 };
  for (let offset = 0; offset + n.length <= h.length; offset++) {
    const r = correlationAt(centre(h.slice(offset, offset + n.length)), nc, 0);
    if (r > coarse.r) coarse = { r, offset };
  }
  let best = { r: -1, offset: 0 };
  const from = Math.max(0, (coarse.offset - 1) * block);
  for (let offset = from; offset <= from + 3 * block; offset++) {
    const r = correlationAt(haystack, needle, offset);
    if (r > best.r) best = { r, offset };
  }
  return best;
}

/**
 * A browser's SDP offer as Chromium 156 makes it for one microphone track (its candidates removed):
 * enough for the agent to answer, never enough to connect. For the WHIP refusals and the failures.
 */
export const CANNED_OFFER = [
  'v=0',
  'o=- 7318618857803605752 2 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'a=group:BUNDLE 0',
  'a=extmap-allow-mixed',
  'a=msid-semantic: WMS',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111 0 8',
  'c=IN IP4 0.0.0.0',
  'a=rtcp:9 IN IP4 0.0.0.0',
  'a=ice-ufrag:MA1p',
  'a=ice-pwd:bHMAIHF5qUcARIKFysOZNW7O',
  'a=ice-options:trickle',
  'a=fingerprint:sha-256 AA:70:E6:0B:C1:DD:06:52:6E:C1:BC:2B:E7:47:63:A4:84:65:9E:34:C3:F6:DD:50:FC:1D:13:50:67:35:56:B4',
  'a=setup:actpass',
  'a=mid:0',
  'a=sendrecv',
  'a=msid:- 985c6307-a23d-4083-b4f4-b792af8d90eb',
  'a=rtcp-mux',
  'a=rtpmap:111 opus/48000/2',
  'a=fmtp:111 minptime=10;useinbandfec=1',
  'a=rtpmap:0 PCMU/8000',
  'a=rtpmap:8 PCMA/8000',
  'a=ssrc:408263641 cname:E1A9qOmGyLnpoXpM',
  '',
].join('\r\n');

/**
 * A participant without a browser: werift offering PCMU from 127.0.0.1 (one audio section, as the
 * page sends), talking a 1 kHz tone every 20 ms and counting the samples it hears.
 */
export async function weriftParticipant(): Promise<{
  offer: string;
  heard: () => number;
  answer(sdp: string): Promise<void>;
  close(): Promise<void>;
}> {
  const { MediaStreamTrack, RTCPeerConnection, RTCRtpCodecParameters, RtpHeader, RtpPacket } = await import('werift');
  const pc = new RTCPeerConnection({
    codecs: {
      audio: [new RTCRtpCodecParameters({ mimeType: 'audio/PCMU', clockRate: 8000, channels: 1, payloadType: 0 })],
      video: [],
    },
    iceServers: [],
    iceUseIpv6: false,
    iceAdditionalHostAddresses: ['127.0.0.1'],
    iceInterfaceAddresses: { udp4: '127.0.0.1' },
  });
  const mic = new MediaStreamTrack({ kind: 'audio' });
  const transceiver = pc.addTransceiver(mic, { direction: 'sendrecv' });
  let heard = 0;
  transceiver.onTrack.subscribe((track) => track.onReceiveRtp.subscribe((rtp) => (heard += rtp.payload.length)));
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise<void>((resolve) => {
    if (pc.iceGatheringState === 'complete') return resolve();
    pc.iceGatheringStateChange.subscribe((s) => s === 'complete' && resolve());
  });
  // μ-law of a 1 kHz tone: any non-silent bytes will do for the agent's recorder.
  const tone = Buffer.from(Array.from({ length: 160 }, (_, i) => (i % 8 < 4 ? 0x20 : 0xa0)));
  let seq = 0;
  const talking = setInterval(() => {
    const header = new RtpHeader({ payloadType: 0, sequenceNumber: seq & 0xffff, timestamp: seq * 160, ssrc: 7 });
    seq++;
    mic.writeRtp(new RtpPacket(header, tone));
  }, 20);
  return {
    offer: pc.localDescription?.sdp ?? '',
    heard: () => heard,
    answer: (sdp) => pc.setRemoteDescription({ type: 'answer', sdp }),
    async close() {
      clearInterval(talking);
      await pc.close();
    },
  };
}
