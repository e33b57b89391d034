/**
 * The agent's peer against another WebRTC peer (werift as the participant) over loopback: the
 * answer, the greeting heard on the other side, the participant's audio recorded on its channel;
 * offers it must refuse without a peer left behind or the process harmed; and a socket error that
 * breaks the call without ending the process.
 */
import type { Socket } from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MediaStreamTrack, RTCPeerConnection, RTCRtpCodecParameters, RtpHeader, RtpPacket } from 'werift';
import { decodeUlaw, encodeUlaw } from '../../kernel/audio/g711';
import { decodePcm16Wav } from '../../kernel/audio/wav';
import { AgentSetupFailed, OfferRejected } from './agent-offer';
import { AgentPeer, udpSocketsOf } from './agent-peer';
import { DualChannelRecorder } from '../../kernel/media/dual-channel-recorder';

jest.setTimeout(30_000);

/** The participant is on loopback: its private candidates are kept (as when HOST is loopback). */
const LOOPBACK = { allowPrivate: true };

const PCMU = () => new RTCRtpCodecParameters({ mimeType: 'audio/PCMU', clockRate: 8000, channels: 1, payloadType: 0 });
const greeting = Int16Array.from({ length: 8000 }, (_, i) =>
  Math.round(Math.sin((2 * Math.PI * 440 * i) / 8000) * 8000),
);

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'agent-peer-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A participant: werift offering PCMU from 127.0.0.1, sending a 1 kHz tone and keeping what it hears. */
async function participant() {
  const pc = new RTCPeerConnection({
    codecs: { audio: [PCMU()], video: [] },
    iceServers: [],
    iceUseIpv6: false,
    iceAdditionalHostAddresses: ['127.0.0.1'],
    iceInterfaceAddresses: { udp4: '127.0.0.1' },
  });
  const mic = new MediaStreamTrack({ kind: 'audio' });
  const transceiver = pc.addTransceiver(mic, { direction: 'sendrecv' });
  const heard: number[] = [];
  transceiver.onTrack.subscribe((track) =>
    track.onReceiveRtp.subscribe((rtp) => heard.push(...decodeUlaw(rtp.payload))),
  );
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise<void>((resolve) => {
    if (pc.iceGatheringState === 'complete') return resolve();
    pc.iceGatheringStateChange.subscribe((s) => s === 'complete' && resolve());
  });
  let seq = 0;
  const tone = Int16Array.from({ length: 160 }, (_, i) => Math.round(Math.sin((2 * Math.PI * 1000 * i) / 8000) * 6000));
  const talking = setInterval(() => {
    const header = new RtpHeader({
      payloadType: 0,
      sequenceNumber: seq,
      timestamp: seq * 160,
      ssrc: 42,
      marker: false,
    });
    seq++;
    mic.writeRtp(new RtpPacket(header, encodeUlaw(tone)));
  }, 20);
  return {
    pc,
    heard,
    offer: pc.localDescription?.sdp ?? '',
    async close() {
      clearInterval(talking);
      await pc.close();
    },
  };
}

