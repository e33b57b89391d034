import { Logger } from '@nestjs/common';
import { EngineError, type SpeechChunk, type SpeechSynthesizer, type SynthesisSession } from '../engines/engines';
import { OutputQueue } from './output-queue';
import { SpokenAnswer } from './spoken-answer';

/** A stream of chunks the test hands out one by one (or ends, or fails). */
class HeldStream implements AsyncIterable<SpeechChunk> {
  private readonly chunks: SpeechChunk[] = [];
  private ended = false;
  private error: Error | null = null;
  private wake: (() => void) | null = null;

  give(chunk: SpeechChunk): void {
    this.chunks.push(chunk);
    this.poke();
  }

  end(): void {
    this.ended = true;
    this.poke();
  }

  fail(err: Error): void {
    this.error = err;
    this.poke();
  }

  private poke(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<SpeechChunk> {
    for (;;) {
      const chunk = this.chunks.shift();
      if (chunk) {
        yield chunk;
        continue;
      }
      if (this.error) throw this.error;
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

/** `ms` of a loud constant level at 16 kHz (a sound, as far as the queue cares). */
const tone = (ms: number, characters?: number): SpeechChunk => ({
  sampleRate: 16_000,
  samples: new Int16Array(16 * ms).fill(5_000),
  ...(characters !== undefined ? { characters } : {}),
});

/** Samples of one 20 ms frame at 16 kHz (the queue counts samples). */
const FRAME = 320;

const settle = () => new Promise((r) => setImmediate(r));

function make(synthesizer: SpeechSynthesizer, wholeLines = false) {
  const queue = new OutputQueue(16_000, () => 0);
  const answer = new SpokenAnswer(
    1,
    { synthesizer, queue, sampleRate: 16_000, now: () => 0, wholeLines },
    Promise.resolve(),
    { userSpeechEndMs: 0, sttMs: 0, wordsAt: 0 },
  );
  return { queue, answer };
}

describe('SpokenAnswer with streaming engines', () => {
  beforeAll(() => jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined));

  describe('stream(): a streamed body per piece', () => {
    const streaming = () => {
      const streams: { text: string; stream: HeldStream; signal?: AbortSignal }[] = [];
      const synthesizer: SpeechSynthesizer = {
        synthesize: () => Promise.reject(new Error('not used')),
        stream: (text, options) => {
          const stream = new HeldStream();
          streams.push({ text, stream, ...(options.signal ? { signal: options.signal } : {}) });
          return stream;
        },
      };
      return { synthesizer, streams };
    };

    it('queues the first chunk while the rest of the piece is still being made', async () => {
      const { synthesizer, streams } = streaming();
      const { answer, queue } = make(synthesizer);
      answer.say('Sure,');
      streams[0]?.stream.give(tone(40));
      await settle();
      expect(queue.playback(1).queued).toBe(2 * FRAME); // two frames, before the stream ended
      streams[0]?.stream.give(tone(60));
      streams[0]?.stream.end();
      await answer.queued();
      expect(queue.playback(1).queued).toBe(5 * FRAME);
      expect(answer.text).toBe('Sure,');
      expect(answer.failure).toBeNull();
    });

    it('plays the pieces in the order said, though the second streams first', async () => {
      const { synthesizer, streams } = streaming();
      const { answer, queue } = make(synthesizer);
      answer.say('Sure,');
      answer.say('I can book that.');
      expect(streams.map((s) => s.text)).toEqual(['Sure,', 'I can book that.']);
      streams[1]?.stream.give(tone(100));
      streams[1]?.stream.end();
      await settle();
      expect(queue.playback(1).queued).toBe(0);
      streams[0]?.stream.give(tone(20));
      streams[0]?.stream.end();
      await answer.queued();
      expect(queue.playback(1).queued).toBe(6 * FRAME);
      // 1 frame of the first piece, then half of the second's 5.
      expect(answer.heard(1)).toBe('Sure,');
      expect(answer.heard(3)).toBe('Sure, I can');
    });

    it('keeps what streamed before a failure, and tells the failure; an abort is not one', async () => {
      const { synthesizer, streams } = streaming();
      const { answer, queue } = make(synthesizer);
      answer.say('One two three.');
      streams[0]?.stream.give(tone(40));
      streams[0]?.stream.fail(new EngineError('synthesis', 'The speech synthesis engine at x closed the stream.'));
      await answer.queued();
      expect(queue.playback(1).queued).toBe(2 * FRAME);
      expect(answer.failure?.message).toContain('closed the stream');

      const second = streaming();
      const cut = make(second.synthesizer);
      cut.answer.say('Four five.');
      cut.answer.abort.abort();
      expect(second.streams[0]?.signal?.aborted).toBe(true);
      second.streams[0]?.stream.fail(Object.assign(new Error('aborted'), { name: 'AbortError' }));
      await cut.answer.queued();
      expect(cut.answer.failure).toBeNull();
    });
  });

  describe('open(): one streaming-input session per answer', () => {
    const sessions = () => {
      const opened: { pushed: string[]; ended: boolean; audio: HeldStream }[] = [];
      const synthesizer: SpeechSynthesizer = {
        synthesize: () => Promise.reject(new Error('not used')),
        stream: () => {
          const whole = new HeldStream();
          whole.give(tone(20));
          whole.end();
          return whole;
        },
        open: (): SynthesisSession => {
          const state = { pushed: [] as string[], ended: false, audio: new HeldStream() };
          opened.push(state);
          return {
            push: (text) => state.pushed.push(text),
            end: () => (state.ended = true),
            audio: state.audio,
          };
        },
      };
      return { synthesizer, opened };
    };

    it('pushes each piece to one session as it is said, and ends it once the answer is whole', async () => {
      const { synthesizer, opened } = sessions();
      const { answer, queue } = make(synthesizer);
      answer.say('Sure,');
      answer.say('I can book that.');
      expect(opened).toHaveLength(1);
      expect(opened[0]?.pushed).toEqual(['Sure,', 'I can book that.']);
      // "Sure, " is 6 characters; the first chunk speaks 5 of them, the second the rest and more.
      opened[0]?.audio.give(tone(40, 5));
      await settle();
      expect(queue.playback(1).queued).toBe(2 * FRAME);
      answer.say('Which day?');
      const whole = answer.queued();
      expect(opened[0]?.ended).toBe(true);
      // "I can book that. " ends at character 23 (its space included); "Which day? " at 34.
      opened[0]?.audio.give(tone(100, 23));
      opened[0]?.audio.give(tone(60, 34));
      opened[0]?.audio.end();
      await whole;
      expect(queue.playback(1).queued).toBe(10 * FRAME);
      expect(answer.text).toBe('Sure, I can book that. Which day?');
      expect(answer.heard(2)).toBe('Sure,');
      expect(answer.heard(4)).toBe('Sure, I can');
      expect(answer.heard(7)).toBe('Sure, I can book that.');
      expect(answer.heard(8)).toBe('Sure, I can book that. Which');
    });

    it('says a line that answers no turn whole, through stream() (the cache keeps those)', async () => {
      const { synthesizer, opened } = sessions();
      const { answer, queue } = make(synthesizer, true);
      answer.say('Hello, this is the agent.');
      await answer.queued();
      expect(opened).toHaveLength(0);
      expect(queue.playback(1).queued).toBeGreaterThan(0);
    });

    it('counts each piece as awaited until the engine says its audio came (an underrun in between)', async () => {
      const { synthesizer, opened } = sessions();
      const { answer, queue } = make(synthesizer);
      let underruns = 0;
      queue.onUnderrun(() => underruns++);
      answer.say('Sure,');
      answer.say('I can.');
      opened[0]?.audio.give(tone(20, 6)); // "Sure, " spoken whole: the second piece still awaited
      await settle();
      expect(queue.nextFrame()).not.toBeNull();
      queue.nextFrame(); // the queue ran dry while "I can." is awaited
      expect(underruns).toBe(1);
      opened[0]?.audio.give(tone(20, 13));
      const whole = answer.queued();
      opened[0]?.audio.end();
      await whole;
      queue.nextFrame();
      queue.nextFrame();
      expect(underruns).toBe(1); // nothing awaited any more: silence after the answer is no underrun
    });
  });
});
