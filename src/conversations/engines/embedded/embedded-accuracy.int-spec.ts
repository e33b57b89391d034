import { readdirSync, readFileSync } from 'node:fs';
import { resampleLinear } from '../../../../test/support/openai-stand-in';
import { decodeUlaw, encodeUlaw } from '../../../kernel/audio/g711';
import { EmbeddedRecognizer } from './embedded-recognizer';
import { EmbeddedSynthesizer } from './embedded-synthesizer';

/**
 * How well the embedded engines hear each other (docs/speech-engines.md, "Accuracy"): flite's slt
 * voice speaks ten sentences a caller might say, and pocketsphinx recognises them as they come at
 * 16 kHz (a room), and after a phone line: down to 8 kHz (windowed-sinc low-pass at 3.4 kHz),
 * G.711 μ-law and back, upsampled to 16 kHz by linear interpolation. It prints the word error rates,
 * the recognition time after the end of speech (16 kHz streamed in real time, as a call does; 8 kHz
 * written at once, so that time includes the whole utterance) and the helpers' CPU per second of audio (figures
 * of one run in the doc); the bounds below are generous: they catch a broken engine, not a drift.
 */
const SENTENCES = [
  'Hello, I would like to check the status of my order.',
  'Can you tell me when the store opens tomorrow?',
  'Please transfer me to a human.',
  'I want to speak to a representative.',
  'Stop calling me and remove me from your list.',
  'My account number is four five six seven.',
  'I need to change my delivery address.',
  'The package never arrived at my house.',
  'Could you repeat that please?',
  'Thank you very much, goodbye.',
];

describe('embedded engines: word error rate of flite speech recognised by pocketsphinx', () => {
  const recognizer = new EmbeddedRecognizer('/usr/share/pocketsphinx/model/en-us');
  const synthesizer = new EmbeddedSynthesizer();
  afterAll(() => {
    recognizer.close();
    synthesizer.close();
  });

  /** Recognises `samples` in 20 ms frames, paced in real time when `paced` (as a live call streams them). */
  async function hear(samples: Int16Array, paced: boolean): Promise<{ words: string; afterEndMs: number }> {
    const stream = recognizer.start('en-US');
    const start = performance.now();
    for (let i = 0; i < samples.length; i += 320) {
      stream.write(samples.subarray(i, i + 320));
      const due = start + ((i + 320) / 16_000) * 1000;
      if (paced && due > performance.now()) await new Promise((r) => setTimeout(r, due - performance.now()));
    }
    stream.write(new Int16Array(4800)); // 300 ms of silence: what endpointing waits for
    const end = performance.now();
    const words = await stream.finish();
    return { words, afterEndMs: performance.now() - end };
  }

  it('recognises 16 kHz speech well, and 8 kHz G.711 speech less well', async () => {
    const speech: Int16Array[] = [];
    const synthCpu = helperCpuMs('speech-synthesi');
    const synthStart = performance.now();
    for (const sentence of SENTENCES) speech.push((await synthesizer.synthesize(sentence, {})).samples);
    const synthWallMs = performance.now() - synthStart;
    const synthCpuMs = helperCpuMs('speech-synthesi') - synthCpu;
    const audioSeconds = speech.reduce((n, s) => n + s.length, 0) / 16_000;

    const run = async (transform: (s: Int16Array) => Int16Array, paced: boolean) => {
      const before = helperCpuMs('speech-recogniz');
      const results = [];
      for (const [i, samples] of speech.entries()) {
        const heard = await hear(transform(samples), paced);
        results.push({ said: SENTENCES[i] ?? '', heard: heard.words, afterEndMs: heard.afterEndMs });
      }
      const errors = results.reduce((n, r) => n + wordErrors(r.said, r.heard), 0);
      const words = results.reduce((n, r) => n + normalise(r.said).length, 0);
      return {
        wer: errors / words,
        cpuMsPerAudioSecond: (helperCpuMs('speech-recogniz') - before) / audioSeconds,
        afterEndMs: results.map((r) => Math.round(r.afterEndMs)).sort((a, b) => a - b),
        results,
      };
    };
    const wide = await run((s) => s, true);
    const phone = await run(telephone, false);

    const report = {
      sentences: SENTENCES.length,
      audioSeconds: Math.round(audioSeconds * 10) / 10,
      wer16k: round(wide.wer),
      wer8kUlaw: round(phone.wer),
      recognitionAfterEndMs16kPaced: wide.afterEndMs,
      recognitionAfterEndMs8kUnpaced: phone.afterEndMs,
      recognizerCpuMsPerAudioSecond16k: Math.round(wide.cpuMsPerAudioSecond),
      recognizerCpuMsPerAudioSecond8k: Math.round(phone.cpuMsPerAudioSecond),
      synthesisWallMsPerAudioSecond: Math.round(synthWallMs / audioSeconds),
      synthesizerCpuMsPerAudioSecond: Math.round(synthCpuMs / audioSeconds),
      heard16k: wide.results.map((r) => r.heard),
      heard8k: phone.results.map((r) => r.heard),
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);

    expect(wide.wer).toBeLessThan(0.35);
    expect(phone.wer).toBeLessThan(1);
    // The phrases the built-in dialogue listens for come through at 16 kHz.
    expect(wide.results[2]?.heard).toMatch(/human/);
    expect(wide.results[3]?.heard).toMatch(/representative/);
    // "goodbye" is heard as two words: the dialogue must listen for both spellings.
    expect(wide.results[9]?.heard).toMatch(/good[ -]?bye/);
  }, 180_000);
});

