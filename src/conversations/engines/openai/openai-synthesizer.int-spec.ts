import { OpenAiStandIn, resampleLinear } from '../../../../test/support/openai-stand-in';
import { EmbeddedRecognizer } from '../embedded/embedded-recognizer';
import { EngineError, isAbortError } from '../engines';
import { hostedVoice, MAX_SPEECH_BYTES, OPENAI_PCM_RATE, OpenAiSynthesizer } from './openai-synthesizer';
import { encodeWav } from './wav';

/**
 * The OpenAI-compatible synthesiser against the loopback stand-in of a hosted API, which speaks for
 * real with flite at OpenAI's 24 kHz: what comes back is recognised by pocketsphinx.
 */
describe('OpenAiSynthesizer (/v1/audio/speech)', () => {
  let standIn: OpenAiStandIn;
  const recognizer = new EmbeddedRecognizer('/usr/share/pocketsphinx/model/en-us');
  beforeAll(async () => {
    standIn = await OpenAiStandIn.start();
  });
  afterAll(async () => {
    recognizer.close();
    await standIn.close();
  });
  afterEach(() => {
    standIn.speechAnswersWav = false;
  });

  const synthesizer = (apiKey: string | null = standIn.apiKey) =>
    new OpenAiSynthesizer(
      { url: `${standIn.url}/v1`, apiKey, model: 'tts-stand-in' },
      { timeoutMs: 10_000, maxRetries: 1 },
    );

  async function hear(samples: Int16Array, rate: number): Promise<string> {
    const pcm = resampleLinear(samples, rate, 16_000);
    const stream = recognizer.start('en-US');
    for (let i = 0; i < pcm.length; i += 320) stream.write(pcm.subarray(i, i + 320));
    stream.write(new Int16Array(8000));
    return stream.finish();
  }

  it('asks for raw PCM in the mapped voice and answers 24 kHz speech that says the words', async () => {
    // The base URL may end with /v1 (as LLM_URL's first documented form does): it is not doubled.
    const speech = await synthesizer().synthesize('Goodbye.', { voiceId: 'voice_default' });
    expect(speech.sampleRate).toBe(OPENAI_PCM_RATE);
    expect(speech.samples.length).toBeGreaterThan(OPENAI_PCM_RATE / 4);
    await expect(hear(speech.samples, speech.sampleRate)).resolves.toMatch(/goodbye/);
    const sent = standIn.requests.at(-1);
    expect(sent?.path).toBe('/v1/audio/speech');
    expect(sent?.body).toEqual({ model: 'tts-stand-in', voice: 'alloy', input: 'Goodbye.', response_format: 'pcm' });
  });

  it('asks for a line longer than 400 characters in pieces of at most 400, one after the other, joined in order', async () => {
    const before = standIn.requests.length;
    const line = 'Yes. '.repeat(200); // 1,000 characters
    const speech = await synthesizer().synthesize(line, {});
    const asked = standIn.requests.slice(before).filter((r) => r.path === '/v1/audio/speech');
    expect(asked.length).toBe(3);
    const inputs = asked.map((r) => String(r.body.input));
    expect(inputs.every((input) => input.length <= 400)).toBe(true);
    expect(inputs.join(' ')).toBe(line.trim());
    // The three answers are one speech, longer than any one of them.
    const one = await synthesizer().synthesize(inputs[0] ?? '', {});
    expect(speech.samples.length).toBeGreaterThan(2 * one.samples.length);
  });

  it('refuses an answer larger than MAX_SPEECH_BYTES without reading it whole', async () => {
    standIn.answerNext('/v1/audio/speech', 'audio/pcm', Buffer.alloc(MAX_SPEECH_BYTES + 2));
    await expect(synthesizer().synthesize('Hello.', {})).rejects.toThrow(EngineError);
  });

  it('reads a WAV answer by its header when a server sends one instead of raw PCM', async () => {
    standIn.speechAnswersWav = true;
    const speech = await synthesizer().synthesize('Hello there.', {});
    expect(speech.sampleRate).toBe(24_000);
    // No header bytes read as samples: the audio starts as flite's does, near silence.
    expect(Math.abs(speech.samples[0] ?? 0)).toBeLessThan(2000);
    await expect(hear(speech.samples, speech.sampleRate)).resolves.toMatch(/hello/);
  });

  it('refuses an answer with no audio, and a WAV that is not 16-bit PCM, as EngineErrors', async () => {
    standIn.answerNext('/v1/audio/speech', 'audio/pcm', '');
    await expect(synthesizer().synthesize('Hello.', {})).rejects.toMatchObject({
      name: 'EngineError',
      message: 'The speech synthesis engine answered no audio.',
    });
    const eightBit = encodeWav(new Int16Array(800), 24_000);
    eightBit.writeUInt16LE(8, 34); // bits per sample
    standIn.answerNext('/v1/audio/speech', 'audio/wav', eightBit);
    await expect(synthesizer().synthesize('Hello.', {})).rejects.toMatchObject({
      name: 'EngineError',
      message: 'The speech synthesis engine answered a WAV file that is not 16-bit PCM.',
    });
  });

  it('maps our voice ids to hosted voices (decision 108)', () => {
    expect(hostedVoice(undefined)).toBe('alloy');
    expect(hostedVoice('voice_default')).toBe('alloy');
    expect(hostedVoice('voice_ava')).toBe('shimmer');
    expect(hostedVoice('voice_leo')).toBe('echo');
    expect(hostedVoice('voice_mia')).toBe('coral');
    expect(hostedVoice('voi_0123456789abcdefghij')).toBe('alloy');
    expect(hostedVoice('nova')).toBe('nova');
  });

  it('answers empty text with no audio and no request; an aborted request with the abort error', async () => {
    const before = standIn.requests.length;
    await expect(synthesizer().synthesize('  ', {})).resolves.toMatchObject({ samples: new Int16Array(0) });
    expect(standIn.requests.length).toBe(before);
    const controller = new AbortController();
    controller.abort();
    const err = await synthesizer()
      .synthesize('Hello.', { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(isAbortError(err)).toBe(true);
    expect(err).not.toBeInstanceOf(EngineError);
  });

  it('answers a missing key with a 401 EngineError, and a persistent 500 with a 500 one', async () => {
    await expect(synthesizer(null).synthesize('Hello.', {})).rejects.toMatchObject({
      name: 'EngineError',
      engine: 'synthesis',
      status: 401,
      message: expect.stringMatching(/speech synthesis engine at .* answered 401: Incorrect API key/),
    });
    expect(standIn.requests.at(-1)?.authorization).toBeUndefined();
    standIn.failNext('/v1/audio/speech', 503, 2);
    await expect(synthesizer().synthesize('Hello.', {})).rejects.toMatchObject({ status: 503 });
  });

  describe('stream(): the body played as it arrives', () => {
    const collect = async (text: string, options = {}) => {
      const chunks = [];
      for await (const chunk of synthesizer().stream(text, options)) chunks.push(chunk);
      return chunks;
    };

    it('yields the speech in chunks of whole samples at 24 kHz, as long as synthesize() gives it', async () => {
      const whole = await synthesizer().synthesize('Hello there, how are you today?', {});
      const chunks = await collect('Hello there, how are you today?');
      expect(chunks.length).toBeGreaterThan(1);
      expect(chunks.every((c) => c.sampleRate === OPENAI_PCM_RATE)).toBe(true);
      const joined = new Int16Array(chunks.reduce((n, c) => n + c.samples.length, 0));
      let at = 0;
      for (const c of chunks) {
        joined.set(c.samples, at);
        at += c.samples.length;
      }
      // flite dithers: two syntheses of one line differ in their low bits, not in their length.
      expect(joined.length).toBe(whole.samples.length);
      await expect(hear(joined, OPENAI_PCM_RATE)).resolves.toMatch(/hello/);
    });

    it('reads a WAV answer whole, by its header; an empty answer and a 401 are EngineErrors', async () => {
      standIn.speechAnswersWav = true;
      const wav = await collect('Hello there.');
      expect(wav).toHaveLength(1);
      expect(Math.abs(wav[0]?.samples[0] ?? 0)).toBeLessThan(2000);
      standIn.speechAnswersWav = false;
      standIn.answerNext('/v1/audio/speech', 'audio/pcm', '');
      await expect(collect('Hello.')).rejects.toMatchObject({
        name: 'EngineError',
        message: 'The speech synthesis engine answered no audio.',
      });
      const refused = synthesizer(null).stream('Hello.', {});
      await expect(
        (async () => {
          for await (const chunk of refused) void chunk;
        })(),
      ).rejects.toMatchObject({ name: 'EngineError', status: 401 });
    });

    it('ends with the abort error, not an EngineError, when the answer is cut', async () => {
      const controller = new AbortController();
      const chunks: unknown[] = [];
      const err = await (async () => {
        for await (const chunk of synthesizer().stream('This is a long enough line to stream a while.', {
          signal: controller.signal,
        })) {
          chunks.push(chunk);
          controller.abort();
        }
      })().catch((e: unknown) => e);
      expect(chunks).toHaveLength(1);
      expect(isAbortError(err)).toBe(true);
      expect(err).not.toBeInstanceOf(EngineError);
    });
  });
});
