/**
 * The labelled set of the voicemail benchmark (docs/voicemail-detection.md): answering-machine
 * greetings and people answering, each built from its row of `cases.json` the same way every time.
 *
 * A case's audio, at 8 kHz as a call carries it:
 * 1. its text, spoken by flite (`-voice <voice> --setf duration_stretch=<speed>`), each part between
 *    `|` separately, resampled to 8 kHz by sox (`-D`: without its random dither, so that every run
 *    makes the same samples) and trimmed of flite's own leading and trailing silence;
 * 2. laid out: `leadMs` of silence (the answer to the first word), the parts with `gapMs` between
 *    them (a greeting's pause between sentences; a person's wait before saying "Hello?" again), then
 *    for a machine with a beep `beep.pauseMs` of silence, the beep and `tailMs` of silence (the
 *    recording that follows), else `tailMs` of silence;
 * 3. the speech scaled to an active level of `levelDb` dBFS (the RMS of its 20 ms frames within
 *    40 dB of the loudest); the beep a sine of `beep.hz` with 5 ms ramps, its peak at `beep.levelDb`;
 * 4. noise added throughout at `noise.snrDb` below the speech's active level: `white`, `pink` or
 *    `brown`, from a generator seeded with the manifest's seed and the case's id (the same noise each
 *    run), or `talk`: a newsreader (flite's kal16 voice, `BACKGROUND_TALK`) looped from an offset
 *    that the seed picks, as a television in the room of a person who answers;
 * 5. through G.711 μ-law and back.
 * Written as `<dir>/<id>.wav` (16-bit PCM) for listening; the samples and the truth are returned.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeUlaw, encodeUlaw } from '../../src/kernel/audio/g711';
import { decodePcm16Wav, wavHeader } from '../../src/kernel/audio/wav';
import manifest from './cases.json';

export type Label = 'human' | 'machine';
export type NoiseType = 'white' | 'pink' | 'brown' | 'talk';

export interface VoicemailCase {
  id: string;
  label: Label;
  /** The kind of greeting (personal, business, carrier, short) or answer (short, medium, business, twice, background). */
  kind: string;
  /** The words; `|` separates parts said with `gapMs` between them. */
  text: string;
  voice: 'slt' | 'kal' | 'kal16' | 'awb' | 'rms';
  /** flite's duration_stretch: above 1 slower, below 1 faster. */
  speed: number;
  levelDb: number;
  noise: { type: NoiseType; snrDb: number } | null;
  beep: { hz: number; ms: number; pauseMs: number; levelDb: number } | null;
  leadMs: number;
  gapMs: number;
  tailMs: number;
}

export interface CaseTruth {
  /** Where each part of the speech starts and ends (ms from the answer). */
  parts: { startMs: number; endMs: number }[];
  /** The end of the last word (a machine's greeting ends there). */
  speechEndMs: number;
  beepStartMs: number | null;
  beepEndMs: number | null;
  durationMs: number;
}

export interface GeneratedCase {
  spec: VoicemailCase;
  /** 8 kHz, μ-law decoded. */
  samples: Int16Array;
  truth: CaseTruth;
}

const RATE = 8000;
const VOICES = new Set(['slt', 'kal', 'kal16', 'awb', 'rms']);

/** The manifest's cases, checked. */
export function loadCases(): { seed: number; cases: VoicemailCase[] } {
  const { seed, cases } = manifest as { seed: number; cases: VoicemailCase[] };
  const ids = new Set<string>();
  for (const c of cases) {
    if (ids.has(c.id)) throw new Error(`voicemail set: id ${c.id} twice`);
    ids.add(c.id);
    if (c.label !== 'human' && c.label !== 'machine') throw new Error(`voicemail set: ${c.id} has no label`);
    if (!VOICES.has(c.voice)) throw new Error(`voicemail set: ${c.id} has voice ${c.voice}`);
    if (c.label === 'human' && c.beep) throw new Error(`voicemail set: ${c.id} is a person with a beep`);
  }
  return { seed, cases };
}

