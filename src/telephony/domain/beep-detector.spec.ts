/**
 * An answering machine's beep on real audio: tones, DTMF and noise made by sox, a greeting spoken by
 * flite (slt voice), all at 8 kHz and carried through G.711 μ-law as a call would carry them. Each
 * fixture goes through a fresh detector in 20 ms frames unless a test says otherwise; the beeps it
 * returns, and when it said one was sounding, are compared with what was played.
 */
import { concat, PhoneAudio, ulaw, withNoise } from '../../../test/support/phone-audio';
import { type Beep, BeepDetector } from './beep-detector';

let audio: PhoneAudio;
const sox = (...effects: string[]): Int16Array => audio.sox(...effects);
const speech = (text: string): Int16Array => audio.speech(text);

/** A sine beep as sox makes it, its peak at `gainDb` dBFS. */
const tone = (hz: number, seconds: number, gainDb = -6): Int16Array =>
  sox('synth', String(seconds), 'sin', String(hz), 'gain', String(gainDb));

const silence = (samples: number): Int16Array => new Int16Array(samples);
const ms = (samples: number): number => samples / 8;

interface Heard {
  beeps: Beep[];
  /** When `sounding` turned true and back to false (ms of audio pushed by then). */
  soundingFrom: number[];
  soundingUntil: number[];
}

/** What a fresh detector makes of `samples` through μ-law, pushed in frames of `frame` samples. */
function listen(samples: Int16Array, frame = 160): Heard {
  const detector = new BeepDetector();
  const coded = ulaw(samples);
  const heard: Heard = { beeps: [], soundingFrom: [], soundingUntil: [] };
  let sounding = false;
  for (let i = 0; i < coded.length; i += frame) {
    const beep = detector.push(coded.subarray(i, i + frame));
    if (beep) heard.beeps.push(beep);
    if (detector.sounding !== sounding) {
      sounding = detector.sounding;
      (sounding ? heard.soundingFrom : heard.soundingUntil).push(ms(Math.min(i + frame, coded.length)));
    }
  }
  return heard;
}

/** Half a frame off the 20 ms grid, as a beep would be. */
const LEAD = 4080;

beforeAll(() => {
  audio = new PhoneAudio();
});

afterAll(() => audio.close());

