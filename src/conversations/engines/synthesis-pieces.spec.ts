import type { SynthesizedSpeech } from './engines';
import { MAX_SYNTHESIS_PIECE, synthesisPieces, synthesizeInPieces } from './synthesis-pieces';

/** Every piece within the bound, and nothing but white space lost: the pieces joined are the line. */
function expectWhole(text: string, pieces: string[], max = MAX_SYNTHESIS_PIECE): void {
  for (const piece of pieces) {
    expect(piece.length).toBeLessThanOrEqual(max);
    expect(piece).toBe(piece.trim());
    expect(piece).not.toBe('');
  }
  expect(pieces.join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
}

function hasLoneSurrogate(s: string): boolean {
  return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
}

describe('synthesisPieces (a spoken line in pieces of at most 400 characters)', () => {
  it('gives no piece for nothing or white space, and one for a short line (its white space made single)', () => {
    expect(synthesisPieces('')).toEqual([]);
    expect(synthesisPieces(' \n\t ')).toEqual([]);
    expect(synthesisPieces('  Hello,\n  there.  ')).toEqual(['Hello, there.']);
  });

  it('keeps a line of exactly 400 characters whole, and cuts one of 401', () => {
    const exact = 'a'.repeat(400);
    expect(synthesisPieces(exact)).toEqual([exact]);
    const words = `${'word '.repeat(79)}word`; // 399 characters
    expect(synthesisPieces(`${words}s`)).toEqual([`${words}s`]);
    expect(synthesisPieces(`${words}s x`)).toEqual([`${words}s`, 'x']);
    expect(synthesisPieces('a'.repeat(401))).toEqual(['a'.repeat(400), 'a']);
  });

  it('cuts a piece of exactly 400 when the space is the 401st character', () => {
    const first = 'b'.repeat(400);
    expect(synthesisPieces(`${first} c`)).toEqual([first, 'c']);
  });

  it('cuts at the last sentence end that fits, else a clause end, else a space', () => {
    const a = `${'A sentence here. '.repeat(20)}`.trim(); // 339 characters
    const pieces = synthesisPieces(`${a} ${'more words and '.repeat(10)}end.`);
    expect(pieces[0]).toBe(a);
    expectWhole(`${a} ${'more words and '.repeat(10)}end.`, pieces);

    const clause = `${'x'.repeat(250)}, ${'y '.repeat(100)}`;
    expect(synthesisPieces(clause)[0]).toBe(`${'x'.repeat(250)},`);

    const spaced = 'word '.repeat(200);
    const byWords = synthesisPieces(spaced);
    expect(byWords.every((p) => /^(word )*word$/.test(p))).toBe(true);
    expectWhole(spaced, byWords);
  });

  it('takes closing quotes and brackets as part of a sentence end, and ! ? … as ends', () => {
    const text = `${'z'.repeat(300)} "Really?" (Yes!) ${'q '.repeat(60)}`;
    const pieces = synthesisPieces(text);
    expect(pieces[0]?.endsWith('(Yes!)')).toBe(true);
    expectWhole(text, pieces);
    expect(synthesisPieces(`${'w'.repeat(300)}… ${'v '.repeat(60)}`)[0]?.endsWith('…')).toBe(true);
  });

  it('cuts a text with no spaces at all every 400 characters', () => {
    const text = 'x'.repeat(16_000);
    const pieces = synthesisPieces(text);
    expect(pieces).toHaveLength(40);
    expect(pieces.every((p) => p.length === 400)).toBe(true);
  });

  it('never cuts inside a surrogate pair (emoji, astral script) or before a combining mark', () => {
    const emoji = '😀'.repeat(300); // 600 code units, no spaces
    const pieces = synthesisPieces(emoji);
    expectWhole(emoji, pieces);
    expect(pieces.some(hasLoneSurrogate)).toBe(false);
    expect(pieces.join('')).toBe(emoji);

    // An odd start shifts the pairs: a cut at 400 would fall inside one.
    const shifted = `a${'𝒜'.repeat(300)}`;
    const shiftedPieces = synthesisPieces(shifted);
    expect(shiftedPieces.some(hasLoneSurrogate)).toBe(false);
    expect(shiftedPieces.join('')).toBe(shifted);

    const accents = `a${'e\u0301'.repeat(300)}`; // é as e + combining acute, a cut at 400 before a mark
    const accentPieces = synthesisPieces(accents);
    expect(accentPieces.every((p) => !/^\p{M}/u.test(p))).toBe(true);
    expect(accentPieces.join('')).toBe(accents);
  });

  it('cuts non-Latin text with spaces at its spaces and its own sentence ends', () => {
    const text = 'Привет, как дела? '.repeat(60);
    const pieces = synthesisPieces(text);
    expectWhole(text, pieces);
    expect(pieces.every((p) => p.endsWith('?'))).toBe(true);
    const cjk = '今日は良い天気です。'.repeat(100); // no spaces at all
    expectWhole(cjk, synthesisPieces(cjk));
  });

  it('cuts 16,000 characters of prose into at least 40 pieces, all the words kept in order', () => {
    const prose = 'The quick brown fox jumps over the lazy dog, again and again. '.repeat(260).slice(0, 16_000);
    const pieces = synthesisPieces(prose);
    expect(pieces.length).toBeGreaterThanOrEqual(40);
    expectWhole(prose, pieces);
    expect(pieces.join(' ')).toBe(prose.trim());
  });

  it('keeps to a smaller bound when given one, and refuses one too small to progress', () => {
    expectWhole('one two three four five', synthesisPieces('one two three four five', 5), 5);
    expect(() => synthesisPieces('abc', 1)).toThrow(RangeError);
  });
});

describe('synthesizeInPieces (what an engine does with a long line)', () => {
  const tone = (rate: number, n: number, v: number): SynthesizedSpeech => ({
    sampleRate: rate,
    samples: new Int16Array(n).fill(v),
  });

  it('speaks a short line in one request', async () => {
    const speak = jest.fn((piece: string) => Promise.resolve(tone(16_000, piece.length, 1)));
    const speech = await synthesizeInPieces('Hello there.', speak);
    expect(speak).toHaveBeenCalledTimes(1);
    expect(speech.samples.length).toBe('Hello there.'.length);
  });

  it('speaks a 16,000-character line in at least 40 pieces, one at a time, joined in order', async () => {
    const asked: string[] = [];
    let running = 0;
    let most = 0;
    const speak = async (piece: string): Promise<SynthesizedSpeech> => {
      asked.push(piece);
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setImmediate(r));
      running--;
      return tone(16_000, 10, asked.length);
    };
    const speech = await synthesizeInPieces('word '.repeat(3_200), speak);
    expect(asked.length).toBeGreaterThanOrEqual(40);
    expect(asked.every((p) => p.length <= MAX_SYNTHESIS_PIECE)).toBe(true);
    expect(most).toBe(1);
    expect(speech.samples.length).toBe(10 * asked.length);
    expect(speech.samples[0]).toBe(1);
    expect(speech.samples.at(-1)).toBe(asked.length);
  });

  it('stops at the first piece that fails', async () => {
    let calls = 0;
    const speak = (): Promise<SynthesizedSpeech> =>
      ++calls === 2 ? Promise.reject(new Error('engine down')) : Promise.resolve(tone(16_000, 4, 1));
    await expect(synthesizeInPieces('y'.repeat(2_000), speak)).rejects.toThrow('engine down');
    expect(calls).toBe(2);
  });

  it('converts a piece at another rate to the first piece’s rate', async () => {
    let n = 0;
    const speak = (): Promise<SynthesizedSpeech> =>
      Promise.resolve(n++ === 0 ? tone(16_000, 160, 5) : tone(8_000, 80, 5));
    const speech = await synthesizeInPieces('x'.repeat(800), speak);
    expect(speech.sampleRate).toBe(16_000);
    expect(speech.samples.length).toBeGreaterThanOrEqual(310);
    expect(speech.samples.length).toBeLessThanOrEqual(330);
  });
});
