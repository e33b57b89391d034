import { Logger } from '@nestjs/common';
import type { SpeechSynthesizer, SynthesizedSpeech } from '../engines/engines';
import { MAX_SYNTHESIS_PIECE } from '../engines/synthesis-pieces';
import { OutputQueue } from './output-queue';
import { SpokenAnswer, trimLeadingSilence } from './spoken-answer';

/** A synthesiser whose requests are answered by the test, one by one: it sees what it was asked, and when. */
class HeldSynthesizer implements SpeechSynthesizer {
  readonly asked: {
    text: string;
    voiceId?: string;
    signal?: AbortSignal;
    answer: (s: SynthesizedSpeech) => void;
    fail: (err: Error) => void;
  }[] = [];

  synthesize(text: string, options: { voiceId?: string; signal?: AbortSignal }): Promise<SynthesizedSpeech> {
    return new Promise((resolve, reject) =>
      this.asked.push({ text, voiceId: options.voiceId, signal: options.signal, answer: resolve, fail: reject }),
    );
  }

  /** Answers request `i` with 100 ms of a loud tone at 16 kHz (or `speech`). */
  answer(i: number, speech: SynthesizedSpeech = tone(100)): void {
    this.asked[i]?.answer(speech);
  }
}

/** `ms` of a constant level (a tone as far as the queue cares) at 16 kHz, after `silenceMs` of silence. */
function tone(ms: number, level = 5_000, silenceMs = 0): SynthesizedSpeech {
  const samples = new Int16Array(16 * (silenceMs + ms));
  samples.fill(level, 16 * silenceMs);
  return { sampleRate: 16_000, samples };
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

  /** A SpokenAnswer with its own queue, transport rate, clock and gate. */
  const makeWith = (
    synthesizer: SpeechSynthesizer,
    opts: { sampleRate?: number; gate?: Promise<unknown>; now?: () => number; voiceId?: string } = {},
  ) => {
    const sampleRate = opts.sampleRate ?? 16_000;
    const now = opts.now ?? (() => 0);
    const queue = new OutputQueue(sampleRate, now);
    const deps = { synthesizer, queue, sampleRate, now, ...(opts.voiceId ? { voiceId: opts.voiceId } : {}) };
    return { queue, answer: new SpokenAnswer(1, deps, opts.gate ?? Promise.resolve(), null) };
  };
  /** The first sample of each frame the queue plays (tells the pieces apart by their level). */
  const levels = (queue: OutputQueue) => {
    const out: number[] = [];
    for (let f = queue.nextFrame(); f; f = queue.nextFrame()) out.push(f[0] ?? 0);
    return out;
  };

  it('synthesises separate lines in parallel but queues them in the order they were said', async () => {
    const synthesizer = new HeldSynthesizer();
    const { answer, queue } = make(synthesizer);
    answer.say('First line.');
    answer.say('Second line.');
    answer.say('Third line.');
    expect(synthesizer.asked.map((a) => a.text)).toEqual(['First line.', 'Second line.', 'Third line.']);
    synthesizer.answer(2, tone(20, 3_000));
    synthesizer.answer(1, tone(20, 2_000));
    await settle();
    expect(queue.playing).toBe(false); // the first line is not made yet: nothing may jump ahead of it
    synthesizer.answer(0, tone(20, 1_000));
    await answer.queued();
    expect(levels(queue)).toEqual([1_000, 2_000, 3_000]);
    expect(answer.text).toBe('First line. Second line. Third line.');
  });

  it('queues nothing before its gate (the user turn being stored) resolves, nor after a gate that fails', async () => {
    for (const outcome of ['resolve', 'reject'] as const) {
      let open: () => void = () => undefined;
      const gate = new Promise<void>((resolve, reject) => {
        open = outcome === 'resolve' ? resolve : () => reject(new Error('not stored'));
      });
      const synthesizer = new HeldSynthesizer();
      const { answer, queue } = makeWith(synthesizer, { gate });
      answer.say('Hello there.');
      // Synthesis starts at once; only the queueing waits.
      expect(synthesizer.asked).toHaveLength(1);
      synthesizer.answer(0);
      await settle();
      expect(queue.playing).toBe(false);
      open();
      await answer.queued();
      expect(queue.playing).toBe(true);
    }
  });

  it('skips a piece that fails to synthesise (a warning) and queues the next ones; the awaited count goes back to 0', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      const synthesizer = new HeldSynthesizer();
      const { answer, queue } = make(synthesizer);
      let underruns = 0;
      queue.onUnderrun(() => underruns++);
      answer.say('First line.');
      answer.say('Second line.');
      synthesizer.asked[0]?.fail(new Error('engine crashed'));
      synthesizer.answer(1, tone(40, 2_000));
      await answer.queued();
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('engine crashed'));
      expect(answer.text).toBe('Second line.');
      expect(levels(queue)).toEqual([2_000, 2_000]);
      // Every piece was accounted for: the silence after the answer is not an underrun.
      expect(queue.nextFrame()).toBeNull();
      expect(underruns).toBe(0);
    } finally {
      warn.mockRestore();
    }
  });

  it('counts each piece as awaited until it is queued: a gap while the next is synthesised is an underrun', async () => {
    const synthesizer = new HeldSynthesizer();
    const { answer, queue } = make(synthesizer);
    let underruns = 0;
    queue.onUnderrun(() => underruns++);
    answer.say('First line.');
    answer.say('Second line.');
    synthesizer.answer(0, tone(20));
    await settle();
    expect(queue.nextFrame()).not.toBeNull();
    expect(queue.nextFrame()).toBeNull();
    expect(underruns).toBe(1);
    synthesizer.answer(1, tone(20));
    await answer.queued();
    expect(queue.nextFrame()).not.toBeNull();
    expect(queue.nextFrame()).toBeNull();
    expect(underruns).toBe(1);
  });

  it('ignores blank text and anything said after an abort', async () => {
    const synthesizer = new HeldSynthesizer();
    const { answer } = make(synthesizer);
    answer.say('');
    answer.say('  \n\t ');
    expect(synthesizer.asked).toHaveLength(0);
    expect(answer.firstTextAt).toBeNull();
    answer.abort.abort();
    answer.say('Too late.');
    await answer.queued();
    expect(synthesizer.asked).toHaveLength(0);
    expect(answer.text).toBe('');
  });

  it('drops a piece made before the abort but not queued yet (its gate still closed)', async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const synthesizer = new HeldSynthesizer();
    const { answer, queue } = makeWith(synthesizer, { gate });
    answer.say('Hello there.');
    synthesizer.answer(0);
    await settle();
    answer.abort.abort();
    open();
    await answer.queued();
    expect(queue.playing).toBe(false);
    expect(answer.text).toBe('');
    expect(answer.firstAudioAt).toBeNull();
  });

  it('passes the voice and its abort signal to the synthesiser', () => {
    const synthesizer = new HeldSynthesizer();
    const { answer } = makeWith(synthesizer, { voiceId: 'vc_123' });
    answer.say('Hello there.');
    expect(synthesizer.asked[0]?.voiceId).toBe('vc_123');
    expect(synthesizer.asked[0]?.signal).toBe(answer.signal);
  });

  it('notes when its first text came and when its first audio was queued', async () => {
    let clock = 100;
    const synthesizer = new HeldSynthesizer();
    const { answer } = makeWith(synthesizer, { now: () => clock });
    answer.say('First line.');
    clock = 150;
    answer.say('Second line.');
    expect(answer.firstTextAt).toBe(100);
    expect(answer.firstAudioAt).toBeNull();
    clock = 400;
    synthesizer.answer(0);
    await settle();
    clock = 700;
    synthesizer.answer(1);
    await answer.queued();
    expect(answer.firstTextAt).toBe(100);
    expect(answer.firstAudioAt).toBe(400);
  });

  it('converts the synthesised audio to the transport’s rate', async () => {
    const synthesizer = new HeldSynthesizer();
    const { answer, queue } = makeWith(synthesizer, { sampleRate: 8_000 });
    answer.say('Hello there.');
    synthesizer.answer(0, tone(100)); // 1,600 samples at 16 kHz
    await answer.queued();
    // 100 ms at 8 kHz: 800 samples, five 20 ms frames of 160.
    expect(queue.playback(1).queued).toBe(800);
    expect(queue.nextFrame()).toHaveLength(160);
  });

  it('trims the silence a synthesiser leads with from the first piece only, keeping 10 ms', async () => {
    const synthesizer = new HeldSynthesizer();
    const { answer, queue } = make(synthesizer);
    answer.say('First line.');
    answer.say('Second line.');
    synthesizer.answer(0, tone(100, 5_000, 200));
    synthesizer.answer(1, tone(100, 5_000, 200));
    await answer.queued();
    // First: 10 ms + 100 ms = 1,760 samples, 6 frames of 320. Second: 300 ms untouched, 15 frames.
    expect(queue.playback(1).queued).toBe((6 + 15) * 320);
    const first = queue.nextFrame();
    expect(first?.subarray(0, 160).every((v) => v === 0)).toBe(true);
    expect(first?.[160]).toBe(5_000);
  });

  describe('trimLeadingSilence', () => {
    const at16k = (values: number[]) => Int16Array.from(values);
    it('keeps 10 ms before the first sample louder than the silence level', () => {
      const pcm = new Int16Array(1_000);
      pcm[600] = 301;
      const trimmed = trimLeadingSilence(pcm, 16_000);
      expect(trimmed.length).toBe(1_000 - 600 + 160);
      expect(trimmed[160]).toBe(301);
    });
    it('treats quiet noise (up to ±300) as silence, and negative peaks as sound', () => {
      const pcm = new Int16Array(1_000).fill(300);
      pcm[100] = -300;
      pcm[800] = -301;
      expect(trimLeadingSilence(pcm, 16_000)).toHaveLength(1_000 - 800 + 160);
    });
    it('leaves audio that starts at once, or is silent throughout, as it is', () => {
      expect(Array.from(trimLeadingSilence(at16k([5_000, 0, 0]), 16_000))).toEqual([5_000, 0, 0]);
      const silent = new Int16Array(500);
      expect(trimLeadingSilence(silent, 16_000)).toHaveLength(500);
      const early = new Int16Array(500);
      early[50] = 1_000;
      expect(trimLeadingSilence(early, 16_000)).toHaveLength(500);
    });
  });

  describe('heard(): the words the user heard before a barge-in', () => {
    /** An answer of two pieces: 'one two three four' (5 frames) and 'five six' (10 frames). */
    const spoken = async () => {
      const synthesizer = new HeldSynthesizer();
      const { answer } = make(synthesizer);
      answer.say('one two three four');
      answer.say('five six');
      synthesizer.answer(0, tone(100)); // 5 frames of 20 ms
      synthesizer.answer(1, tone(200)); // 10 frames
      await answer.queued();
      return answer;
    };

    it('is nothing before the first frame, whole pieces once played, and everything at the end', async () => {
      const answer = await spoken();
      expect(answer.heard(0)).toBe('');
      expect(answer.heard(5)).toBe('one two three four');
      expect(answer.heard(15)).toBe('one two three four five six');
      expect(answer.heard(1_000)).toBe('one two three four five six');
    });

    it('takes the share of the words of the piece being played that its played frames are, at least one word', async () => {
      const answer = await spoken();
      expect(answer.heard(1)).toBe('one'); // 4 words × 1/5 rounds to 1
      expect(answer.heard(3)).toBe('one two'); // 4 × 3/5 = 2.4
      expect(answer.heard(4)).toBe('one two three'); // 3.2
      expect(answer.heard(6)).toBe('one two three four five'); // 2 × 1/10 rounds to 0: still one word
      expect(answer.heard(13)).toBe('one two three four five six'); // 2 × 8/10 = 1.6
    });
  });
});
