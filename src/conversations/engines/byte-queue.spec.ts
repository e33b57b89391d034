import { ByteQueue } from './byte-queue';
import { HelperAnswers } from './embedded/embedded-synthesizer';

/** The flite helper's output for `answers` (greeting, then count, rate and samples per answer), in `chunk`-byte chunks. */
function helperOutput(answers: Int16Array[], chunk: number): Buffer[] {
  const parts: Buffer[] = [Buffer.from('READY\0\0\0')];
  for (const samples of answers) {
    const head = Buffer.alloc(8);
    head.writeUInt32LE(samples.length, 0);
    head.writeUInt32LE(16_000, 4);
    parts.push(head, Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength));
  }
  const all = Buffer.concat(parts);
  const chunks: Buffer[] = [];
  for (let at = 0; at < all.length; at += chunk) chunks.push(Buffer.from(all.subarray(at, at + chunk)));
  return chunks;
}

describe('ByteQueue (bytes kept as they came, each copied out once)', () => {
  it('takes, peeks and skips across chunk boundaries', () => {
    const q = new ByteQueue();
    q.push(Buffer.from('ab'));
    q.push(Buffer.alloc(0));
    q.push(Buffer.from('cdef'));
    q.push(Buffer.from('g'));
    expect(q.length).toBe(7);
    expect(q.peek(3).toString()).toBe('abc');
    expect(q.length).toBe(7);
    q.skip(1);
    const two = new Uint8Array(4);
    q.take(two);
    expect(Buffer.from(two).toString()).toBe('bcde');
    expect(q.takeAll().toString()).toBe('fg');
    expect(q.length).toBe(0);
    expect(q.takeAll().length).toBe(0);
  });

  it('keeps working after many chunks were taken (the dropped ones are compacted away)', () => {
    const q = new ByteQueue();
    let expected = '';
    for (let i = 0; i < 1_000; i++) {
      q.push(Buffer.from(`${i % 10}`));
      expected += `${i % 10}`;
      if (i % 3 === 2) {
        q.skip(2);
        expected = expected.slice(2);
      }
    }
    expect(q.takeAll().toString()).toBe(expected);
  });

  it('reads 9 MB of helper output in 64 KB chunks copying each byte about once (linear, not once per chunk)', () => {
    // 16,000 characters of speech by flite: about 9 MB of 16 kHz samples.
    const samples = new Int16Array(4_600_000);
    for (let i = 0; i < samples.length; i++) samples[i] = (i * 7) % 30_000;
    const chunks = helperOutput([samples], 65_536);
    const reader = new HelperAnswers();
    const made = chunks.flatMap((c) => reader.push(c));
    expect(made).toHaveLength(1);
    const got = made[0]?.samples ?? new Int16Array(0);
    expect(Buffer.from(got.buffer).equals(Buffer.from(samples.buffer))).toBe(true);
    const total = samples.byteLength;
    // Each sample byte once, plus an 8-byte header look per chunk: concatenating everything so far per
    // chunk would copy about total × chunks / 2 bytes (650 MB here, 70 times the output).
    expect(reader.bytes.copied).toBeLessThanOrEqual(total + 8 * (chunks.length + 1));
    expect(reader.bytes.length).toBe(0);
  });

  it('copies in proportion to the output whatever the chunk size: the ratio does not grow with the length', () => {
    const ratio = (n: number, chunk: number): number => {
      const reader = new HelperAnswers();
      const chunks = helperOutput([new Int16Array(n), new Int16Array(n / 2)], chunk);
      let answers = 0;
      for (const c of chunks) answers += reader.push(c).length;
      expect(answers).toBe(2);
      return reader.bytes.copied / (n * 3);
    };
    const small = ratio(10_000, 1_000);
    const large = ratio(1_000_000, 1_000);
    expect(large).toBeLessThan(small * 1.5);
    expect(large).toBeLessThan(10);
  });

  it('answers every line of helper output that one chunk completes, and waits for a partial one', () => {
    const reader = new HelperAnswers();
    const [one, two] = [new Int16Array([1, 2, 3]), new Int16Array([4, 5])];
    const all = Buffer.concat(helperOutput([one, two], 1 << 20));
    expect(reader.push(all.subarray(0, all.length - 1))).toEqual([{ sampleRate: 16_000, samples: one }]);
    expect(reader.push(all.subarray(all.length - 1))).toEqual([{ sampleRate: 16_000, samples: two }]);
  });
});