describe('BeepDetector', () => {
  it('hears beeps from 400 to 2,000 Hz of 300 ms and 1 s: their tone, start and end', () => {
    const errors = { hz: 0, startMs: 0, endMs: 0 };
    for (const hz of [400, 440, 850, 1000, 1400, 2000]) {
      for (const seconds of [0.3, 1]) {
        const beep = tone(hz, seconds);
        const heard = listen(concat(silence(LEAD), beep, silence(4000)));
        const startMs = ms(LEAD);
        const endMs = ms(LEAD + beep.length);
        expect(heard.beeps).toHaveLength(1);
        const [found] = heard.beeps;
        expect(found?.hz).toBeGreaterThanOrEqual(hz - 25);
        expect(found?.hz).toBeLessThanOrEqual(hz + 25);
        // To within a frame (20 ms), tighter than the 40 ms a caller needs.
        expect(Math.abs((found?.startMs ?? 0) - startMs)).toBeLessThanOrEqual(20);
        expect(Math.abs((found?.endMs ?? 0) - endMs)).toBeLessThanOrEqual(20);
        // In progress from 200 ms in until its end, and returned by the frame where it stopped.
        expect(heard.soundingFrom).toHaveLength(1);
        expect(Math.abs((heard.soundingFrom[0] ?? 0) - (startMs + 200))).toBeLessThanOrEqual(40);
        expect(heard.soundingUntil).toHaveLength(1);
        expect(Math.abs((heard.soundingUntil[0] ?? 0) - endMs)).toBeLessThanOrEqual(40);
        errors.hz = Math.max(errors.hz, Math.abs((found?.hz ?? 0) - hz));
        errors.startMs = Math.max(errors.startMs, Math.abs((found?.startMs ?? 0) - startMs));
        errors.endMs = Math.max(errors.endMs, Math.abs((found?.endMs ?? 0) - endMs));
      }
    }
    console.log(`Beeps: worst errors ${JSON.stringify(errors)}`);
  });

  it('reads a tone between its probes to within 6.25 Hz, and hears one off centre or drifting', () => {
    for (const hz of [425, 1025, 1337, 1775, 1990]) {
      const heard = listen(concat(silence(LEAD), tone(hz, 0.3), silence(4000)));
      expect([hz, heard.beeps.length]).toEqual([hz, 1]);
      expect(Math.abs((heard.beeps[0]?.hz ?? 0) - hz)).toBeLessThanOrEqual(6.25);
    }
    // A quiet beep riding on a DC offset as large as itself (an old machine's converter).
    const offset = listen(concat(sox('synth', '0.5', 'sin', '1000', 'gain', '-20', 'dcshift', '0.1'), silence(4000)));
    expect(offset.beeps.map((b) => [b.hz, b.startMs, b.endMs])).toEqual([[1000, 0, 500]]);
    // A cheap oscillator warming up: 1,000 to 1,030 Hz over half a second.
    const drifting = listen(
      concat(silence(LEAD), sox('synth', '0.5', 'sin', '1000-1030', 'gain', '-6'), silence(4000)),
    );
    expect(drifting.beeps.map((b) => [b.startMs, b.endMs])).toEqual([[520, 1000]]);
  });

  it('takes a tone outside 400 to 2,000 Hz, too faint, or buried in noise for no beep', () => {
    const none = { beeps: [], soundingFrom: [], soundingUntil: [] };
    const played = (beep: Int16Array): Int16Array => concat(silence(LEAD), beep, silence(4000));
    for (const hz of [300, 375, 2040, 2500, 3400]) expect([hz, listen(played(tone(hz, 0.5)))]).toEqual([hz, none]);
    // Below the level floor (a peak of -50 dBFS: crosstalk, a far-off phone), and above it.
    expect(listen(played(tone(1000, 0.5, -50)))).toEqual(none);
    expect(listen(played(tone(1000, 0.5, -30))).beeps).toHaveLength(1);
    // Under white noise: still a beep at 10 dB SNR, no longer pure at 3 dB.
    const noise = sox('synth', '2', 'whitenoise');
    const beep = tone(1000, 0.5, -12);
    expect(listen(withNoise(played(beep), noise, 10, beep)).beeps).toHaveLength(1);
    expect(listen(withNoise(played(beep), noise, 3, beep))).toEqual(none);
  });

  it('takes a tone shorter than 200 ms for no beep', () => {
    for (const hz of [440, 1000, 1900]) {
      const heard = listen(concat(silence(LEAD), tone(hz, 0.15), silence(4000)));
      expect(heard).toEqual({ beeps: [], soundingFrom: [], soundingUntil: [] });
    }
  });

  it('hears the beep after a voicemail greeting, at its time, and nothing in the greeting', () => {
    const greeting = speech('Hi, you have reached Sam. Please leave a message after the tone.');
    expect(ms(greeting.length)).toBeGreaterThan(2000);
    const pause = silence(2400);
    const beep = tone(1000, 0.5);
    const heard = listen(concat(greeting, pause, beep, silence(8000)));
    const startMs = ms(greeting.length + pause.length);
    expect(heard.beeps).toHaveLength(1);
    expect(heard.beeps[0]?.hz).toBeGreaterThanOrEqual(975);
    expect(heard.beeps[0]?.hz).toBeLessThanOrEqual(1025);
    expect(Math.abs((heard.beeps[0]?.startMs ?? 0) - startMs)).toBeLessThanOrEqual(20);
    expect(Math.abs((heard.beeps[0]?.endMs ?? 0) - (startMs + 500))).toBeLessThanOrEqual(20);
    expect(heard.soundingFrom).toHaveLength(1);
    expect(Math.abs((heard.soundingFrom[0] ?? 0) - (startMs + 200))).toBeLessThanOrEqual(40);
  });

  it('hears no beep in speech, DTMF, noise or a sweep', () => {
    const none = { beeps: [], soundingFrom: [], soundingUntil: [] };
    const sentences = [
      'Hi, you have reached Sam. Please leave a message after the tone.',
      'Ooooh, aaaah, la la la la, mmmm, eeeee. Do re mi fa so la ti do.',
      'The number you have dialed is not in service. Please check the number and try again.',
    ];
    for (const text of sentences) expect(listen(speech(text))).toEqual(none);
    // A long press of each column, even twisted 8 dB (the most a keypad may): two tones, not one.
    for (const column of [1209, 1336, 1477, 1633]) {
      expect(listen(sox('synth', '1', 'sin', '852', 'sin', String(column), 'gain', '-6'))).toEqual(none);
      expect(listen(sox('synth', '1', 'sin', '852', 'sin', String(column), 'remix', '1v0.6,2v0.24'))).toEqual(none);
    }
    expect(listen(sox('synth', '2', 'whitenoise', 'gain', '-6'))).toEqual(none);
    expect(listen(sox('synth', '2', 'pinknoise', 'gain', '-6'))).toEqual(none);
    // A tone that glides (500 to 1,500 Hz in a second) is not steady.
    expect(listen(sox('synth', '1', 'sin', '500-1500', 'gain', '-6'))).toEqual(none);
  });

  it('hears a beep under white or pink noise at 20 dB SNR', () => {
    for (const kind of ['whitenoise', 'pinknoise']) {
      const noise = sox('synth', '2', kind);
      for (const hz of [440, 1000, 1800]) {
        const beep = tone(hz, 0.4);
        const heard = listen(withNoise(concat(silence(LEAD), beep, silence(4000)), noise, 20, beep));
        expect([kind, hz, heard.beeps.length]).toEqual([kind, hz, 1]);
        expect(Math.abs((heard.beeps[0]?.hz ?? 0) - hz)).toBeLessThanOrEqual(25);
        expect(Math.abs((heard.beeps[0]?.endMs ?? 0) - ms(LEAD + beep.length))).toBeLessThanOrEqual(20);
      }
    }
  });

  it('hears each of two beeps in a row, and takes frames of any size', () => {
    const twice = concat(silence(LEAD), tone(1000, 0.4), silence(1600), tone(1000, 0.4), silence(4000));
    for (const frame of [160, 80, 240, 1]) {
      const heard = listen(twice, frame);
      expect([frame, heard.beeps.map((b) => [b.hz, Math.round(b.startMs / 20) * 20])]).toEqual([
        frame,
        [
          [1000, 520],
          [1000, 1120],
        ],
      ]);
    }
  });

  it('costs little per frame', () => {
    const detector = new BeepDetector();
    const frames = { quiet: ulaw(sox('synth', '1', 'whitenoise', 'gain', '-60')), loud: ulaw(tone(1000, 1)) };
    const cost: Record<string, string> = {};
    for (const [name, audio] of Object.entries(frames)) {
      const started = performance.now();
      let pushed = 0;
      for (let round = 0; round < 40; round++)
        for (let i = 0; i + 160 <= audio.length; i += 160, pushed++) detector.push(audio.subarray(i, i + 160));
      const micros = ((performance.now() - started) * 1000) / pushed;
      cost[name] = `${micros.toFixed(1)} µs`;
      // 200 µs would still be 1% of a frame's 20 ms.
      expect(micros).toBeLessThan(200);
    }
    console.log(`Beep detector per 20 ms frame: ${JSON.stringify(cost)}`);
  });
});
