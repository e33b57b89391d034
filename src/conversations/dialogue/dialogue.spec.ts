import { BuiltinDialogue } from './builtin-dialogue';
import { intentOf, LINES } from './phrases';
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

  it('cuts a long sentence at a clause so the first audio does not wait for its end', () => {
    const splitter = new SentenceSplitter();
    const pieces = splitter.push(
      'Your order of the blue sweater and the two pairs of socks, placed on Monday, will arrive',
    );
    expect(pieces).toEqual(['Your order of the blue sweater and the two pairs of socks,']);
  });
});
