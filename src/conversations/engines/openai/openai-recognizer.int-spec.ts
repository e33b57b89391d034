import { OpenAiStandIn } from '../../../../test/support/openai-stand-in';
import { EmbeddedSynthesizer } from '../embedded/embedded-synthesizer';
import { EngineError } from '../engines';
import { OpenAiRecognizer, transcriptionLanguage } from './openai-recognizer';
import { decodeWav } from './wav';

/**
 * The OpenAI-compatible recogniser against the loopback stand-in of a hosted API, which transcribes
 * for real with pocketsphinx: flite speaks, the adapter uploads the utterance as a WAV file.
 */
describe('OpenAiRecognizer (/v1/audio/transcriptions)', () => {
  let standIn: OpenAiStandIn;
  const synthesizer = new EmbeddedSynthesizer();
  beforeAll(async () => {
    standIn = await OpenAiStandIn.start();
  });
  afterAll(async () => {
    synthesizer.close();
    await standIn.close();
  });

  const recognizer = (apiKey = standIn.apiKey, maxRetries = 1) =>
    new OpenAiRecognizer({ url: standIn.url, apiKey, model: 'whisper-stand-in' }, { timeoutMs: 10_000, maxRetries });

  async function say(stream: ReturnType<OpenAiRecognizer['start']>, text: string): Promise<void> {
    const speech = await synthesizer.synthesize(text, {});
    for (let i = 0; i < speech.samples.length; i += 320) stream.write(speech.samples.subarray(i, i + 320));
  }

  it('sends the utterance as a 16 kHz WAV with the model and the language, and answers its words', async () => {
    const stream = recognizer().start('en-US');
    await say(stream, 'Transfer me to a human please.');
    await expect(stream.finish()).resolves.toMatch(/human/);

    const sent = standIn.requests.at(-1);
    expect(sent?.path).toBe('/v1/audio/transcriptions');
    expect(sent?.authorization).toBe(`Bearer ${standIn.apiKey}`);
    expect(sent?.body).toMatchObject({ model: 'whisper-stand-in', language: 'en', response_format: 'json' });
    const file = sent?.body.file as { type: string; bytes: Buffer };
    expect(file.type).toBe('audio/wav');
    const wav = decodeWav(file.bytes);
    expect(wav?.sampleRate).toBe(16_000);
    expect(wav?.samples.length).toBeGreaterThan(16_000); // over a second of speech
  });

  it('maps BCP 47 to ISO 639-1, leaving out what has no two-letter code', () => {
    expect(transcriptionLanguage('en-US')).toBe('en');
    expect(transcriptionLanguage('pt_BR')).toBe('pt');
    expect(transcriptionLanguage('FR')).toBe('fr');
    expect(transcriptionLanguage('yue-HK')).toBeUndefined();
  });

  it('sends nothing for an empty or cancelled utterance', async () => {
    const before = standIn.requests.length;
    await expect(recognizer().start('en-US').finish()).resolves.toBe('');
    const dropped = recognizer().start('en-US');
    dropped.write(new Int16Array(3200));
    dropped.cancel();
    await expect(dropped.finish()).resolves.toBe('');
    expect(standIn.requests.length).toBe(before);
  });

  it('answers a wrong key with a clear 401 EngineError that does not show the key', async () => {
    const stream = recognizer('sk-wrong-key-123').start('en-US');
    stream.write(new Int16Array(1600).fill(1000));
    const err = await stream.finish().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(EngineError);
    expect(err).toMatchObject({ engine: 'recognition', status: 401 });
    expect((err as Error).message).toMatch(
      /speech recognition engine at 127\.0\.0\.1:\d+ answered 401: Incorrect API key/,
    );
    expect((err as Error).message).not.toContain('sk-wrong-key-123');
  });

  it('retries a 500 once, then answers a clear 500 EngineError', async () => {
    // One failure: the retry succeeds.
    standIn.failNext('/v1/audio/transcriptions', 500, 1);
    let stream = recognizer().start('en-US');
    await say(stream, 'Goodbye.');
    await expect(stream.finish()).resolves.toMatch(/goodbye/);

    // Two failures: the one retry fails too.
    const before = standIn.requests.length;
    standIn.failNext('/v1/audio/transcriptions', 500, 2);
    stream = recognizer().start('en-US');
    stream.write(new Int16Array(1600));
    await expect(stream.finish()).rejects.toMatchObject({
      name: 'EngineError',
      status: 500,
      message: expect.stringMatching(/answered 500: The stand-in was told to fail/),
    });
    expect(standIn.requests.length - before).toBe(2);
  });

  it('answers a 200 without a text with an EngineError', async () => {
    standIn.answerNext('/v1/audio/transcriptions', 'application/json', '{"transcript":"hello"}');
    const stream = recognizer().start('en-US');
    stream.write(new Int16Array(1600));
    await expect(stream.finish()).rejects.toMatchObject({
      name: 'EngineError',
      message: 'The speech recognition engine answered without a `text`.',
    });
  });

  it('answers an engine that cannot be reached with an EngineError without a status', async () => {
    const gone = new OpenAiRecognizer(
      { url: 'http://127.0.0.1:9', apiKey: null, model: 'whisper-1' },
      { timeoutMs: 5000, maxRetries: 0 },
    );
    const stream = gone.start('en-US');
    stream.write(new Int16Array(1600));
    await expect(stream.finish()).rejects.toMatchObject({
      name: 'EngineError',
      status: null,
      message: expect.stringMatching(/at 127\.0\.0\.1:9 could not be reached/),
    });
  });
});
