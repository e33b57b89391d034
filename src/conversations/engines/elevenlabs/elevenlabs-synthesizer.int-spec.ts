import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { ElevenLabsStandIn } from '../../../../test/support/elevenlabs-stand-in';
import { resample } from '../../../kernel/audio/rate-converter';
import { EmbeddedSynthesizer } from '../embedded/embedded-synthesizer';
import { EngineError, type SpeechChunk } from '../engines';
import {
  ELEVENLABS_DEFAULT_VOICE,
  ELEVENLABS_PCM_RATE,
  ElevenLabsSynthesizer,
  elevenLabsVoice,
  type ElevenLabsLimits,
} from './elevenlabs-synthesizer';

/**
 * The ElevenLabs streaming-input synthesiser against the loopback stand-in of its WebSocket API
 * (test/support/elevenlabs-stand-in.ts), which speaks for real with flite resampled to 24 kHz.
 */
describe('ElevenLabsSynthesizer (stream-input WebSocket)', () => {
  let standIn: ElevenLabsStandIn;
  const flite = new EmbeddedSynthesizer();
  const SHORT = 'Hello there.';
  const LONG =
    'I can book you a table for four people on Friday evening at seven, or if you prefer a quieter time, ' +
    'there is also a table by the window at half past eight, and the kitchen stays open until eleven.';

  beforeAll(async () => {
    standIn = await ElevenLabsStandIn.start();
  });
  afterAll(async () => {
    flite.close();
    await standIn.close();
  });
  afterEach(() => {
    standIn.firstAudioDelayMs = 0;
  });

  const synthesizer = (apiKey: string | null = standIn.apiKey, limits?: Partial<ElevenLabsLimits>) =>
    new ElevenLabsSynthesizer(
      { url: standIn.url, apiKey, model: 'eleven_flash_v2_5' },
      { firstAudioMs: 5_000, stallMs: 10_000, ...limits },
    );

  /** flite's own length for these texts, at 24 kHz (the stand-in speaks each flushed text alone). */
  async function fliteLength(...texts: string[]): Promise<number> {
    let length = 0;
    for (const text of texts) {
      const speech = await flite.synthesize(text, {});
      length += resample(speech.samples, speech.sampleRate, ELEVENLABS_PCM_RATE).length;
    }
    return length;
  }

  function rms(samples: Int16Array): number {
    let sum = 0;
    for (const s of samples) sum += s * s;
    return Math.sqrt(sum / Math.max(1, samples.length));
  }

  async function collect(audio: AsyncIterable<SpeechChunk>): Promise<{ chunks: SpeechChunk[]; error: unknown }> {
    const chunks: SpeechChunk[] = [];
    try {
      for await (const chunk of audio) chunks.push(chunk);
      return { chunks, error: null };
    } catch (error) {
      return { chunks, error };
    }
  }

  const joined = (chunks: SpeechChunk[]) => {
    const out = new Int16Array(chunks.reduce((n, c) => n + c.samples.length, 0));
    let at = 0;
    for (const c of chunks) {
      out.set(c.samples, at);
      at += c.samples.length;
    }
    return out;
  };

  it('streams two pushed clauses as 24 kHz speech, chunk by chunk, with the characters it speaks', async () => {
    const before = standIn.connections.length;
    const session = synthesizer().open({ voiceId: 'voice_default' });
    session.push(SHORT);
    session.push(LONG);
    session.end();
    let firstAt = 0;
    const chunks: SpeechChunk[] = [];
    for await (const chunk of session.audio) {
      firstAt ||= performance.now();
      chunks.push(chunk);
    }
    expect(chunks.length).toBeGreaterThan(10);
    expect(chunks.every((c) => c.sampleRate === ELEVENLABS_PCM_RATE)).toBe(true);
    const samples = joined(chunks);
    const expected = await fliteLength(SHORT, LONG);
    expect(Math.abs(samples.length - expected)).toBeLessThan(expected * 0.02);
    expect(rms(samples)).toBeGreaterThan(500); // speech, not silence (flite speaks at an RMS of thousands)
    // The characters spoken, cumulative: in the end the text pushed, each push followed by one space.
    expect(chunks.at(-1)?.characters).toBe(SHORT.length + 1 + LONG.length + 1);
    const counts = chunks.map((c) => c.characters ?? 0);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    // The first audio came before the long clause's speech was even made.
    const long = standIn.spoken.find((s) => s.text === `${LONG} `);
    expect(firstAt).toBeGreaterThan(0);
    expect(firstAt).toBeLessThan(long?.at ?? 0);

    expect(standIn.connections.length).toBe(before + 1);
    const seen = standIn.connections.at(-1);
    expect(seen?.voice).toBe(ELEVENLABS_DEFAULT_VOICE);
    expect(seen?.query).toMatchObject({ model_id: 'eleven_flash_v2_5', output_format: 'pcm_24000' });
    expect(seen?.messages).toEqual([
      { text: ' ' },
      { text: `${SHORT} `, flush: true },
      { text: `${LONG} `, flush: true },
      { text: '' },
    ]);
    expect(seen?.finalSent).toBe(true);
    expect(seen?.closed).toMatchObject({ by: 'server', code: 1000 });
  });

  it('synthesizes a whole line as one speech over one connection', async () => {
    const before = standIn.connections.length;
    const speech = await synthesizer().synthesize('Goodbye and thank you for calling.', {});
    expect(speech.sampleRate).toBe(ELEVENLABS_PCM_RATE);
    const expected = await fliteLength('Goodbye and thank you for calling.');
    expect(Math.abs(speech.samples.length - expected)).toBeLessThan(expected * 0.02);
    expect(rms(speech.samples)).toBeGreaterThan(500);
    expect(standIn.connections.length).toBe(before + 1);
    // Blank text: no audio, no connection.
    await expect(synthesizer().synthesize('  ', {})).resolves.toMatchObject({ samples: new Int16Array(0) });
    expect(standIn.connections.length).toBe(before + 1);
  });

  it('maps our voice ids to premade ElevenLabs voices and sends an ElevenLabs id as is', async () => {
    expect(elevenLabsVoice(undefined)).toBe(ELEVENLABS_DEFAULT_VOICE);
    expect(elevenLabsVoice('voice_default')).toBe(ELEVENLABS_DEFAULT_VOICE);
    expect(elevenLabsVoice('voi_0123456789abcdefghij')).toBe(ELEVENLABS_DEFAULT_VOICE);
    for (const ours of ['voice_ava', 'voice_leo', 'voice_mia']) expect(elevenLabsVoice(ours)).toMatch(/^\w{20}$/);
    await synthesizer().synthesize('Yes.', { voiceId: 'voice_leo' });
    expect(standIn.connections.at(-1)?.voice).toBe(elevenLabsVoice('voice_leo'));
    await synthesizer().synthesize('Yes.', { voiceId: 'JBFqnCBsd6RMkjVDRZzb' });
    expect(standIn.connections.at(-1)?.voice).toBe('JBFqnCBsd6RMkjVDRZzb');
  });

  it('closes the connection at once when aborted mid-stream, and the audio ends quietly', async () => {
    const controller = new AbortController();
    const session = synthesizer().open({ signal: controller.signal });
    session.push(LONG);
    session.push(LONG);
    session.end();
    const chunks: SpeechChunk[] = [];
    for await (const chunk of session.audio) {
      chunks.push(chunk);
      if (chunks.length === 3) controller.abort();
    }
    expect(chunks.length).toBe(3);
    const seen = standIn.connections.at(-1);
    await waitFor(() => seen?.closed !== null);
    expect(seen?.closed?.by).toBe('client');
    expect(seen?.finalSent).toBe(false);
    expect(seen?.audioChunks).toBeLessThan(100);

    // Aborted during the handshake, or before opening: no audio; a session's audio ends quietly, a
    // stream() (a whole line: the cache must not keep it) with the abort error, as the other engines'.
    const early = new AbortController();
    const during = synthesizer().open({ signal: early.signal });
    during.push(SHORT);
    early.abort();
    await expect(collect(during.audio)).resolves.toEqual({ chunks: [], error: null });
    const before = standIn.connections.length;
    const cut = await collect(synthesizer().stream(SHORT, { signal: early.signal }));
    expect(cut.chunks).toEqual([]);
    expect(cut.error).toMatchObject({ name: 'AbortError' });
    await expect(synthesizer().synthesize(SHORT, { signal: early.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(standIn.connections.length).toBe(before);
  });

  it('answers a refused key with a 401 EngineError naming the host, never the key', async () => {
    const secret = 'xi-wrong-secret-key-123';
    const { chunks, error } = await collect(synthesizer(secret).stream('Hello.', {}));
    expect(chunks).toEqual([]);
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({ engine: 'synthesis', status: 401 });
    const message = (error as EngineError).message;
    expect(message).toMatch(
      /^The speech synthesis engine at 127\.0\.0\.1:\d+ refused the key \(HTTP 401: Invalid API key\)/,
    );
    expect(message).not.toContain(secret);
    expect(standIn.connections.at(-1)?.apiKeyOk).toBe(false);
    await expect(synthesizer(null).synthesize('Hello.', {})).rejects.toMatchObject({ status: 401 });
  });

  it('connects again once, resending the text, when the connection drops before any audio', async () => {
    const before = standIn.connections.length;
    standIn.dropAfterChunks(0);
    const session = synthesizer().open({});
    session.push(SHORT);
    session.push('How can I help?');
    session.end();
    const { chunks, error } = await collect(session.audio);
    expect(error).toBeNull();
    const expected = await fliteLength(SHORT, 'How can I help?');
    expect(Math.abs(joined(chunks).length - expected)).toBeLessThan(expected * 0.02);
    const [dropped, retried] = standIn.connections.slice(before);
    expect(standIn.connections.length).toBe(before + 2);
    expect(dropped?.closed?.by).toBe('dropped');
    expect(retried?.messages).toEqual(dropped?.messages);
    expect(retried?.finalSent).toBe(true);
  });

  it('retries an upgrade answered 503 once, and fails on a second', async () => {
    standIn.failNextUpgrade(503);
    await expect(synthesizer().synthesize('Yes.', {})).resolves.toMatchObject({ sampleRate: ELEVENLABS_PCM_RATE });
    standIn.failNextUpgrade(503);
    standIn.failNextUpgrade(503);
    await expect(synthesizer().synthesize('Yes.', {})).rejects.toMatchObject({
      status: 503,
      message: expect.stringMatching(/answered 503: The stand-in was told to fail/),
    });
  });

  it('fails with the close code, without a retry, when the connection drops after audio', async () => {
    const before = standIn.connections.length;
    standIn.dropAfterChunks(2);
    const { chunks, error } = await collect(synthesizer().stream(LONG, {}));
    expect(chunks.length).toBe(2);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).message).toMatch(/closed the stream before it ended \(close 1006/);
    expect(standIn.connections.length).toBe(before + 1);
  });

  it('fails when the first audio does not come within the bound', async () => {
    standIn.firstAudioDelayMs = 1_500;
    const started = performance.now();
    const { error } = await collect(synthesizer(undefined, { firstAudioMs: 300 }).stream('Hello.', {}));
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).message).toMatch(/at 127\.0\.0\.1:\d+ did not answer in time \(300 ms\)/);
    expect(performance.now() - started).toBeLessThan(1_200);
    await waitFor(() => standIn.connections.at(-1)?.closed !== null);
    expect(standIn.connections.at(-1)?.closed?.by).toBe('client');
  });

  it("answers the server's error message as an EngineError with its text", async () => {
    standIn.errorNext('A voice with the voice_id JBFq was not found.');
    const { chunks, error } = await collect(synthesizer().stream('Hello.', {}));
    expect(chunks).toEqual([]);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).message).toBe(
      `The speech synthesis engine at ${new URL(standIn.url).host} answered an error: A voice with the voice_id JBFq was not found.`,
    );
    // An error message about the key is a refused key.
    standIn.errorNext('Invalid API key');
    await expect(synthesizer().synthesize('Hello.', {})).rejects.toMatchObject({
      status: 401,
      message: expect.stringMatching(/refused the key \(Invalid API key\)/),
    });
  });

  it('serves beside other handlers of a server; an inactivity close (1008) is a drop, not a refused key', async () => {
    const server = createHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const attached = ElevenLabsStandIn.attach(server, { inactivityMs: 150 });
    try {
      const session = new ElevenLabsSynthesizer({ url: attached.url, apiKey: attached.apiKey, model: 'm' }).open({});
      // Nothing pushed: the server closes 1008 for inactivity, the adapter connects again once, then fails.
      const { error } = await collect(session.audio);
      expect(error).toMatchObject({
        status: null,
        message: expect.stringMatching(/closed the stream before it ended \(close 1008: Have not received new text/),
      });
      expect(attached.connections.map((c) => c.closed?.code)).toEqual([1008, 1008]);
    } finally {
      await attached.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('answers an engine that cannot be reached with an EngineError', async () => {
    const port = await freePort();
    const unreachable = new ElevenLabsSynthesizer({ url: `http://127.0.0.1:${port}`, apiKey: 'k', model: 'm' });
    await expect(unreachable.synthesize('Hello.', {})).rejects.toMatchObject({
      name: 'EngineError',
      message: expect.stringMatching(/at 127\.0\.0\.1:\d+ could not be reached: ECONNREFUSED/),
    });
  });
});

async function waitFor(condition: () => boolean, ms = 3_000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error('The condition did not come true in time.');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A port nothing listens on. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
