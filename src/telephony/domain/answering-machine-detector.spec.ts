/**
 * Answering-machine detection on real audio: greetings and answers spoken by flite (several voices),
 * resampled to 8 kHz by sox, trimmed of flite's own silence, set to a telephone level, laid out with
 * pauses, beeps (sox sines) and noise, and carried through G.711 μ-law as a call carries them. Each
 * fixture goes through a fresh detector in 20 ms frames unless a test says otherwise; the events it
 * returns are compared with where the words, the beep and the silences were put. Words, where a test
 * gives them, are handed over as the platform's recogniser would: once the utterance is over.
 * The labelled set and the recogniser's real words are the benchmark's (bench/voicemail.bench.ts).
 */
import { concat, PhoneAudio, rms, ulaw, withNoise } from '../../../test/support/phone-audio';
import {
  type AmdEvent,
  AnsweringMachineDetector,
  type AnsweringMachineDetectorOptions,
  machineCueScore,
} from './answering-machine-detector';

let audio: PhoneAudio;

const RATE = 8000;
const samplesOf = (ms: number): number => Math.round((ms * RATE) / 1000);
const msOf = (samples: number): number => (samples * 1000) / RATE;
const silence = (ms: number): Int16Array => new Int16Array(samplesOf(ms));

/** flite's `voice` saying `text` at 8 kHz, without its leading and trailing silence, its RMS at `dbfs`. */
function say(text: string, voice = 'kal', dbfs = -20): Int16Array {
  const samples = audio.speech(text, voice);
  const loud = (v: number): boolean => Math.abs(v) > 64;
  let last = samples.length - 1;
  while (last > 0 && !loud(samples[last] ?? 0)) last--;
  return atLevel(samples.slice(Math.max(0, samples.findIndex(loud)), last + 1), dbfs);
}

const sox = (...effects: string[]): Int16Array => audio.sox(...effects);

/** A beep: a sine with its peak at `peakDbfs`. */
const beep = (hz: number, ms: number, peakDbfs = -12): Int16Array =>
  sox('synth', String(ms / 1000), 'sin', String(hz), 'gain', String(peakDbfs));

function atLevel(samples: Int16Array, dbfs: number): Int16Array {
  const gain = (32768 * 10 ** (dbfs / 20)) / rms(samples);
  return samples.map((v) => Math.max(-32768, Math.min(32767, Math.round(v * gain))));
}

interface Heard {
  events: AmdEvent[];
  decided: Extract<AmdEvent, { type: 'decided' }> | null;
  cue: Extract<AmdEvent, { type: 'message_cue' }> | null;
}

/**
 * What a fresh detector makes of `samples` through μ-law, pushed `frame` samples at a time; each of
 * `words` is given once the audio has reached its `atMs`.
 */
function listen(
  samples: Int16Array,
  options: AnsweringMachineDetectorOptions = {},
  words: { atMs: number; text: string }[] = [],
  frame = 160,
): Heard {
  const detector = new AnsweringMachineDetector(options);
  const coded = ulaw(samples);
  const due = [...words];
  const events: AmdEvent[] = [];
  for (let i = 0; i < coded.length; i += frame) {
    while (due.length > 0 && (due[0]?.atMs ?? Infinity) <= msOf(i)) {
      const event = detector.words(due.shift()?.text ?? '');
      if (event) events.push(event);
    }
    const event = detector.push(coded.subarray(i, i + frame));
    if (event) events.push(event);
  }
  // A long push may hold two events; the second comes with the next call.
  const last = detector.push(new Int16Array(0));
  if (last) events.push(last);
  const decided = events.filter((e) => e.type === 'decided');
  const cues = events.filter((e) => e.type === 'message_cue');
  // Each at most once, the cue after the decision.
  expect(decided.length).toBeLessThanOrEqual(1);
  expect(cues.length).toBeLessThanOrEqual(1);
  if (cues.length > 0)
    expect(events.indexOf(cues[0] as AmdEvent)).toBeGreaterThan(events.indexOf(decided[0] as AmdEvent));
  return { events, decided: decided[0] ?? null, cue: cues[0] ?? null };
}

const GREETING = "Hi, you've reached Sam. Please leave a message after the tone.";

beforeAll(() => {
  audio = new PhoneAudio();
});

afterAll(() => audio.close());

