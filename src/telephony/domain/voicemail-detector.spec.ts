import { VoicemailDetector } from './voicemail-detector';

const speech = () => Int16Array.from({ length: 160 }, (_, i) => Math.round(4000 * Math.sin(i / 3)));
const silence = () => new Int16Array(160);

/** Feeds `ms` of frames; returns the verdict after them. */
function feed(d: VoicemailDetector, make: () => Int16Array, ms: number) {
  let v = d.verdict;
  for (let t = 0; t < ms; t += 20) v = d.push(make());
  return v;
}

describe('VoicemailDetector', () => {
  it('a short "hello" then silence is a person, decided at the end of the utterance', () => {
    const d = new VoicemailDetector();
    expect(feed(d, silence, 600)).toBeNull();
    expect(feed(d, speech, 800)).toBeNull();
    expect(feed(d, silence, 400)).toBe('human');
  });

  it('a greeting of continuous speech over 3.5 s (pauses of a breath included) is a machine', () => {
    const d = new VoicemailDetector();
    feed(d, silence, 500);
    for (let i = 0; i < 3; i++) {
      expect(feed(d, speech, 800)).toBeNull();
      expect(feed(d, silence, 200)).toBeNull();
    }
    expect(feed(d, speech, 600)).toBe('machine');
    // Final: later frames change nothing.
    expect(feed(d, silence, 2000)).toBe('machine');
  });

  it('silence through the window is a person, and stays one when a long speech comes after', () => {
    const d = new VoicemailDetector();
    expect(feed(d, silence, 4980)).toBeNull();
    expect(feed(d, silence, 20)).toBe('human');
    expect(feed(d, speech, 5000)).toBe('human');
  });

  it('quiet noise below the threshold is not speech', () => {
    const d = new VoicemailDetector();
    const hiss = () => Int16Array.from({ length: 160 }, () => Math.round((Math.random() - 0.5) * 200));
    expect(feed(d, hiss, 5000)).toBe('human');
  });
});