/** A phone line: 16 kHz → low-pass and decimate to 8 kHz → μ-law → decode → linear upsampling to 16 kHz. */
function telephone(samples: Int16Array): Int16Array {
  const taps = lowPass(63, 3400 / 16_000);
  const narrow = new Int16Array(Math.floor(samples.length / 2));
  for (let i = 0; i < narrow.length; i++) {
    let sum = 0;
    for (let k = 0; k < taps.length; k++) sum += (samples[2 * i + k - (taps.length >> 1)] ?? 0) * (taps[k] ?? 0);
    narrow[i] = Math.max(-32768, Math.min(32767, Math.round(sum)));
  }
  return resampleLinear(decodeUlaw(encodeUlaw(narrow)), 8000, 16_000);
}

/** A Hamming-windowed sinc low-pass, cutoff as a fraction of the sample rate. */
function lowPass(length: number, cutoff: number): Float64Array {
  const taps = new Float64Array(length);
  const mid = (length - 1) / 2;
  for (let n = 0; n < length; n++) {
    const x = n - mid;
    const sinc = x === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * x) / (Math.PI * x);
    taps[n] = sinc * (0.54 - 0.46 * Math.cos((2 * Math.PI * n) / (length - 1)));
  }
  const gain = taps.reduce((a, b) => a + b, 0);
  return taps.map((t) => t / gain);
}

function normalise(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z' ]+/g, ' ')
    .split(/\s+/)
    .filter((w) => w !== '');
}

/** Substitutions, insertions and deletions between the words said and the words heard (Levenshtein on words). */
function wordErrors(said: string, heard: string): number {
  const ref = normalise(said);
  const hyp = normalise(heard);
  let row = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const next = [i];
    for (let j = 1; j <= hyp.length; j++) {
      const same = ref[i - 1] === hyp[j - 1] ? 0 : 1;
      next[j] = Math.min((row[j] ?? 0) + 1, (next[j - 1] ?? 0) + 1, (row[j - 1] ?? 0) + same);
    }
    row = next;
  }
  return row[hyp.length] ?? 0;
}

/** CPU time (user + system, ms) of this process's helper children whose name starts with `comm`. */
function helperCpuMs(comm: string): number {
  let total = 0;
  for (const task of readdirSync(`/proc/${process.pid}/task`)) {
    let children: string[] = [];
    try {
      children = readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8').trim().split(/\s+/);
    } catch {
      continue;
    }
    for (const pid of children.filter((p) => p !== '')) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        if (!name.startsWith(comm)) continue;
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        total += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, at 100 ticks/s
      } catch {
        continue;
      }
    }
  }
  return total;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
