import { MAX_SYNTHESIS_PIECE } from '../engines/synthesis-pieces';
import { BuiltinDialogue, echoOf, MAX_ECHO } from './builtin-dialogue';
import { briefingOf, intentOf, LINES } from './phrases';
import { SentenceSplitter } from './sentences';

describe('intentOf (keywords, tolerant of recognition)', () => {
  it.each([
    ['transformation of human please', 'transfer'],
    ['i want to speak to a representative', 'transfer'],
    ['can i talk to an agent', 'transfer'],
    ['get me a real person', 'transfer'],
    ['please stop calling me', 'opt_out'],
    ["don't call me again", 'opt_out'],
    ['do not call this number', 'opt_out'],
    ['remove me from your list', 'opt_out'],
    ['do not call me i want a person', 'opt_out'],
    ['goodbye', 'goodbye'],
    ['okay good bye then', 'goodbye'],
    ['hello there', null],
    ['i like to call my mother', null],
    ['', null],
  ])('%s → %s', (words, intent) => {
    expect(intentOf(words)).toBe(intent);
  });
});

describe('BuiltinDialogue', () => {
  const said: string[] = [];
  const turn = { say: (text: string) => said.push(text), signal: new AbortController().signal };
  beforeEach(() => (said.length = 0));

  it('says back what it heard, and opens with first_message or a short greeting', async () => {
    const dialogue = new BuiltinDialogue({ prompt: '', first_message: 'Hi, Ava here.' });
    expect(dialogue.opening()).toBe('Hi, Ava here.');
    expect(new BuiltinDialogue({ prompt: '' }).opening()).toMatch(/^Hello/);
    await expect(dialogue.answer('hello there', turn)).resolves.toEqual({ type: 'continue' });
    expect(said).toEqual(['I heard: hello there.']);
  });

  it('says back at most the first 200 characters of a long utterance, cut at a word', async () => {
    const dialogue = new BuiltinDialogue({ prompt: '' });
    const long = 'and then i said '.repeat(1_000); // 16,000 characters, as 2 minutes of speech may give
    await dialogue.answer(long, turn);
    expect(said).toHaveLength(1);
    const line = said[0] ?? '';
    expect(line).toMatch(/^I heard: and then i said .*…\.$/);
    expect(line.length).toBeLessThanOrEqual('I heard: '.length + MAX_ECHO + 2);
    expect(long.startsWith(line.slice('I heard: '.length, -2))).toBe(true);
    expect(echoOf('short words')).toBe('short words');
    expect(echoOf('x'.repeat(200))).toBe('x'.repeat(200));
    expect(echoOf('x'.repeat(500))).toBe(`${'x'.repeat(200)}…`);
    // Not cut inside a surrogate pair.
    expect(echoOf(`a${'😀'.repeat(150)}`)).toBe(`a${'😀'.repeat(99)}…`);
  });

  it('transfers only with a transfer_number; opts out; says goodbye and ends', async () => {
    const withNumber = new BuiltinDialogue({ prompt: '', transfer_number: '+14155550123' });
    await expect(withNumber.answer('a human please', turn)).resolves.toEqual({
      type: 'transfer',
      number: '+14155550123',
    });
    const without = new BuiltinDialogue({ prompt: '' });
    await expect(without.answer('a human please', turn)).resolves.toEqual({ type: 'continue' });
    await expect(without.answer('stop calling me', turn)).resolves.toEqual({ type: 'opt_out' });
    await expect(without.answer('goodbye', turn)).resolves.toEqual({ type: 'end', reason: 'goodbye' });
    expect(said).toEqual([LINES.transferring, LINES.cannotTransfer, LINES.optedOut, LINES.goodbye]);
  });
});

describe('SentenceSplitter', () => {
  it('gives whole sentences as the text streams in, and the rest at the end', () => {
    const splitter = new SentenceSplitter();
    expect(splitter.push('Hello! How ')).toEqual(['Hello!']);
    expect(splitter.push('are you? I am')).toEqual(['How are you?']);
    expect(splitter.push(' fine. It is 3.5 degrees')).toEqual(['I am fine.']);
    expect(splitter.flush()).toBe('It is 3.5 degrees');
    expect(splitter.flush()).toBeNull();
  });

  it("sends the answer's first clause at once, however short; later clauses wait for a long sentence", () => {
    const splitter = new SentenceSplitter();
    expect(splitter.push('Sure')).toEqual([]);
    expect(splitter.push(',')).toEqual([]); // "Sure,5" or "1,000" may follow: a clause ends at a space
    expect(splitter.push(' I can book that, and the rest, for')).toEqual(['Sure,']);
    expect(splitter.push(' you. Which day')).toEqual(['I can book that, and the rest, for you.']);
    expect(splitter.flush()).toBe('Which day');
    const numbers = new SentenceSplitter();
    expect(numbers.push('It costs 1,000 dollars, plus tax. ')).toEqual(['It costs 1,000 dollars,', 'plus tax.']);
  });

  it('cuts a long sentence at a clause so the first audio does not wait for its end', () => {
    const splitter = new SentenceSplitter();
    const pieces = splitter.push(
      'Your order of the blue sweater and the two pairs of socks, placed on Monday, will arrive',
    );
    expect(pieces).toEqual(['Your order of the blue sweater and the two pairs of socks,']);
  });

  it('cuts text with no sentence or clause end at a space once a piece is full, in linear time', () => {
    const splitter = new SentenceSplitter();
    const pieces: string[] = [];
    // A long answer streamed in small deltas, with no punctuation at all.
    for (let i = 0; i < 4_000; i++) pieces.push(...splitter.push('word '));
    const rest = splitter.flush();
    if (rest) pieces.push(rest);
    expect(pieces.length).toBeGreaterThanOrEqual(50);
    expect(pieces.every((p) => p.length <= MAX_SYNTHESIS_PIECE)).toBe(true);
    expect(pieces.join(' ')).toBe('word '.repeat(4_000).trim());
    // One delta of 20,000 characters with no space at all: pieces of exactly 400.
    const glued = new SentenceSplitter().push('y'.repeat(20_000));
    expect(glued).toHaveLength(49);
    expect(glued.every((p) => p.length === MAX_SYNTHESIS_PIECE)).toBe(true);
  });
});

describe('briefingOf (a warm transfer without transfer_summary)', () => {
  it('tells what the caller said first and last, once each', () => {
    expect(briefingOf(['I want to move my appointment', 'let me talk to a real person'])).toBe(
      'Hello, I have a caller on the line for you. They said: "I want to move my appointment", then "let me talk to a real person". I am connecting you now.',
    );
    expect(briefingOf(['a real person please'])).toBe(
      'Hello, I have a caller on the line for you. They said: "a real person please". I am connecting you now.',
    );
  });

  it('says only that a caller is coming when nothing was said', () => {
    expect(briefingOf([])).toBe('Hello, I have a caller on the line for you. I am connecting you now.');
    expect(briefingOf(['  '])).toBe('Hello, I have a caller on the line for you. I am connecting you now.');
  });

  it('cuts a long utterance at a word, so the briefing stays short', () => {
    const long = 'word '.repeat(100).trim();
    const text = briefingOf([long]);
    expect(text.length).toBeLessThan(320);
    expect(text).toMatch(/word…"/);
  });
});
