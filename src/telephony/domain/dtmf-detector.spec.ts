/**
 * In-band DTMF on real audio: tones, noise and a beep made by sox, speech by flite (slt voice), all
 * at 8 kHz and carried through G.711 μ-law as a call would carry them. Each fixture goes through a
 * fresh detector in 20 ms frames unless a test says otherwise, and the digits it reports are
 * compared with what was played.
 */
import { concat, PhoneAudio, rms, ulaw } from '../../../test/support/phone-audio';
import { DtmfDetector } from './dtmf-detector';

const KEYPAD: Record<string, [number, number]> = {};
['123A', '456B', '789C', '*0#D'].forEach((keys, r) =>
  [...keys].forEach((key, c) => (KEYPAD[key] = [[697, 770, 852, 941][r] ?? 0, [1209, 1336, 1477, 1633][c] ?? 0])),
);

let audio: PhoneAudio;
const sox = (...effects: string[]): Int16Array => audio.sox(...effects);
const speech = (text: string): Int16Array => audio.speech(text);

/** A key's dual tone as sox plays it: both sines mixed to one channel, the peak at `gainDb` dBFS. */
function key(digit: string, seconds = 0.1, gainDb = -6): Int16Array {
  const [row, column] = KEYPAD[digit] ?? [0, 0];
  return sox('synth', String(seconds), 'sin', String(row), 'sin', String(column), 'gain', String(gainDb));
}

/** A key's tones with their own amplitudes (full scale 1), for twist. */
function twisted(digit: string, rowAmplitude: number, columnAmplitude: number): Int16Array {
  const [row, column] = KEYPAD[digit] ?? [0, 0];
  return sox(
    'synth',
    '0.1',
    'sin',
    String(row),
    'sin',
    String(column),
    'remix',
    `1v${rowAmplitude},2v${columnAmplitude}`,
  );
}

const silence = (ms: number): Int16Array => new Int16Array(ms * 8);

/** The digits a fresh detector reports for `samples` through μ-law, pushed in frames of `frame` samples. */
function digits(samples: Int16Array, frame = 160): string {
  const detector = new DtmfDetector();
  const coded = ulaw(concat(silence(40), samples, silence(100)));
  let heard = '';
  for (let i = 0; i < coded.length; i += frame) heard += detector.push(coded.subarray(i, i + frame)) ?? '';
  return heard;
}

beforeAll(() => {
  audio = new PhoneAudio();
});

afterAll(() => audio.close());

