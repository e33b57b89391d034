import { createServer } from 'node:http';
import { DeepgramStandIn } from '../../../../test/support/deepgram-stand-in';
import { eventually } from '../../../../test/support/eventually';
import { EmbeddedSynthesizer } from '../embedded/embedded-synthesizer';
import { EngineError, type RecognitionListener, type RecognitionStream } from '../engines';
import { DEFAULT_ENDPOINTING_MS, DeepgramRecognizer, webSocketBase } from './deepgram-recognizer';

/**
 * The Deepgram live recogniser against the loopback stand-in of Deepgram's `/v1/listen`, which
 * transcribes for real with pocketsphinx: flite speaks, the adapter streams the audio in 20 ms frames,
 * the stand-in's VAD ends the utterance after the silence that follows.
 */
describe('DeepgramRecognizer (live /v1/listen)', () => {
  let standIn: DeepgramStandIn;
  const synthesizer = new EmbeddedSynthesizer();
  const spoken = new Map<string, Int16Array>();
  const PHRASE = 'Transfer me to a human please.';

  beforeAll(async () => {
    standIn = await DeepgramStandIn.start();
    await Promise.all([standIn.warmUp(), speech(PHRASE)]);
  });
  afterAll(async () => {
    synthesizer.close();
    await standIn.close();
  });

  // The stand-in transcribes with pocketsphinx, which on a loaded 2-core machine takes seconds: the
  // timeout is generous here but for the test of the timeout itself.
  const recognizer = (apiKey: string | null = standIn.apiKey, finalTimeoutMs = 10_000, url = standIn.url) =>
    new DeepgramRecognizer({ url, apiKey, model: 'nova-3' }, { finalTimeoutMs, connectTimeoutMs: 5000 });

  async function speech(text: string): Promise<Int16Array> {
    let samples = spoken.get(text);
    if (!samples) {
      const made = await synthesizer.synthesize(text, {});
      expect(made.sampleRate).toBe(16_000);
      samples = made.samples;
      spoken.set(text, samples);
    }
    return samples;
  }

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /**
   * The speech in 20 ms frames, faster than real time (a frame every ms), then silence frames at
   * real-time pace for `silenceMs` or until `until()` holds.
   */
  async function say(
    stream: RecognitionStream,
    text: string,
    silenceMs: number,
    until: () => boolean = () => false,
  ): Promise<number> {
    const samples = await speech(text);
    for (let i = 0; i < samples.length; i += 320) {
      stream.write(samples.subarray(i, i + 320));
      if (i % 3200 === 0) await sleep(1);
    }
    const started = Date.now();
    const silence = new Int16Array(320);
    while (Date.now() - started < silenceMs && !until()) {
      stream.write(silence);
      await sleep(20);
    }
    return samples.length * 2;
  }

  function recording(): { events: string[]; partials: string[]; listener: RecognitionListener } {
    const events: string[] = [];
    const partials: string[] = [];
    return {
      events,
      partials,
      listener: {
        partial: (words) => {
          events.push('partial');
          partials.push(words);
        },
        endpoint: () => events.push('endpoint'),
      },
    };
  }

  it('derives the WebSocket base from the endpoint URL, its path kept', () => {
    expect(webSocketBase('https://api.deepgram.com')).toBe('wss://api.deepgram.com');
    expect(webSocketBase('http://127.0.0.1:8080/')).toBe('ws://127.0.0.1:8080');
    expect(webSocketBase('https://proxy.example/deepgram/')).toBe('wss://proxy.example/deepgram');
  });

  it('streams the utterance, ends it on the provider endpoint and answers its words at once', async () => {
    const { events, listener } = recording();
    const stream = recognizer().start('en-US', { listener });
    await say(stream, PHRASE, 8000, () => events.includes('endpoint'));
    expect(events).toContain('endpoint');
    const started = Date.now();
    await expect(stream.finish()).resolves.toMatch(/human/);
    expect(Date.now() - started).toBeLessThan(100); // no round trip

    const connection = standIn.connections.at(-1)!;
    expect(connection.authorization).toBe(`Token ${standIn.apiKey}`);
    expect(connection.query).toMatchObject({
      model: 'nova-3',
      language: 'en-US',
      encoding: 'linear16',
      sample_rate: '16000',
      channels: '1',
      interim_results: 'true',
      utterance_end_ms: '1000',
      vad_events: 'true',
      punctuate: 'true',
    });
    // No endpointingMs: the adapter's default, not Deepgram's 10 ms.
    expect(connection.query.endpointing).toBe(String(DEFAULT_ENDPOINTING_MS));
    expect(connection.controls).not.toContain('Finalize');
    await eventually(() => expect(connection.closed).toMatchObject({ by: 'close-stream', code: 1000 }));
  });

  it('tells interim words in order before the endpoint', async () => {
    const words = ['transfer', 'me', 'to', 'a', 'human', 'please'];
    const canned = await DeepgramStandIn.start({
      interimEveryMs: 200,
      interimText: (audio) => words.slice(0, Math.ceil(audio.length / 4000)).join(' '),
      transcribe: () => Promise.resolve('Transfer me to a human, please.'),
    });
    try {
      const { events, partials, listener } = recording();
      const stream = recognizer(canned.apiKey, 10_000, canned.url).start('en-US', { listener });
      await say(stream, PHRASE, 8000, () => events.includes('endpoint'));
      await expect(stream.finish()).resolves.toBe('Transfer me to a human, please.');
      expect(partials.length).toBeGreaterThanOrEqual(3);
      expect(partials.at(-1)).toBe('Transfer me to a human, please.');
      for (let i = 1; i < partials.length - 1; i++) expect(partials[i]!.startsWith(partials[i - 1]!)).toBe(true);
      expect(events.lastIndexOf('partial')).toBeLessThan(events.indexOf('endpoint'));
      expect(events.filter((e) => e === 'endpoint')).toHaveLength(1);
    } finally {
      await canned.close();
    }
  });

  it('sends endpointingMs, and without a provider endpoint finish() sends a Finalize and answers it', async () => {
    const { events, listener } = recording();
    const stream = recognizer().start('en-US', { endpointingMs: 1500, listener });
    await say(stream, PHRASE, 400);
    expect(events).not.toContain('endpoint');
    await expect(stream.finish()).resolves.toMatch(/human/);
    const connection = standIn.connections.at(-1)!;
    expect(connection.query.endpointing).toBe('1500');
    expect(connection.query.utterance_end_ms).toBe('1500');
    await eventually(() => expect(connection.controls).toEqual(['Finalize', 'CloseStream']));
  });

  it('answers a wrong key with a clear 401 EngineError that does not show the key', async () => {
    const stream = recognizer('dg-wrong-key-123').start('en-US');
    stream.write(new Int16Array(1600).fill(1000));
    const err = await stream.finish().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(EngineError);
    expect(err).toMatchObject({ engine: 'recognition', status: 401 });
    expect((err as Error).message).toMatch(
      /speech recognition engine at 127\.0\.0\.1:\d+ answered 401: Invalid credentials/,
    );
    expect((err as Error).message).not.toContain('dg-wrong-key-123');
  });

  it("answers a refused upgrade with its status and Deepgram's reason, without a retry", async () => {
    const before = standIn.connections.length;
    standIn.failNextUpgrade(403);
    const stream = recognizer().start('en-US');
    stream.write(new Int16Array(1600));
    await expect(stream.finish()).rejects.toMatchObject({
      name: 'EngineError',
      status: 403,
      message: expect.stringMatching(/answered 403: Told to fail \(403\)\. \(STAND_IN_FAILURE\)$/),
    });
    expect(standIn.connections.length).toBe(before);
  });

  it('answers an engine that cannot be reached with an EngineError without a status', async () => {
    const stream = recognizer(null, 10_000, 'http://127.0.0.1:9').start('en-US');
    stream.write(new Int16Array(1600));
    await expect(stream.finish()).rejects.toMatchObject({
      name: 'EngineError',
      status: null,
      message: expect.stringMatching(/at 127\.0\.0\.1:9 could not be reached/),
    });
  });

  it('replaces a connection dropped mid-utterance once, sending the whole utterance again', async () => {
    const before = standIn.connections.length;
    standIn.dropAfterBytes(16_000, 1);
    const { events, listener } = recording();
    const stream = recognizer().start('en-US', { listener });
    const bytes = await say(stream, PHRASE, 8000, () => events.includes('endpoint'));
    await expect(stream.finish()).resolves.toMatch(/human/);
    const [first, second] = standIn.connections.slice(before);
    expect(standIn.connections.length - before).toBe(2);
    expect(first?.closed?.by).toBe('dropped');
    expect(second?.bytes).toBeGreaterThanOrEqual(bytes);
  });

  it('replaces a connection dropped at the end of the utterance (about its Finalize) and answers from the new one', async () => {
    const before = standIn.connections.length;
    const samples = await speech(PHRASE);
    // Dropped on the utterance's last frame: the Finalize that follows it is never read.
    standIn.dropAfterBytes(samples.length * 2, 1);
    const stream = recognizer().start('en-US', { endpointingMs: 3000 });
    await say(stream, PHRASE, 0);
    await expect(stream.finish()).resolves.toMatch(/human/);
    const [first, second] = standIn.connections.slice(before);
    expect(standIn.connections.length - before).toBe(2);
    expect(first?.closed?.by).toBe('dropped');
    expect(first?.controls).toEqual([]);
    expect(second?.bytes).toBe(samples.length * 2);
    expect(second?.controls[0]).toBe('Finalize');
  });

  it('fails the utterance when the connection drops twice', async () => {
    standIn.dropAfterBytes(16_000, 2);
    const stream = recognizer().start('en-US');
    await say(stream, PHRASE, 300);
    await expect(stream.finish()).rejects.toMatchObject({
      name: 'EngineError',
      message: expect.stringMatching(/dropped the connection twice in one utterance: closed with code 1006/),
    });
  });

  it('names the close code and reason when Deepgram closes twice (NET-0001: no audio in time)', async () => {
    const idle = await DeepgramStandIn.start({ idleTimeoutMs: 300, transcribe: () => Promise.resolve('') });
    try {
      const stream = recognizer(idle.apiKey, 10_000, idle.url).start('en-US');
      stream.write(new Int16Array(320));
      await eventually(() => idle.connections.length === 2 && idle.connections[1]?.closed !== null);
      await expect(stream.finish()).rejects.toMatchObject({
        name: 'EngineError',
        status: null,
        message: expect.stringMatching(
          /dropped the connection twice in one utterance: closed with code 1011 \(NET-0001/,
        ),
      });
      expect(idle.connections.map((c) => c.closed?.by)).toEqual(['idle', 'idle']);
    } finally {
      await idle.close();
    }
  });

  it('fails when the final words do not come in time after the Finalize', async () => {
    standIn.finalDelayMs = 2000;
    try {
      const stream = recognizer(standIn.apiKey, 600).start('en-US', { endpointingMs: 5000 });
      await say(stream, 'Goodbye.', 200);
      const started = Date.now();
      await expect(stream.finish()).rejects.toMatchObject({
        name: 'EngineError',
        message: expect.stringMatching(/at 127\.0\.0\.1:\d+ did not answer in time \(600 ms\)/),
      });
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      standIn.finalDelayMs = 0;
    }
  });

  it('serves beside other handlers on an existing HTTP server', async () => {
    const server = createServer((_req, res) => res.end('other'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const attached = DeepgramStandIn.attach(server, { transcribe: () => Promise.resolve('goodbye') });
    try {
      const { events, listener } = recording();
      const stream = recognizer(attached.apiKey, 10_000, attached.url).start('en-US', { listener });
      await say(stream, 'Goodbye.', 8000, () => events.includes('endpoint'));
      await expect(stream.finish()).resolves.toBe('goodbye');
      expect(attached.connections).toHaveLength(1);
      await expect(fetch(attached.url).then((r) => r.text())).resolves.toBe('other');
    } finally {
      await attached.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('closes the connection on cancel and tells nothing more', async () => {
    const canned = await DeepgramStandIn.start({
      interimEveryMs: 100,
      interimText: () => 'transfer me',
      transcribe: () => Promise.resolve('transfer me to a human'),
    });
    try {
      const { events, listener } = recording();
      const stream = recognizer(canned.apiKey, 10_000, canned.url).start('en-US', { listener });
      const samples = await speech(PHRASE);
      for (let i = 0; i < 16_000; i += 320) stream.write(samples.subarray(i, i + 320));
      await eventually(() => (canned.connections[0]?.bytes ?? 0) > 0);
      stream.cancel();
      const told = events.length;
      await eventually(() => expect(canned.connections[0]?.closed?.by).toBe('client'));
      for (let i = 16_000; i < samples.length; i += 320) stream.write(samples.subarray(i, i + 320));
      await sleep(600);
      expect(events.length).toBe(told);
      await expect(stream.finish()).resolves.toBe('');
      expect(canned.connections).toHaveLength(1);
    } finally {
      await canned.close();
    }
  });
});
