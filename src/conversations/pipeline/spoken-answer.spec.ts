import type { SpeechSynthesizer, SynthesizedSpeech } from '../engines/engines';
import { MAX_SYNTHESIS_PIECE } from '../engines/synthesis-pieces';
import { OutputQueue } from './output-queue';
import { SpokenAnswer } from './spoken-answer';

/** A synthesiser whose requests are answered by the test, one by one: it sees what it was asked, and when. */
class HeldSynthesizer implements SpeechSynthesizer {
  readonly asked: { text: string; signal?: AbortSignal; answer: (s: SynthesizedSpeech) => void }[] = [];

  synthesize(text: string, options: { signal?: AbortSignal }): Promise<SynthesizedSpeech> {
    return new Promise((resolve) => this.asked.push({ text, signal: options.signal, answer: resolve }));
  }

  /** Answers request `i` with 100 ms of a loud tone at 16 kHz. */
  answer(i: number): void {
    this.asked[i]?.answer({ sampleRate: 16_000, samples: new Int16Array(1_600).fill(5_000) });
  }
}

const settle = () => new Promise((r) => setImmediate(r));

describe('SpokenAnswer (a spoken line synthesised in pieces)', () => {
  const make = (synthesizer: SpeechSynthesizer) => {
    const queue = new OutputQueue(16_000, () => 0);
    return {
      queue,
      answer: new SpokenAnswer(1, { synthesizer, queue, sampleRate: 16_000, now: () => 0 }, Promise.resolve(), null),
    };
  };

  it('synthesises a 16,000-character line as at least 40 pieces of at most 400 characters, in order', async () => {
    const synthesizer = new HeldSynthesizer();
    const { answer } = make(synthesizer);
    const line = 'This line goes on and on, as a model might. '.repeat(400).slice(0, 16_000);
    answer.say(line);
    for (let i = 0; i < 200 && synthesizer.asked.length < 200; i++) {
      const next = synthesizer.asked.length;
      synthesizer.answer(next - 1);
      await settle();
      if (synthesizer.asked.length === next) break;
    }
    await answer.queued();
    const texts = synthesizer.asked.map((a) => a.text);
    expect(texts.length).toBeGreaterThanOrEqual(40);
    expect(texts.every((t) => t.length <= MAX_SYNTHESIS_PIECE)).toBe(true);
    expect(texts.join(' ')).toBe(line.trim());
    expect(answer.text).toBe(line.trim());
  });

  it('plays the first piece as soon as it is made, while the next is synthesised (one piece of a line at a time)', async () => {
    const synthesizer = new HeldSynthesizer();
    const { answer, queue } = make(synthesizer);
    answer.say('word '.repeat(400));
    await settle();
    expect(synthesizer.asked).toHaveLength(1);
    synthesizer.answer(0);
    await settle();
    // The first piece is queued for playback; only then is the second asked for.
    expect(queue.playing).toBe(true);
    expect(queue.playback(1).queued).toBeGreaterThan(0);
    expect(synthesizer.asked).toHaveLength(2);
  });

  it('a barge-in stops everything: no further piece is synthesised or queued', async () => {
    const synthesizer = new HeldSynthesizer();
    const { answer, queue } = make(synthesizer);
    answer.say('word '.repeat(2_000));
    synthesizer.answer(0);
    await settle();
    expect(synthesizer.asked).toHaveLength(2);
    answer.abort.abort();
    queue.flush();
    synthesizer.answer(1);
    await answer.queued();
    await settle();
    expect(synthesizer.asked).toHaveLength(2);
    expect(synthesizer.asked[1]?.signal?.aborted).toBe(true);
    expect(queue.playing).toBe(false);
  });

  it('says a short line in one request, as before', async () => {
    const synthesizer = new HeldSynthesizer();
    const { answer } = make(synthesizer);
    answer.say('Hello there.');
    synthesizer.answer(0);
    await answer.queued();
    expect(synthesizer.asked.map((a) => a.text)).toEqual(['Hello there.']);
  });
});
