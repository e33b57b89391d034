import { ConversationHarness } from '../../../test/support/conversation-harness';
import type { Dialogue } from '../dialogue/dialogue';
import {
  ENGINE_APOLOGY,
  ENGINE_FAILURE_CLOSING,
  EngineError,
  type RecognitionOptions,
  type RecognitionStream,
  type SpeechRecognizer,
  type SpeechSynthesizer,
} from '../engines/engines';

/**
 * The conversation with engines that fail or stream, for real (the embedded engines underneath, a
 * real 20 ms clock): decision 107's apology for each engine that fails, and a streaming recogniser's
 * endpoint and partial words.
 */
describe('Conversation with hosted-engine behaviours (failures, streaming recognition)', () => {
  const harness = new ConversationHarness();
  afterEach(() => harness.hangUp());
  afterAll(() => harness.close());
  const agent = { prompt: '', first_message: 'Hi.' };

  /** A hosted recogniser that fails every utterance: the engine at stt.test `what`. */
  const failingRecognizer = (what: string): SpeechRecognizer => ({
    start: (): RecognitionStream => ({
      write: () => undefined,
      finish: () => Promise.reject(new EngineError('recognition', `The speech recognition engine at stt.test ${what}`)),
      cancel: () => undefined,
    }),
  });

  /** Speaks `text` once the agent is quiet, and waits for the agent's next turn. */
  const turn = async (c: ReturnType<typeof harness.call>, text: string, agentTurns: number) => {
    c.user.say(await harness.speech(text));
    await c.reporter.until(() => c.reporter.turns('agent').length >= agentTurns, 20_000, `agent turn ${agentTurns}`);
  };

  it('recognition fails: the apology is the answer, no user turn; three in a row end the call with the closing', async () => {
    const failing = failingRecognizer('answered 401.');
    const c = harness.call(agent, { recognizer: failing });
    await c.reporter.until(() => c.reporter.turns('agent').length === 1, 10_000, 'the opening');
    await turn(c, 'Hello there.', 2);
    expect(c.reporter.turns('agent')[1]?.content).toBe(ENGINE_APOLOGY);
    await c.reporter.until(() => c.reporter.metricsOf().length === 1, 10_000, 'its metrics');
    await turn(c, 'Can you hear me.', 3);
    await turn(c, 'Hello.', 4);
    expect(c.reporter.turns('agent').map((t) => t.content)).toEqual([
      'Hi.',
      ENGINE_APOLOGY,
      ENGINE_APOLOGY,
      ENGINE_FAILURE_CLOSING,
    ]);
    expect(c.reporter.turns('user')).toEqual([]);
    await c.reporter.until(() => c.reporter.ofKind('ended').length === 1, 15_000, 'the end');
    expect(c.reporter.ofKind('ended')[0]?.reason).toBe('goodbye');
  });

  it('synthesis fails: the apology in the embedded voice; the line it could not say is not in the transcript', async () => {
    const failing: SpeechSynthesizer = {
      synthesize: (text, options) =>
        text === 'Hi.'
          ? harness.synthesizer.synthesize(text, options)
          : Promise.reject(new EngineError('synthesis', 'The speech synthesis engine at tts.test answered 500.', 500)),
    };
    const c = harness.call(agent, { synthesizer: failing });
    await c.reporter.until(() => c.reporter.turns('agent').length === 1, 10_000, 'the opening');
    const before = c.user.soundSince(0).length;
    await turn(c, 'Hello there.', 2);
    expect(c.reporter.turns('user')[0]?.content).toMatch(/hello/);
    expect(c.reporter.turns('agent')[1]?.content).toBe(ENGINE_APOLOGY);
    // It was heard: the user got sound after the opening.
    expect(c.user.soundSince(0).length).toBeGreaterThan(before + 50);
    expect(c.reporter.ofKind('ended')).toEqual([]);
  });

  it('recognition and synthesis both down: each turn counts once, the apologies and the closing are heard in the embedded voice', async () => {
    const recognizer = failingRecognizer('is down.');
    const synthesizer: SpeechSynthesizer = {
      synthesize: (text, options) =>
        text === 'Hi.'
          ? harness.synthesizer.synthesize(text, options)
          : Promise.reject(new EngineError('synthesis', 'The speech synthesis engine at tts.test is down.')),
    };
    const c = harness.call(agent, { recognizer, synthesizer });
    await c.reporter.until(() => c.reporter.turns('agent').length === 1, 10_000, 'the opening');
    await turn(c, 'Hello there.', 2);
    await turn(c, 'Can you hear me.', 3);
    await turn(c, 'Hello.', 4);
    expect(c.reporter.turns('agent').map((t) => t.content)).toEqual([
      'Hi.',
      ENGINE_APOLOGY,
      ENGINE_APOLOGY,
      ENGINE_FAILURE_CLOSING,
    ]);
    await c.reporter.until(() => c.reporter.ofKind('ended').length === 1, 15_000, 'the end');
    expect(c.reporter.ofKind('ended')[0]?.reason).toBe('goodbye');
  });

  it('the model fails mid-answer: what it said stays, the apology follows, the call goes on', async () => {
    const dialogue: Dialogue = {
      opening: () => 'Hi.',
      answer: (_words, t) => {
        t.say('Let me check.');
        return Promise.reject(
          new EngineError('model', 'The chat model engine at llm.test did not answer in time (15000 ms).'),
        );
      },
      pressed: () => Promise.resolve({ type: 'continue' }),
      transferFailed: () => '',
    };
    const c = harness.call(agent, { dialogue });
    await c.reporter.until(() => c.reporter.turns('agent').length === 1, 10_000, 'the opening');
    await turn(c, 'Hello there.', 2);
    expect(c.reporter.turns('agent')[1]?.content).toBe(`Let me check. ${ENGINE_APOLOGY}`);
    expect(c.reporter.ofKind('ended')).toEqual([]);
  });

  describe('a streaming recogniser', () => {
    /**
     * The embedded recogniser, made to behave as a streaming one does: it ends the utterance itself
     * once 200 ms of quiet audio followed speech (its "endpointing"), and tells partial progress every
     * 300 ms of audio. A stand-in for a provider's behaviour, over a real recogniser.
     */
    const streaming = (): SpeechRecognizer & { endpoints: number } => {
      const recognizer = {
        endpoints: 0,
        endpointing: 'provider' as const,
        start: (language: string, options?: RecognitionOptions): RecognitionStream => {
          const inner = harness.recognizer.start(language);
          let frames = 0;
          let quiet = 0;
          let heard = false;
          let ended = false;
          return {
            write: (pcm) => {
              inner.write(pcm);
              frames++;
              const loud = pcm.some((v) => Math.abs(v) > 1_000);
              heard ||= loud;
              quiet = loud ? 0 : quiet + 1;
              if (frames % 15 === 0 && !ended) options?.listener?.partial?.(`${frames * 20} ms heard`);
              if (heard && quiet >= 10 && !ended) {
                ended = true;
                recognizer.endpoints++;
                options?.listener?.endpoint?.();
              }
            },
            finish: () => inner.finish(),
            cancel: () => inner.cancel(),
          };
        },
      };
      return recognizer;
    };

    it("ends the turn at the recogniser's endpoint, long before a 1.5 s endpointing_ms; partial words reported", async () => {
      const recognizer = streaming();
      const c = harness.call({ ...agent, endpointing_ms: 1500 }, { recognizer });
      await c.reporter.until(() => c.reporter.turns('agent').length === 1, 10_000, 'the opening');
      await turn(c, 'Hello there.', 2);
      expect(recognizer.endpoints).toBe(1);
      expect(c.reporter.turns('user')[0]?.content).toMatch(/hello/);
      await c.reporter.until(() => c.reporter.metricsOf().length === 1, 10_000, 'its metrics');
      const metrics = c.reporter.metricsOf()[0]!;
      // The turn ended 200 ms into the silence, not 1,500: recognition's wait counts in stt_ms.
      expect(metrics.voice_to_voice_ms).toBeLessThan(1500);
      expect(metrics.stt_ms).toBeGreaterThanOrEqual(180);
      expect(c.reporter.partials.length).toBeGreaterThan(0);
      expect(c.reporter.partials.every((p) => p.t === c.reporter.turns('user')[0]?.t)).toBe(true);
      const userTurnAt = c.reporter.partials.at(-1)!.at;
      expect(c.reporter.partials.every((p) => p.at <= userTurnAt)).toBe(true);
    });

    it('without one, endpointing_ms is the silence that ends the turn', async () => {
      const c = harness.call({ ...agent, endpointing_ms: 1500 });
      await c.reporter.until(() => c.reporter.turns('agent').length === 1, 10_000, 'the opening');
      await turn(c, 'Hello there.', 2);
      await c.reporter.until(() => c.reporter.metricsOf().length === 1, 10_000, 'its metrics');
      expect(c.reporter.metricsOf()[0]!.voice_to_voice_ms).toBeGreaterThanOrEqual(1500);
      expect(c.reporter.partials).toEqual([]);
    });
  });
});
