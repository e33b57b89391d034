/**
 * Wideband speech through a room, in Chromium, both ways. The room page (its real HTML and room.js)
 * is served on loopback and its WHIP offer answered by the agent's peer in this process, so that the
 * suite holds the peer's AudioTransport. Chromium's fake microphone says a flite sentence: the call
 * is Opus, the transport's 48 kHz frames (converted to 16 kHz) are recognised by the embedded
 * recogniser (pocketsphinx) with the sentence's words. The agent says another flite sentence through
 * `play`: what the page hears, and the agent's channel of the 16 kHz recording, are recognised too.
 * Needs the speech helpers built (npm run build), flite, sox and pocketsphinx-en-us.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedRecognizer } from '../../../src/conversations/engines/embedded/embedded-recognizer';
import { EmbeddedSynthesizer } from '../../../src/conversations/engines/embedded/embedded-synthesizer';
import { RateConverter, resample } from '../../../src/kernel/audio/rate-converter';
import { decodePcm16Wav } from '../../../src/kernel/audio/wav';
import { recordingRateFor } from '../../../src/rooms/infra/agent-offer';
import { AgentPeer, clipSource } from '../../../src/rooms/infra/agent-peer';
import { DualChannelRecorder } from '../../../src/kernel/media/dual-channel-recorder';
import { agentGreeting } from '../../../src/rooms/infra/room-assets';
import { captureAgentAudio, heardInPage, serveRoomPage, speechWav } from '../../support/room-audio-harness';
import { Browser, launchBrowser } from '../../support/rooms-harness';

jest.setTimeout(120_000);

/** The browser is on loopback: its private candidates are kept (as when HOST is loopback). */
const LOOPBACK = { allowPrivate: true };

const recognizer = new EmbeddedRecognizer('/usr/share/pocketsphinx/model/en-us');
const synthesizer = new EmbeddedSynthesizer();
let browser: Browser | null = null;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'room-opus-'));
  recognizer.prewarm(1);
});

afterAll(async () => {
  await browser?.close();
  recognizer.close();
  synthesizer.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The words pocketsphinx recognises in 16 kHz audio (half a second of silence after it). */
async function recognise(pcm16k: Int16Array): Promise<string> {
  const stream = recognizer.start('en-US');
  for (let i = 0; i < pcm16k.length; i += 320) stream.write(pcm16k.slice(i, i + 320));
  stream.write(new Int16Array(8000));
  return stream.finish();
}

/** The share of `said`'s words found in `heard`. */
function shared(said: string, heard: string): number {
  const words = said
    .toLowerCase()
    .replace(/[^a-z ]/g, '')
    .split(/\s+/)
    .filter(Boolean);
  const pool = heard.split(/\s+/);
  return words.filter((w) => pool.includes(w)).length / words.length;
}

const seconds = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('the microphone’s speech reaches the agent’s transport as wideband Opus, and the agent’s speech reaches the page', async () => {
  // The microphone starts with the call's getUserMedia: 2.5 s of silence while it connects.
  const sentence = 'Transfer me to a human please.';
  const microphone = speechWav(sentence, 16000, 2.5, 2);
  const spoken = await recognise(decodePcm16Wav(readFileSync(microphone)).samples);
  const agentSpeech = await synthesizer.synthesize('Thank you for calling. Goodbye.', {});
  expect(agentSpeech.sampleRate).toBe(16000);

  let agent: AgentPeer | null = null;
  let recorder: DualChannelRecorder | null = null;
  const frames: Int16Array[] = [];
  const path = join(dir, 'rec_opusbrowser0123.wav');
  const server = await serveRoomPage(async (offer) => {
    recorder = await DualChannelRecorder.create(path, { sampleRate: recordingRateFor(offer) });
    agent = await AgentPeer.answer({
      offerSdp: offer,
      greeting: agentGreeting(),
      recorder,
      iceHosts: ['127.0.0.1'],
      candidates: LOOPBACK,
    });
    agent.onFrame((frame) => frames.push(frame));
    // A second of silence (the page's capture starts), then the sentence, at the call's rate.
    const rate = agent.sampleRate;
    const said = resample(agentSpeech.samples, 16000, rate);
    const clip = new Int16Array(rate + said.length);
    clip.set(said, rate);
    agent.play(clipSource(clip, rate / 50));
    return agent.answerSdp;
  });
  browser = await launchBrowser({ microphoneWav: microphone });
  const page = await browser.context.newPage();
  await captureAgentAudio(page);
  try {
    await page.goto(server.url);
    await page.getByRole('button', { name: 'Join' }).click();
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor({ timeout: 15_000 });
    const peer = agent as AgentPeer | null;
    if (!peer) throw new Error('the page joined without an offer reaching the agent');
    expect(peer.codec.name).toBe('opus');
    expect(peer.sampleRate).toBe(48000);

    // The microphone's file (about 6.5 s) has played, and the agent's sentence (about 3 s) was heard.
    const clipSeconds = 1 + agentSpeech.samples.length / 16000;
    const deadline = Date.now() + 30_000;
    while (
      Date.now() < deadline &&
      (frames.length < 300 || (await heardInPage(page)).length < clipSeconds * 16000 + 8000)
    )
      await seconds(250);
    await page.getByRole('button', { name: 'Hang up' }).click();
    await page.getByRole('heading', { name: 'The call has ended' }).waitFor();
    expect(server.hangUps).toBe(1);
    expect(frames.length).toBeGreaterThanOrEqual(300);
    expect(frames.every((f) => f.length === 960)).toBe(true);

    // What the agent's transport heard, 48 → 16 kHz through the low-pass converter, recognised.
    const down = new RateConverter(48000, 16000);
    const heardByAgent = Int16Array.from(frames.flatMap((f) => [...down.process(f)]));
    const recognisedAtAgent = await recognise(heardByAgent);
    // What the page heard from the agent (Chromium's WebAudio at 16 kHz), recognised.
    const recognisedInPage = await recognise(await heardInPage(page));
    console.log(JSON.stringify({ spoken, recognisedAtAgent, recognisedInPage }));
    expect(spoken).toMatch(/human/);
    // pocketsphinx's guess at the middle words varies with timing and with what it heard before (its
    // cepstral mean adapts: "a human", "him and", "major human"; seen in CI runs): the first word's
    // start, and at least two of the sentence's six words, came through.
    expect(recognisedAtAgent).toMatch(/^transf/);
    expect(shared(sentence, recognisedAtAgent)).toBeGreaterThanOrEqual(2 / 6);
    expect(recognisedInPage).toMatch(/good ?bye|calling|thank/);
  } finally {
    await page.close();
    await (agent as AgentPeer | null)?.close();
    await server.close();
  }

  // The recording: 16 kHz, the agent's sentence recognisable on its channel, the speech on the other.
  const finished = recorder as DualChannelRecorder | null;
  if (!finished) throw new Error('no recorder');
  await finished.finish();
  const wav = decodePcm16Wav(readFileSync(path));
  expect({ rate: wav.sampleRate, channels: wav.channels }).toEqual({ rate: 16000, channels: 2 });
  const channel = (c: number) => wav.samples.filter((_, i) => i % 2 === c);
  // "goodbye" or "good bye", as pocketsphinx splits it or not.
  expect(await recognise(channel(0))).toMatch(/good ?bye/);
  // The same speech as the transport's (placed by RTP timestamps): pocketsphinx's guess at the
  // middle words varies with the silence around them ("to human", "to him and").
  expect(await recognise(channel(1))).toMatch(/transf.*please/);
});
