/**
 * The agent's peer with Opus, against werift as the participant over loopback: an offer with Opus
 * (and PCMU) is answered with Opus; the participant's audio comes out of the transport as 20 ms
 * frames at 48 kHz, in order even when packets are swapped or lost; a FrameSource given to `play`
 * replaces the greeting and is heard on the other side; the recording is at 16 kHz.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MediaStreamTrack, RTCPeerConnection, RTCRtpCodecParameters, RtpHeader, RtpPacket } from 'werift';
import { decodePcm16Wav } from '../../kernel/audio/wav';
import { recordingRateFor } from './agent-offer';
import { AgentPeer } from './agent-peer';
import { DualChannelRecorder } from '../../kernel/media/dual-channel-recorder';
import { OPUS_FRAME, OpusDecoder, OpusEncoder } from './opus-codec';

jest.setTimeout(30_000);

/** The participant is on loopback: its private candidates are kept (as when HOST is loopback). */
const LOOPBACK = { allowPrivate: true };

const greeting = Int16Array.from({ length: 8000 }, (_, i) =>
  Math.round(Math.sin((2 * Math.PI * 440 * i) / 8000) * 8000),
);
const tone = (hz: number, n: number, from: number, amplitude = 6000) =>
  Int16Array.from({ length: n }, (_, i) => Math.round(Math.sin((2 * Math.PI * hz * (from + i)) / 48000) * amplitude));
const rms = (xs: ArrayLike<number>, from = 0, to = xs.length) => {
  let s = 0;
  for (let i = from; i < to; i++) s += (xs[i] ?? 0) ** 2;
  return to > from ? Math.sqrt(s / (to - from)) : 0;
};
/** Amplitude of `hz` in `xs` (48 kHz): a single-bin DFT, 2/N normalised (a sine of amplitude A gives about A). */
const level = (xs: ArrayLike<number>, hz: number, rate = 48000) => {
  let re = 0;
  let im = 0;
  for (let i = 0; i < xs.length; i++) {
    re += (xs[i] ?? 0) * Math.cos((2 * Math.PI * hz * i) / rate);
    im += (xs[i] ?? 0) * Math.sin((2 * Math.PI * hz * i) / rate);
  }
  return (2 * Math.hypot(re, im)) / Math.max(1, xs.length);
};

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'agent-opus-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A participant offering Opus then PCMU (as browsers do), sending a 1 kHz tone in Opus every 20 ms
 * through `mangle` (which may drop or swap packets), and decoding what it hears.
 */
async function opusParticipant(mangle: (seq: number) => 'send' | 'drop' | 'swap' = () => 'send') {
  const pc = new RTCPeerConnection({
    codecs: {
      audio: [
        new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48000, channels: 2, payloadType: 109 }),
        new RTCRtpCodecParameters({ mimeType: 'audio/PCMU', clockRate: 8000, channels: 1, payloadType: 0 }),
      ],
      video: [],
    },
    iceServers: [],
    iceUseIpv6: false,
    iceAdditionalHostAddresses: ['127.0.0.1'],
    iceInterfaceAddresses: { udp4: '127.0.0.1' },
  });
  const mic = new MediaStreamTrack({ kind: 'audio' });
  const transceiver = pc.addTransceiver(mic, { direction: 'sendrecv' });
  const decoder = new OpusDecoder(1);
  const heard: number[] = [];
  const payloadTypes = new Set<number>();
  transceiver.onTrack.subscribe((track) =>
    track.onReceiveRtp.subscribe((rtp) => {
      payloadTypes.add(rtp.header.payloadType);
      heard.push(...decoder.decode(rtp.payload));
    }),
  );
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise<void>((resolve) => {
    if (pc.iceGatheringState === 'complete') return resolve();
    pc.iceGatheringStateChange.subscribe((s) => s === 'complete' && resolve());
  });
  const encoder = new OpusEncoder();
  let seq = 0;
  let held: RtpPacket | null = null;
  const talking = setInterval(() => {
    const header = new RtpHeader({ payloadType: 109, sequenceNumber: seq, timestamp: seq * OPUS_FRAME, ssrc: 42 });
    const packet = new RtpPacket(header, encoder.encode(tone(1000, OPUS_FRAME, seq * OPUS_FRAME)));
    const what = mangle(seq);
    seq++;
    if (what === 'drop') return;
    if (what === 'swap' && !held) {
      held = packet;
      return;
    }
    mic.writeRtp(packet);
    if (held) mic.writeRtp(held);
    held = null;
  }, 20);
  return {
    pc,
    heard,
    payloadTypes,
    offer: pc.localDescription?.sdp ?? '',
    sent: () => seq,
    async close() {
      clearInterval(talking);
      await pc.close();
      encoder.close();
      decoder.close();
    },
  };
}