it('answers with PCMU on loopback, says the greeting, and records both directions', async () => {
  const other = await participant();
  const path = join(dir, 'rec_test0123456789.wav');
  const recorder = await DualChannelRecorder.create(path, { sampleRate: 8000 });
  const agent = await AgentPeer.answer({
    offerSdp: other.offer,
    greeting,
    recorder,
    iceHosts: ['127.0.0.1'],
    candidates: LOOPBACK,
  });
  try {
    expect(agent.answerSdp).toMatch(/^m=audio \d+ UDP\/TLS\/RTP\/SAVPF 0\r$/m);
    const hosts = agent.answerSdp.split('\r\n').filter((l) => l.startsWith('a=candidate:'));
    expect(hosts.map((l) => l.split(' ')[4])).toEqual(['127.0.0.1']);
    await other.pc.setRemoteDescription({ type: 'answer', sdp: agent.answerSdp });
    const deadline = Date.now() + 10_000;
    while (other.heard.length < 9000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(other.heard.length).toBeGreaterThanOrEqual(9000);
    expect(Date.now() - agent.lastMediaAt).toBeLessThan(1_000);
  } finally {
    await other.close();
    await agent.close();
  }
  const seconds = await recorder.finish();
  expect(seconds).toBeGreaterThan(1);
  const wav = decodePcm16Wav(readFileSync(path));
  const channel = (c: number) => wav.samples.filter((_, i) => i % 2 === c);
  const rms = (xs: Int16Array) => Math.sqrt(xs.reduce((s, v) => s + v * v, 0) / Math.max(1, xs.length));
  expect(rms(channel(0))).toBeGreaterThan(3000); // the 440 Hz greeting
  expect(rms(channel(1))).toBeGreaterThan(2000); // the participant's 1 kHz tone
});

it('refuses offers it cannot answer, as the offer’s fault, and fails on an address it cannot bind', async () => {
  const recorder = await DualChannelRecorder.create(join(dir, 'rec_refused0123456.wav'), { sampleRate: 8000 });
  const answer = (offerSdp: string, iceHosts: string[] | null = ['127.0.0.1']) =>
    AgentPeer.answer({ offerSdp, greeting, recorder, iceHosts, candidates: LOOPBACK });
  const other = await participant();
  await other.close();
  await expect(answer('hello')).rejects.toBeInstanceOf(OfferRejected);
  await expect(answer('v=0\r\ns=-\r\n')).rejects.toBeInstanceOf(OfferRejected);
  await expect(answer(other.offer.replace(/PCMU/g, 'PCMA'))).rejects.toBeInstanceOf(OfferRejected);
  await expect(
    answer(`v=0\r\nm=audio 9 RTP/AVP 0\r\na=rtpmap:0 PCMU/8000\r\n${'a=x\r\n'.repeat(1000)}`),
  ).rejects.toThrow();
  const garbled = other.offer.replace(/a=fingerprint:[^\r]+/, 'a=fingerprint:nonsense');
  await answer(garbled).then(
    (peer) => peer.close(),
    (err: unknown) => expect(err).toBeInstanceOf(Error),
  );
  await expect(answer(other.offer, ['203.0.113.9'])).rejects.toBeInstanceOf(AgentSetupFailed);
  await recorder.discard();
});

/** The agent's UDP sockets, where werift 0.25 keeps them (agent-peer.ts's SocketGuard reads the same). */
function socketsOf(agent: AgentPeer): Socket[] {
  const pc: unknown = Reflect.get(agent, 'pc');
  if (!(pc instanceof RTCPeerConnection)) throw new Error('AgentPeer keeps its RTCPeerConnection elsewhere');
  return udpSocketsOf(pc);
}

it('refuses an offer of 200 audio sections before binding anything', async () => {
  const recorder = await DualChannelRecorder.create(join(dir, 'rec_many0123456789.wav'), { sampleRate: 8000 });
  const other = await participant();
  await other.close();
  const section = other.offer.slice(other.offer.indexOf('m=audio'));
  const many = other.offer + section.repeat(199);
  await expect(
    AgentPeer.answer({ offerSdp: many, greeting, recorder, iceHosts: ['127.0.0.1'], candidates: LOOPBACK }),
  ).rejects.toThrow(
    new OfferRejected('The SDP offer must have exactly one media section, for audio; it has 200 (200 audio).'),
  );
  await recorder.discard();
});

it('a socket error breaks the call (reported once, the agent stops sending), never the process', async () => {
  const other = await participant();
  const recorder = await DualChannelRecorder.create(join(dir, 'rec_socket0123456.wav'), { sampleRate: 8000 });
  const errors: Error[] = [];
  const agent = await AgentPeer.answer({
    offerSdp: other.offer,
    greeting,
    recorder,
    iceHosts: ['127.0.0.1'],
    candidates: LOOPBACK,
    onMediaError: (err) => errors.push(err),
  });
  try {
    await other.pc.setRemoteDescription({ type: 'answer', sdp: agent.answerSdp });
    const deadline = Date.now() + 10_000;
    while (other.heard.length < 1600 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(other.heard.length).toBeGreaterThanOrEqual(1600);
    const sockets = socketsOf(agent);
    expect(sockets.length).toBeGreaterThan(0);
    // What a failed send without a callback does: an 'error' event on the socket. Unhandled, it would
    // be thrown from emit() here (and, in the service, end the process).
    for (const socket of sockets) socket.emit('error', Object.assign(new Error('send EPERM'), { code: 'EPERM' }));
    expect(errors.map((e) => e.message)).toEqual(['send EPERM']);
    await new Promise((r) => setTimeout(r, 200));
    const heard = other.heard.length;
    await new Promise((r) => setTimeout(r, 500));
    expect(other.heard.length).toBe(heard); // the pacer stopped
  } finally {
    await other.close();
    await agent.close();
    await recorder.discard();
  }
});