describe('AnsweringMachineDetector', () => {
  it('takes a greeting that ends with a beep for a machine while the beep sounds, and cues the message at its end', () => {
    for (const [voice, hz, beepMs] of [
      ['kal', 1000, 500],
      ['rms', 440, 250],
      ['slt', 1800, 800],
    ] as const) {
      const greeting = say(GREETING, voice);
      const lead = silence(500);
      const pause = silence(700);
      const tone = beep(hz, beepMs);
      const heard = listen(concat(lead, greeting, pause, tone, silence(3000)));
      const beepStart = msOf(lead.length + greeting.length + pause.length);
      const beepEnd = beepStart + beepMs;
      expect([voice, heard.decided?.result, heard.decided?.reason]).toEqual([voice, 'machine', 'beep']);
      // 200 ms into the beep (the beep detector's minimum), to within a few 20 ms blocks.
      expect(heard.decided?.decidedAfterMs).toBeGreaterThanOrEqual(beepStart + 180);
      expect(heard.decided?.decidedAfterMs).toBeLessThanOrEqual(beepStart + 280);
      expect(heard.cue?.by).toBe('beep');
      expect(heard.cue?.atMs).toBeGreaterThanOrEqual(beepEnd);
      expect(heard.cue?.atMs).toBeLessThanOrEqual(beepEnd + 40);
    }
  });

  it('takes a long greeting without a beep for a machine by its length, and cues the message 2 s after it', () => {
    const greeting = say(
      'The person you are calling is not available. Please record your message after the tone. ' +
        'When you have finished recording, you may hang up.',
      'kal16',
    );
    expect(msOf(greeting.length)).toBeGreaterThan(7000);
    const lead = silence(300);
    const heard = listen(concat(lead, greeting, silence(4000)));
    const start = msOf(lead.length);
    const end = start + msOf(greeting.length);
    expect([heard.decided?.result, heard.decided?.reason]).toEqual(['machine', 'cadence']);
    // 6 s of talk, counted from its first loud block.
    expect(heard.decided?.decidedAfterMs).toBeGreaterThanOrEqual(start + 6000);
    expect(heard.decided?.decidedAfterMs).toBeLessThanOrEqual(start + 6400);
    expect(heard.cue?.by).toBe('silence');
    // 2 s after the last loud block, which is at or a little before the last word's end.
    expect(heard.cue?.atMs).toBeGreaterThanOrEqual(end + 1600);
    expect(heard.cue?.atMs).toBeLessThanOrEqual(end + 2100);
  });

  it('takes people answering for people, about a second after they stop, and never for a machine', () => {
    const pink = sox('synth', '3', 'pinknoise');
    for (const [text, voice, noisy] of [
      ['Hello?', 'slt', false],
      ['Yeah?', 'awb', true],
      ["Hi, who's calling?", 'rms', false],
      ['Hello, this is Dana speaking.', 'kal', true],
      ['Good afternoon, Northwind Dental, how can I help you?', 'kal16', false],
    ] as const) {
      const answer = say(text, voice, -24);
      const lead = silence(800);
      const clean = concat(lead, answer, silence(8000));
      const heard = listen(noisy ? withNoise(clean, pink, 20, answer) : clean);
      const end = msOf(lead.length + answer.length);
      expect([text, heard.decided?.result, heard.decided?.reason]).toEqual([text, 'human', 'cadence']);
      // 1.2 s of silence after a short answer, 2 s after a long one, from the last loud block.
      const after = (heard.decided?.decidedAfterMs ?? 0) - end;
      expect([text, after >= 800 && after <= 2100]).toEqual([text, true]);
      expect(heard.cue).toBeNull();
    }
  });

  it('takes a person who says "hello?" twice for a person at the first', () => {
    const hello = say('Hello?', 'rms');
    const heard = listen(concat(silence(400), hello, silence(2500), hello, silence(3000)));
    expect([heard.decided?.result, heard.decided?.reason]).toEqual(['human', 'cadence']);
    expect(heard.decided?.decidedAfterMs).toBeLessThan(400 + msOf(hello.length) + 1500);
  });

  it('never takes a person with a television talking behind them for a machine', () => {
    const news = say(
      'In other news tonight, the city council approved a new budget for the parks department. ' +
        'Forecasters expect rain through the weekend.',
      'kal16',
    );
    const hello = say('Hello?', 'slt', -20);
    const call = concat(silence(700), hello, silence(12000));
    const helloEnd = 700 + msOf(hello.length);
    // 20 dB below the person: their silence is heard through it.
    const quiet = listen(withNoise(call, news, 20, hello));
    expect([quiet.decided?.result, quiet.decided?.reason]).toEqual(['human', 'cadence']);
    expect(quiet.decided?.decidedAfterMs).toBeLessThanOrEqual(helloEnd + 1600);
    // 15 dB below: the newsreader's loudest words keep the turn open; no decision before the window ends.
    const louder = listen(withNoise(call, news, 15, hello));
    expect(louder.decided?.result).not.toBe('machine');
    // Without the foreground rule the newsreader makes one long turn of it: a machine.
    const noRule = listen(withNoise(call, news, 20, hello), { foregroundDb: 100 });
    expect(noRule.decided?.result).toBe('machine');
  });

  it('waits for the words of a turn before taking it for a person, and takes cue words for a machine', () => {
    const greeting = say("Hi, it's Sam, leave a message.", 'rms');
    const lead = silence(400);
    const audio = concat(lead, greeting, silence(5000));
    const end = msOf(lead.length + greeting.length);
    // Its cadence is a person's: without words, a person (the weakness words are for).
    expect(listen(audio).decided?.result).toBe('human');
    // The recogniser's words, given 1.4 s after the end (after the silence rule alone would have decided).
    const words = [{ atMs: end + 1400, text: "hi it's sam leave a message" }];
    const heard = listen(audio, { awaitWords: true }, words);
    expect([heard.decided?.result, heard.decided?.reason]).toEqual(['machine', 'words']);
    expect(heard.decided?.decidedAfterMs).toBeGreaterThanOrEqual(end + 1400);
    expect(heard.decided?.decidedAfterMs).toBeLessThanOrEqual(end + 1440);
    expect(heard.cue?.by).toBe('silence');
    // A person's words: a person, once they came; with none, once `wordsWaitMs` (2 s) has passed.
    const hello = say('Hello?', 'kal');
    const answer = concat(lead, hello, silence(5000));
    const helloEnd = msOf(lead.length + hello.length);
    const person = listen(answer, { awaitWords: true }, [{ atMs: helloEnd + 1600, text: 'hello' }]);
    expect(person.decided?.result).toBe('human');
    expect(person.decided?.decidedAfterMs).toBeGreaterThanOrEqual(helloEnd + 1600);
    expect(person.decided?.decidedAfterMs).toBeLessThanOrEqual(helloEnd + 1640);
    const unheard = listen(answer, { awaitWords: true });
    expect(unheard.decided?.result).toBe('human');
    expect(unheard.decided?.decidedAfterMs).toBeGreaterThanOrEqual(helloEnd + 1800);
    expect(unheard.decided?.decidedAfterMs).toBeLessThanOrEqual(helloEnd + 2100);
  });

  it('scores the greeting vocabulary, and never a person\'s "hello" or a lone suggestive word', () => {
    const machine = [
      'please leave a message after the tone',
      'the person you are calling is not available',
      "sorry i can't take your call right now",
      'you have reached the voicemail of dana',
      'at the tone please record your message',
      'leave your name and number and i will call you back',
      'i and leave the methods', // pocketsphinx's "leave a message" on phone audio
      'the mailbox is full',
    ];
    const person = [
      'hello',
      "hi who's calling",
      'good afternoon northwind dental how can i help you',
      "you've reached northwind dental this is maria speaking",
      "hello sorry i'm driving who is this",
      'yes hello who is this',
      '',
    ];
    for (const text of machine) expect([text, machineCueScore(text) >= 2]).toEqual([text, true]);
    for (const text of person) expect([text, machineCueScore(text) < 2]).toEqual([text, true]);
  });

  it('takes silence or line noise throughout for unknown after 5 s', () => {
    for (const audio of [silence(7000), sox('synth', '7', 'pinknoise', 'gain', '-45')]) {
      const heard = listen(audio);
      expect(heard.decided).toEqual({ type: 'decided', result: 'unknown', decidedAfterMs: 5000, reason: 'silence' });
      expect(heard.cue).toBeNull();
    }
    // A click on answering, then the greeting: the click is not an answer.
    const click = sox('synth', '0.04', 'whitenoise', 'gain', '-10');
    const greeting = say(GREETING, 'kal');
    const heard = listen(concat(silence(200), click, silence(1500), greeting, silence(700), beep(1000, 400)));
    expect(heard.decided?.result).toBe('machine');
  });

  it('cues the message at 30 s when the greeting never stops', () => {
    const greeting = say(GREETING, 'kal');
    const endless = concat(...Array.from({ length: Math.ceil(32000 / msOf(greeting.length)) }, () => greeting));
    const heard = listen(endless);
    expect([heard.decided?.result, heard.decided?.reason]).toEqual(['machine', 'cadence']);
    expect(heard.cue).toEqual({ type: 'message_cue', atMs: 30000, by: 'timeout' });
  });

  it('takes frames of any size to the same decisions', () => {
    const audio = concat(silence(500), say(GREETING, 'kal'), silence(600), beep(850, 400), silence(2000));
    const byFrame = [160, 80, 240, 1000].map((frame) => {
      const heard = listen(audio, {}, [], frame);
      return [heard.decided?.result, heard.decided?.reason, heard.cue?.by];
    });
    for (const seen of byFrame) expect(seen).toEqual(['machine', 'beep', 'beep']);
  });

  it('costs little per frame', () => {
    const detector = new AnsweringMachineDetector({ maxMs: Infinity, cueTimeoutMs: Infinity });
    const greeting = ulaw(say(GREETING, 'kal'));
    const started = performance.now();
    let pushed = 0;
    for (let round = 0; round < 20; round++)
      for (let i = 0; i + 160 <= greeting.length; i += 160, pushed++) detector.push(greeting.subarray(i, i + 160));
    const micros = ((performance.now() - started) * 1000) / pushed;
    console.log(`Answering-machine detector per 20 ms frame of speech: ${micros.toFixed(1)} µs`);
    // 200 µs would still be 1 % of a frame's 20 ms.
    expect(micros).toBeLessThan(200);
  });
});