/** Builds one case's audio into `dir` (a scratch directory the caller owns). */
export function generateCase(spec: VoicemailCase, dir: string, seed: number): GeneratedCase {
  const parts = spec.text.split('|').map((part, i) => speak(part.trim(), spec, join(dir, `${spec.id}-${i}`)));
  const ms = (samples: number): number => (samples * 1000) / RATE;
  const samplesOf = (millis: number): number => Math.round((millis * RATE) / 1000);

  const pieces: Float64Array[] = [];
  let length = samplesOf(spec.leadMs);
  const speechAt: { start: number; end: number }[] = [];
  parts.forEach((part, i) => {
    if (i > 0) length += samplesOf(spec.gapMs);
    speechAt.push({ start: length, end: length + part.length });
    pieces.push(part);
    length += part.length;
  });
  const speechEnd = length;
  let beepAt: { start: number; end: number } | null = null;
  if (spec.beep) {
    length += samplesOf(spec.beep.pauseMs);
    beepAt = { start: length, end: length + samplesOf(spec.beep.ms) };
    length = beepAt.end;
  }
  length += samplesOf(spec.tailMs);

  const mix = new Float64Array(length);
  const gain = 10 ** (spec.levelDb / 20) / activeLevel(pieces);
  speechAt.forEach(({ start }, i) => {
    const part = pieces[i] ?? new Float64Array();
    for (let j = 0; j < part.length; j++) mix[start + j] = (part[j] ?? 0) * gain;
  });
  if (spec.beep && beepAt) {
    const peak = 10 ** (spec.beep.levelDb / 20);
    const ramp = samplesOf(5);
    const n = beepAt.end - beepAt.start;
    for (let j = 0; j < n; j++) {
      const envelope = Math.min(1, j / ramp, (n - 1 - j) / ramp);
      mix[beepAt.start + j] = peak * envelope * Math.sin((2 * Math.PI * spec.beep.hz * j) / RATE);
    }
  }
  if (spec.noise) {
    const noiseSeed = seedOf(`${seed}:${spec.id}`);
    const noise =
      spec.noise.type === 'talk'
        ? backgroundTalk(length, noiseSeed, join(dir, `${spec.id}-talk`))
        : makeNoise(spec.noise.type, length, noiseSeed);
    const scale = 10 ** ((spec.levelDb - spec.noise.snrDb) / 20) / rms(noise);
    for (let j = 0; j < length; j++) mix[j] = (mix[j] ?? 0) + (noise[j] ?? 0) * scale;
  }
  const pcm = Int16Array.from(mix, (v) => Math.max(-32768, Math.min(32767, Math.round(v * 32768))));
  const samples = decodeUlaw(encodeUlaw(pcm));
  const bytes = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  writeFileSync(join(dir, `${spec.id}.wav`), Buffer.concat([wavHeader(1, RATE, bytes.length), bytes]));
  return {
    spec,
    samples,
    truth: {
      parts: speechAt.map((p) => ({ startMs: ms(p.start), endMs: ms(p.end) })),
      speechEndMs: ms(speechEnd),
      beepStartMs: beepAt ? ms(beepAt.start) : null,
      beepEndMs: beepAt ? ms(beepAt.end) : null,
      durationMs: ms(length),
    },
  };
}

/** flite's audio of `text` at 8 kHz (full scale = 1), without its leading and trailing silence. */
function speak(text: string, spec: Pick<VoicemailCase, 'voice' | 'speed'>, base: string): Float64Array {
  const raw = `${base}-flite.wav`;
  const resampled = `${base}-8k.wav`;
  execFileSync('flite', ['-voice', spec.voice, '--setf', `duration_stretch=${spec.speed}`, '-t', text, '-o', raw]);
  execFileSync('sox', ['-D', raw, '-r', String(RATE), '-c', '1', '-b', '16', '-e', 'signed-integer', resampled]);
  const samples = decodePcm16Wav(readFileSync(resampled)).samples;
  // flite's silence is (nearly) exact zeros; keep 10 ms either side of the first and last sound.
  const loud = (v: number): boolean => Math.abs(v) > 64;
  const first = Math.max(0, samples.findIndex(loud) - 80);
  let last = samples.length - 1;
  while (last > first && !loud(samples[last] ?? 0)) last--;
  return Float64Array.from(samples.subarray(first, Math.min(samples.length, last + 81)), (v) => v / 32768);
}

/** What the television says in `talk` noise: read on without a pause longer than a sentence's. */
const BACKGROUND_TALK =
  'In other news tonight, the city council approved a new budget for the parks department. ' +
  'Forecasters expect rain through the weekend, with temperatures falling into the forties by Sunday evening. ' +
  'And in sports, the home team won its third game in a row, with a late goal in the final minute.';

/** `length` samples of the newsreader, looped, starting at an offset chosen by `seed`. */
function backgroundTalk(length: number, seed: number, base: string): Float64Array {
  const talk = speak(BACKGROUND_TALK, { voice: 'kal16', speed: 1 }, base);
  const out = new Float64Array(length);
  const offset = seed % talk.length;
  for (let i = 0; i < length; i++) out[i] = talk[(offset + i) % talk.length] ?? 0;
  return out;
}

/** The RMS of the 20 ms frames within 40 dB of the loudest (the speech's active level, roughly as P.56). */
function activeLevel(parts: Float64Array[]): number {
  const frames: number[] = [];
  for (const part of parts) {
    for (let i = 0; i + 160 <= part.length; i += 160) frames.push(rms(part.subarray(i, i + 160)));
  }
  const loudest = Math.max(...frames);
  const active = frames.filter((f) => f >= loudest / 100);
  return Math.sqrt(active.reduce((sum, f) => sum + f * f, 0) / active.length);
}

function rms(samples: Float64Array): number {
  let sum = 0;
  for (const v of samples) sum += v * v;
  return Math.sqrt(sum / Math.max(1, samples.length));
}

/** A 32-bit seed from a string (FNV-1a). */
function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** Seeded noise: white (Gaussian), pink (Paul Kellet's filter of white) or brown (leaky sum of white). */
function makeNoise(type: Exclude<NoiseType, 'talk'>, length: number, seed: number): Float64Array {
  let state = seed >>> 0;
  const uniform = (): number => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
  const gaussian = (): number => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
  const out = new Float64Array(length);
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  let b3 = 0;
  let b4 = 0;
  let b5 = 0;
  let b6 = 0;
  let brown = 0;
  for (let i = 0; i < length; i++) {
    const w = gaussian();
    if (type === 'white') out[i] = w;
    else if (type === 'brown') out[i] = brown = 0.995 * brown + w;
    else {
      b0 = 0.99886 * b0 + w * 0.0555179;
      b1 = 0.99332 * b1 + w * 0.0750759;
      b2 = 0.969 * b2 + w * 0.153852;
      b3 = 0.8665 * b3 + w * 0.3104856;
      b4 = 0.55 * b4 + w * 0.5329522;
      b5 = -0.7616 * b5 - w * 0.016898;
      out[i] = b0 + b1 + b2 + b3 + b4 + b5 + b6 + w * 0.5362;
      b6 = w * 0.115926;
    }
  }
  return out;
}
