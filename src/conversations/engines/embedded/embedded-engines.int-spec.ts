import { EmbeddedRecognizer } from './embedded-recognizer';
import { EmbeddedSynthesizer } from './embedded-synthesizer';

/**
 * The embedded engines, for real: flite's slt voice speaks a sentence, pocketsphinx (kept warm)
 * recognises it as it streams in 20 ms frames. Needs the helpers built (npm run build) and Debian's
 * pocketsphinx-en-us and flite (.ci/run installs them).
 */
describe('embedded speech engines (flite → pocketsphinx)', () => {
  const recognizer = new EmbeddedRecognizer('/usr/share/pocketsphinx/model/en-us');
  const synthesizer = new EmbeddedSynthesizer();
  afterAll(() => {
    recognizer.close();
    synthesizer.close();
  });

  async function hear(text: string): Promise<string> {
    const speech = await synthesizer.synthesize(text, {});
    expect(speech.sampleRate).toBe(16000);
    const stream = recognizer.start('en-US');
    for (let i = 0; i < speech.samples.length; i += 320) stream.write(speech.samples.subarray(i, i + 320));
    stream.write(new Int16Array(8000)); // half a second of silence after the words
    return stream.finish();
  }

  it('says a sentence and recognises its words, twice on warm helpers', async () => {
    // pocketsphinx hears flite's "Transfer me to a human please." as "transformation of human please":
    // the words the built-in dialogue listens for come through (docs/speech-engines.md, "Accuracy").
    const first = await hear('Transfer me to a human please.');
    expect(first).toMatch(/human/);
    const second = await hear('Goodbye.');
    expect(second).toMatch(/goodbye/);
    // One helper served both utterances: the model was loaded once.
    expect(recognizer.helpers).toBe(1);
  });

  it('recognises several utterances at once, one helper each', async () => {
    const words = await Promise.all(
      ['Stop calling me.', 'I want to speak to a representative.', 'Hello there.'].map(hear),
    );
    expect(words[0]).toMatch(/stop calling/);
    expect(words[1]).toMatch(/representative/);
    expect(words[2]).toMatch(/hello/);
  });

  it('answers an empty utterance with no words, and a cancelled one with nothing', async () => {
    const silent = recognizer.start('en-US');
    silent.write(new Int16Array(16000));
    await expect(silent.finish()).resolves.toBe('');
    const dropped = recognizer.start('en-US');
    dropped.write(new Int16Array(1600));
    dropped.cancel();
    await expect(hear('Goodbye.')).resolves.toMatch(/goodbye/);
  });
});
