/**
 * Telephone audio for the specs of the 8 kHz detectors (DTMF, beep, answering machine): sox's tones
 * and noises, flite's speech, at 8 kHz mono 16-bit, the small sums done on them, and what pocketsphinx
 * hears in phone audio. Real tools make the audio; the specs only mix it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeUlaw, encodeUlaw } from '../../src/kernel/audio/g711';
import { decodePcm16Wav } from '../../src/kernel/audio/wav';
import { EmbeddedRecognizer } from '../../src/conversations/engines/embedded/embedded-recognizer';

/** A folder for one spec's files; `close()` removes it. */
export class PhoneAudio {
  readonly dir = mkdtempSync(join(tmpdir(), 'phone-audio-'));
  private made = 0;

  /** `sox -n <file> <effects>` (synth and the like), 8 kHz; `-D`: no dither, the same audio every run. */
  sox(...effects: string[]): Int16Array {
    const path = join(this.dir, `sox-${++this.made}.wav`);
    execFileSync('sox', ['-D', '-n', '-r', '8000', '-c', '1', '-b', '16', '-e', 'signed-integer', path, ...effects]);
    return decodePcm16Wav(readFileSync(path)).samples;
  }

  /** flite saying `text` in `voice` (default slt), at 8 kHz. */
  speech(text: string, voice = 'slt'): Int16Array {
    const wav = join(this.dir, `flite-${++this.made}.wav`);
    const out = join(this.dir, `speech-${this.made}.wav`);
    execFileSync('flite', ['-voice', voice, '-t', text, '-o', wav]);
    execFileSync('sox', ['-D', wav, '-r', '8000', '-c', '1', '-b', '16', '-e', 'signed-integer', out]);
    return decodePcm16Wav(readFileSync(out)).samples;
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export const rms = (s: Int16Array): number => Math.sqrt(s.reduce((sum, v) => sum + v * v, 0) / Math.max(1, s.length));

/** Through G.711 μ-law and back, as a phone line carries it. */
export const ulaw = (samples: Int16Array): Int16Array => decodeUlaw(encodeUlaw(samples));

export function concat(...parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** `signal` with `noise` (looped) added at `snrDb` below `reference`'s RMS. */
export function withNoise(signal: Int16Array, noise: Int16Array, snrDb: number, reference: Int16Array): Int16Array {
  const scale = rms(reference) / rms(noise) / 10 ** (snrDb / 20);
  return signal.map((v, i) => v + Math.round((noise[i % noise.length] ?? 0) * scale));
}

/** pocketsphinx's words for 8 kHz phone audio, upsampled by inserting zeros (which it hears best). */
export async function recognisePhoneAudio(samples: Int16Array): Promise<string> {
  const recognizer = new EmbeddedRecognizer('/usr/share/pocketsphinx/model/en-us');
  try {
    const stream = recognizer.start('en-US');
    const up = new Int16Array(samples.length * 2);
    samples.forEach((v, i) => (up[2 * i] = v));
    stream.write(up);
    stream.write(new Int16Array(16000));
    return await stream.finish();
  } finally {
    recognizer.close();
  }
}