describe('DtmfDetector', () => {
  it.each([
    ['at -6 dBFS', -6],
    ['at -25 dBFS', -25],
  ])('hears each of the 16 keys from a 100 ms press %s', (_, gainDb) => {
    const heard = Object.keys(KEYPAD).map((digit) => digits(key(digit, 0.1, gainDb)));
    expect(heard).toEqual(Object.keys(KEYPAD));
  });

  it('hears nothing below its level floor (a press at -55 dBFS)', () => {
    expect(digits(key('5', 0.1, -55))).toBe('');
  });

  it('hears "123#" played with gaps of 50 to 100 ms, and each digit once', () => {
    const played = concat(key('1'), silence(50), key('2'), silence(70), key('3'), silence(100), key('#'));
    expect(digits(played)).toBe('123#');
  });

  it('hears a long press once, and the same key pressed twice as two digits', () => {
    expect(digits(key('7', 1))).toBe('7');
    expect(digits(concat(key('1'), silence(60), key('1')))).toBe('11');
    expect(digits(concat(key('1', 1), silence(100), key('1', 0.5)))).toBe('11');
  });

  it('needs two blocks of a key: 40 ms is a press and a 20 ms blip is not, wherever they fall', () => {
    const press = key('5', 0.04);
    const blip = key('5', 0.02);
    for (let lead = 0; lead < 102; lead += 17) {
      expect([lead, digits(concat(new Int16Array(lead), press))]).toEqual([lead, '5']);
      expect([lead, digits(concat(new Int16Array(lead), blip))]).toEqual([lead, '']);
    }
  });

  it('keeps a press through 10 ms dropouts (lost audio), wherever they fall', () => {
    for (let at = 1000; at < 1102; at += 17) {
      const press = key('6', 0.5);
      press.fill(0, at, at + 80);
      press.fill(0, at + 800, at + 880);
      expect([at, digits(press)]).toEqual([at, '6']);
    }
  });

  it('accepts twist within 8 dB (column weaker) and 4 dB (column stronger), and rejects beyond', () => {
    const db = (d: number): number => 10 ** (d / 20);
    // Column 6 dB below the row, then 3 dB above: within limits.
    expect(digits(twisted('9', 0.5, 0.5 / db(6)))).toBe('9');
    expect(digits(twisted('9', 0.5 / db(3), 0.5))).toBe('9');
    // Column 10 dB below the row, then 6 dB above: a phone out of tolerance, or not DTMF at all.
    expect(digits(twisted('9', 0.5, 0.5 / db(10)))).toBe('');
    expect(digits(twisted('9', 0.5 / db(6), 0.5))).toBe('');
  });

  it('hears every key under white noise at 15 dB SNR', () => {
    const noise = sox('synth', '0.2', 'whitenoise');
    const heard = Object.keys(KEYPAD).map((digit) => {
      const tone = key(digit, 0.1, -12);
      const scale = rms(tone) / rms(noise) / 10 ** (15 / 20);
      const noisy = tone.map((v, i) => v + Math.round((noise[i] ?? 0) * scale));
      return digits(noisy);
    });
    expect(heard).toEqual(Object.keys(KEYPAD));
  });

  it('rejects a key buried in noise (0 dB SNR) and a second row tone 6 dB down (two keys at once)', () => {
    const noise = sox('synth', '0.2', 'whitenoise');
    const tone = key('3', 0.1, -12);
    const scale = rms(tone) / rms(noise);
    expect(digits(tone.map((v, i) => v + Math.round((noise[i] ?? 0) * scale)))).toBe('');
    const db = (d: number): number => 0.3 * 10 ** (-d / 20);
    const chord = (down: number): Int16Array =>
      sox('synth', '0.1', 'sin', '697', 'sin', '1477', 'sin', '770', 'remix', `1v0.3,2v0.3,3v${db(down)}`);
    expect(digits(chord(12))).toBe('3');
    expect(digits(chord(6))).toBe('');
  });

  it('hears no digit in speech, noise or a single tone', () => {
    const sentences = [
      'My number is five five five, one two three four. Call me at nine, eight, seven, zero, six.',
      'Press one for sales, two for support, star to repeat, or pound to go back to the main menu.',
      'Ooooh, aaaah, la la la la, mmmm, eeeee. Do re mi fa so la ti do.',
      'Hi, you have reached Sam. Please leave a message after the tone.',
    ];
    for (const text of sentences) expect(digits(speech(text))).toBe('');
    expect(digits(sox('synth', '1', 'whitenoise', 'gain', '-6'))).toBe('');
    expect(digits(sox('synth', '1', 'pinknoise', 'gain', '-6'))).toBe('');
    expect(digits(sox('synth', '0.5', 'sin', '1000', 'gain', '-6'))).toBe('');
    // One tone of a pair alone is not a key either.
    expect(digits(sox('synth', '0.5', 'sin', '1209', 'gain', '-6'))).toBe('');
  });

  it('takes frames of any size', () => {
    const played = concat(key('4'), silence(60), key('D'), silence(60), key('*'), silence(60), key('0'));
    for (const frame of [80, 240, 1, 1000]) expect([frame, digits(played, frame)]).toEqual([frame, '4D*0']);
    // A single push long enough to hold two presses returns both.
    expect(digits(concat(key('8'), silence(60), key('6')), 8000)).toBe('86');
  });

  it('forgets a digit being held on reset', () => {
    const detector = new DtmfDetector();
    const press = ulaw(key('2', 0.5));
    expect(detector.push(press.subarray(0, 1600))).toBe('2');
    expect(detector.push(press.subarray(1600, 2400))).toBeNull();
    detector.reset();
    expect(detector.push(press.subarray(2400, 4000))).toBe('2');
  });
});