async function until(done: () => boolean, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

it('answers an Opus offer with Opus: the tone arrives as 48 kHz frames, the greeting is heard, recorded at 16 kHz', async () => {
  const other = await opusParticipant();
  expect(recordingRateFor(other.offer)).toBe(16000);
  const path = join(dir, 'rec_opus0123456789.wav');
  const recorder = await DualChannelRecorder.create(path, { sampleRate: recordingRateFor(other.offer) });
  const agent = await AgentPeer.answer({
    offerSdp: other.offer,
    greeting,
    recorder,
    iceHosts: ['127.0.0.1'],
    candidates: LOOPBACK,
  });
  const frames: Int16Array[] = [];
  agent.onFrame((f) => frames.push(f));
  let closed = 0;
  agent.onClosed(() => closed++);
  try {
    expect(agent.answerSdp).toMatch(/^m=audio \d+ UDP\/TLS\/RTP\/SAVPF 109 0\r$/m);
    expect(agent.answerSdp).toMatch(/^a=rtpmap:109 opus\/48000\/2\r$/m);
    expect(agent.sampleRate).toBe(48000);
    await other.pc.setRemoteDescription({ type: 'answer', sdp: agent.answerSdp });
    // One second of the greeting (8 kHz, upsampled to 48 kHz) and then some.
    await until(() => other.heard.length >= 60_000 && frames.length >= 50);
    expect([...other.payloadTypes]).toEqual([109]);
    expect(other.heard.length).toBeGreaterThanOrEqual(60_000);
    expect(frames.length).toBeGreaterThanOrEqual(50);
    expect(frames.every((f) => f.length === 960)).toBe(true);
    const heardFrames = Int16Array.from(frames.slice(5).flatMap((f) => [...f]));
    expect(level(heardFrames, 1000)).toBeGreaterThan(4000); // the participant's 1 kHz tone (6000)
    expect(level(heardFrames, 440)).toBeLessThan(300);
    const greeted = other.heard.slice(0, 48_000);
    expect(level(greeted, 440)).toBeGreaterThan(3000); // the greeting's 440 Hz (8000)
  } finally {
    await other.close();
    await agent.close();
  }
  expect(closed).toBe(1);
  await recorder.finish();
  const wav = decodePcm16Wav(readFileSync(path));
  expect({ rate: wav.sampleRate, channels: wav.channels }).toEqual({ rate: 16000, channels: 2 });
  const channel = (c: number) => wav.samples.filter((_, i) => i % 2 === c);
  expect(level(channel(0), 440, 16000)).toBeGreaterThan(1000); // greeting then silence: diluted, present
  expect(rms(channel(1))).toBeGreaterThan(2000);
  expect(level(channel(1), 1000, 16000)).toBeGreaterThan(1500); // the tone, after the connection was up
});

it('play() replaces the greeting with the given source; packets swapped or lost still come out as one frame per 20 ms', async () => {
  // Every 10th packet lost, every 7th swapped with the next.
  const other = await opusParticipant((seq) => (seq % 10 === 9 ? 'drop' : seq % 7 === 3 ? 'swap' : 'send'));
  const recorder = await DualChannelRecorder.create(join(dir, 'rec_play0123456789.wav'), { sampleRate: 16000 });
  const agent = await AgentPeer.answer({
    offerSdp: other.offer,
    greeting,
    recorder,
    iceHosts: ['127.0.0.1'],
    candidates: LOOPBACK,
  });
  let pulled = 0;
  agent.play({
    nextFrame: () => tone(2000, 960, 960 * pulled++, 7000),
  });
  const frames: Int16Array[] = [];
  // Packets sent before the connection was up never left: count from the first frame heard.
  let sentBefore = -1;
  agent.onFrame((f) => {
    if (sentBefore < 0) sentBefore = other.sent() - 1;
    frames.push(f);
  });
  try {
    await other.pc.setRemoteDescription({ type: 'answer', sdp: agent.answerSdp });
    await until(() => other.heard.length >= 96_000 && frames.length >= 100);
    expect(pulled).toBeGreaterThanOrEqual(50);
    const late = other.heard.slice(24_000, 72_000);
    expect(level(late, 2000)).toBeGreaterThan(5000);
    expect(level(late, 440)).toBeLessThan(300); // no greeting
    // Lost packets concealed, swapped ones put back: about one frame per packet sent, none missing.
    const sent = other.sent() - sentBefore;
    expect(frames.length).toBeGreaterThanOrEqual(sent - 5); // the last few may still be in flight or held
    expect(frames.length).toBeLessThanOrEqual(sent + 1);
    const heard = Int16Array.from(frames.slice(5).flatMap((f) => [...f]));
    expect(level(heard, 1000)).toBeGreaterThan(3000);
  } finally {
    await other.close();
    await agent.close();
    await recorder.discard();
  }
});

it('a frame listener or a source that throws is dropped; the call and the process go on, and onClosed is told once', async () => {
  const other = await opusParticipant();
  const recorder = await DualChannelRecorder.create(join(dir, 'rec_throw012345678.wav'), { sampleRate: 16000 });
  const agent = await AgentPeer.answer({
    offerSdp: other.offer,
    recorder,
    iceHosts: ['127.0.0.1'],
    candidates: LOOPBACK,
  });
  let broken = 0;
  agent.onFrame(() => {
    broken++;
    throw new Error('a listener bug');
  });
  const frames: Int16Array[] = [];
  agent.onFrame((f) => frames.push(f));
  let pulls = 0;
  agent.play({
    nextFrame: () => {
      pulls++;
      throw new Error('a source bug');
    },
  });
  let closed = 0;
  agent.onClosed(() => closed++);
  try {
    await other.pc.setRemoteDescription({ type: 'answer', sdp: agent.answerSdp });
    await until(() => frames.length >= 25);
    expect(broken).toBe(1);
    expect(pulls).toBe(1);
    expect(frames.length).toBeGreaterThanOrEqual(25);
    // A source given afterwards is played.
    agent.play({ nextFrame: () => tone(2000, 960, 0, 7000) });
    const from = other.heard.length;
    await until(() => other.heard.length >= from + 48_000);
    expect(level(other.heard.slice(from + 9600, from + 48_000), 2000)).toBeGreaterThan(3000);
  } finally {
    await other.close();
    await agent.close();
    await agent.close();
    await recorder.discard();
  }
  expect(closed).toBe(1);
  let late = 0;
  agent.onClosed(() => late++);
  expect(late).toBe(1); // told at once after the end
});
