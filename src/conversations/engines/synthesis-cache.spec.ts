import type { SpeechSynthesizer, SynthesizedSpeech } from './engines';
import { CachingSynthesizer } from './synthesis-cache';

/** A synthesiser that counts its calls and answers `text.length` samples of 16 kHz. */
function counting(): SpeechSynthesizer & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    synthesize: (text, { voiceId }) => {
      calls.push(`${voiceId ?? '-'}:${text}`);
      if (text === 'fails') return Promise.reject(new Error('engine down'));
      return Promise.resolve<SynthesizedSpeech>({ sampleRate: 16_000, samples: new Int16Array(text.length) });
    },
  };
}

describe('CachingSynthesizer', () => {
  it('synthesises a line once per voice: the same text again is the same speech, another voice is asked', async () => {
    const inner = counting();
    const cache = new CachingSynthesizer(inner);
    const first = await cache.synthesize('Hello, this is Ava.', { voiceId: 'voice_ava' });
    const again = await cache.synthesize('Hello, this is Ava.', { voiceId: 'voice_ava' });
    await cache.synthesize('Hello, this is Ava.', { voiceId: 'voice_leo' });
    expect(again).toBe(first);
    expect(inner.calls).toEqual(['voice_ava:Hello, this is Ava.', 'voice_leo:Hello, this is Ava.']);
  });

  it('shares a synthesis under way: callers that ask meanwhile wait for it, and it stops only when all gave up', async () => {
    const signals: AbortSignal[] = [];
    let finish: (speech: SynthesizedSpeech) => void = () => undefined;
    const slow: SpeechSynthesizer = {
      synthesize: (_text, { signal }) => {
        if (signal) signals.push(signal);
        return new Promise((resolve) => (finish = resolve));
      },
    };
    const cache = new CachingSynthesizer(slow);
    const first = new AbortController();
    const second = new AbortController();
    const a = cache.synthesize('Hello.', { signal: first.signal });
    const b = cache.synthesize('Hello.', { signal: second.signal });
    expect(signals).toHaveLength(1);
    first.abort();
    await expect(a).rejects.toThrow('aborted');
    expect(signals[0]?.aborted).toBe(false); // the second caller still waits for it
    const speech = { sampleRate: 16_000, samples: new Int16Array(4) };
    finish(speech);
    await expect(b).resolves.toBe(speech);

    const c = cache.synthesize('Goodbye.', { signal: first.signal });
    await expect(c).rejects.toThrow('aborted'); // asked with a signal already aborted
    const third = new AbortController();
    const d = cache.synthesize('Goodbye.', { signal: third.signal });
    third.abort();
    await expect(d).rejects.toThrow('aborted');
    expect(signals).toHaveLength(2); // the caller that had given up before asking started nothing
    expect(signals[1]?.aborted).toBe(true); // its only caller gone: the engine stops
  });

  it('keeps no failure: the next request asks again', async () => {
    const inner = counting();
    const cache = new CachingSynthesizer(inner);
    await expect(cache.synthesize('fails', {})).rejects.toThrow('engine down');
    await expect(cache.synthesize('fails', {})).rejects.toThrow('engine down');
    expect(inner.calls).toHaveLength(2);
    expect(cache.size).toBe(0);
  });

  it('is bounded by bytes, the least recently used out first', async () => {
    const inner = counting();
    // 20 bytes: two lines of 5 samples (10 bytes each).
    const cache = new CachingSynthesizer(inner, 20);
    await cache.synthesize('aaaaa', {});
    await cache.synthesize('bbbbb', {});
    await cache.synthesize('aaaaa', {}); // used again: b is now the oldest
    await cache.synthesize('ccccc', {}); // over the bound: b goes
    expect(cache.size).toBe(2);
    inner.calls.length = 0;
    await cache.synthesize('aaaaa', {});
    await cache.synthesize('ccccc', {});
    await cache.synthesize('bbbbb', {});
    expect(inner.calls).toEqual(['-:bbbbb']);
    // A line larger than the whole bound is not kept.
    await cache.synthesize('x'.repeat(11), {});
    await cache.synthesize('x'.repeat(11), {});
    expect(inner.calls.filter((c) => c.startsWith('-:x'))).toHaveLength(2);
  });

  it('passes the engine’s warm-up on', () => {
    let warmed = 0;
    const cache = new CachingSynthesizer({ ...counting(), prewarm: () => warmed++ } as SpeechSynthesizer);
    cache.prewarm();
    expect(warmed).toBe(1);
    // An engine without one: nothing happens.
    new CachingSynthesizer(counting()).prewarm();
  });

  describe('stream() of a streaming engine', () => {
    /** An engine whose stream yields 10 samples per word; an aborted stream ends quietly (as ElevenLabs' does). */
    const streaming = () => {
      const calls: string[] = [];
      const engine: SpeechSynthesizer = {
        synthesize: () => Promise.reject(new Error('not used')),
        async *stream(text, { signal }) {
          calls.push(text);
          for (const _word of text.split(' ')) {
            if (signal?.aborted) return;
            yield { sampleRate: 16_000, samples: new Int16Array(10) };
          }
        },
      };
      return { engine, calls };
    };
    const drain = async (chunks: AsyncIterable<{ samples: Int16Array }>, abort?: AbortController) => {
      let samples = 0;
      for await (const chunk of chunks) {
        samples += chunk.samples.length;
        abort?.abort();
      }
      return samples;
    };

    it('streams a line the first time, then answers it kept in one chunk', async () => {
      const { engine, calls } = streaming();
      const cache = new CachingSynthesizer(engine);
      await expect(drain(cache.stream('one two three', {}))).resolves.toBe(30);
      await expect(drain(cache.stream('one two three', {}))).resolves.toBe(30);
      expect(calls).toEqual(['one two three']);
    });

    it('keeps nothing of a stream its caller cut (a barge-in over the greeting)', async () => {
      const { engine, calls } = streaming();
      const cache = new CachingSynthesizer(engine);
      const cut = new AbortController();
      await expect(drain(cache.stream('one two three', { signal: cut.signal }), cut)).resolves.toBe(10);
      await expect(drain(cache.stream('one two three', {}))).resolves.toBe(30);
      expect(calls).toHaveLength(2);
    });

    it("passes a streaming-input engine's open() through, and has none for an engine without one", () => {
      const open = jest.fn();
      expect(new CachingSynthesizer({ ...streaming().engine, open }).open).toBeDefined();
      expect(new CachingSynthesizer(streaming().engine).open).toBeUndefined();
    });
  });
});
