import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecognitionStream } from '../src/conversations/engines/engines';
import { EmbeddedRecognizer } from '../src/conversations/engines/embedded/embedded-recognizer';
import { Endpointer } from '../src/conversations/pipeline/endpointer';
import { VoiceActivityDetector } from '../src/conversations/pipeline/voice-activity';
import { RateConverter } from '../src/kernel/audio/rate-converter';
import {
  type AmdEvent,
  type AmdReason,
  type AmdResult,
  AnsweringMachineDetector,
} from '../src/telephony/domain/answering-machine-detector';
import { percentiles, round2 } from './percentiles';
import type { BenchContext } from './support';
import { type GeneratedCase, generateCase, loadCases } from './voicemail/generate';

/**
 * Answering-machine detection on a labelled set (docs/voicemail-detection.md): every case of
 * bench/voicemail/cases.json (greetings, people answering) is built by bench/voicemail/generate.ts
 * into a scratch directory and played through a fresh AnsweringMachineDetector in simulated time:
 * 20 ms frames pushed as fast as they go, the time being the audio pushed.
 *
 * **The words.** First each case's audio goes through the conversation's own utterance segmentation,
 * as on a call (8 → 16 kHz by the RateConverter, the WebRTC VAD, the Endpointer: an utterance ends
 * after 500 ms without speech), and each utterance to the real embedded recogniser (pocketsphinx),
 * fed 16 kHz made by inserting a zero after each 8 kHz sample (no low-pass: pocketsphinx hears
 * telephone audio far better so). The segmentation does not depend on the detector, so each case's
 * utterances are recognised once, then the detector is replayed three ways:
 * - `cadence_and_beep`: no words (a call without a recogniser);
 * - `with_words` (the headline): `awaitWords`, each utterance's words given to the detector
 *   BENCH_VOICEMAIL_WORDS_DELAY_MS (500) after the endpointer ended it: the recogniser streams while
 *   the callee speaks, and docs/speech-engines.md measured its words 351–502 ms (medians) after the
 *   end of speech, live, on this machine;
 * - `with_words_burst_latency`: the same, each utterance's words given as late as `finish()` took
 *   here on the wall clock. The audio was written in a burst, so that holds the decoding of the whole
 *   utterance, not only its tail: a pessimistic bound (a loaded machine, a slow recogniser).
 *
 * Reported for each: precision, recall and F1 of `machine`, the confusions (a person taken for a
 * machine must never happen), the decision time of each label (median, p95) and, for people, after
 * the end of their words; for machines, the message cue against the true end of the beep, or for a
 * greeting without one, after its last word. BENCH_VOICEMAIL_ONLY (a substring of case ids) runs a
 * subset; BENCH_VOICEMAIL_KEEP=1 keeps the generated WAVs (their directory is logged).
 */

const MODEL_DIR = process.env.SPEECH_MODEL_DIR ?? '/usr/share/pocketsphinx/model/en-us';
const FRAME = 160;
const FRAME_MS = 20;

/** One utterance as the platform would have recognised it. */
interface Utterance {
  /** When the endpointer ended it (ms from the answer), the words, and how long `finish()` took here. */
  endMs: number;
  text: string;
  latencyMs: number;
}

interface CaseRun {
  result: AmdResult | null;
  reason: AmdReason | null;
  decided_after_ms: number | null;
  cue_by: string | null;
  cue_at_ms: number | null;
  /** For a beep: cue − beep end; without one: cue − the greeting's last word (ms). */
  cue_error_ms: number | null;
}

interface Summary {
  machines: number;
  humans: number;
  precision_percent: number;
  recall_percent: number;
  f1_percent: number;
  humans_called_machine: number;
  machines_called_human: number;
  unknowns: { machine: number; human: number };
  decided_by: Record<string, number>;
  /** Per label and kind (and for machines, with or without a beep): right / cases. */
  right_by_kind: Record<string, string>;
  decision_ms: {
    machine: { p50: number; p95: number };
    human: { p50: number; p95: number };
    /** People: from the end of their last word heard before the decision to the decision. */
    human_after_speech_ms: { p50: number; p95: number };
  };
  message_cue: {
    after_beep_ms: { cases: number; p50: number; p95: number; max: number; before_beep_end: number };
    no_beep_after_greeting_ms: { cases: number; p50: number; max: number };
    by: Record<string, number>;
  };
  missed: string[];
}

export async function voicemailBench(ctx: BenchContext): Promise<object> {
  const dir = mkdtempSync(join(tmpdir(), 'voicemail-set-'));
  const keep = process.env.BENCH_VOICEMAIL_KEEP === '1';
  const only = process.env.BENCH_VOICEMAIL_ONLY;
  const wordsDelayMs = Number(process.env.BENCH_VOICEMAIL_WORDS_DELAY_MS ?? 500);
  if (!Number.isFinite(wordsDelayMs) || wordsDelayMs < 0)
    throw new Error('BENCH_VOICEMAIL_WORDS_DELAY_MS: ms, 0 or more');
  const recognizer = new EmbeddedRecognizer(MODEL_DIR);
  try {
    const { seed, cases } = loadCases();
    const selected = only ? cases.filter((c) => c.id.includes(only)) : cases;
    const started = performance.now();
    const generated = selected.map((c) => generateCase(c, dir, seed));
    ctx.log(
      `${generated.length} cases generated in ${Math.round(performance.now() - started)} ms` +
        (keep ? ` into ${dir}` : ''),
    );
    recognizer.prewarm(2);
    const rows: Record<string, unknown>[] = [];
    const runs = { plain: [] as CaseRun[], words: [] as CaseRun[], burst: [] as CaseRun[] };
    const latencies: number[] = [];
    for (const g of generated) {
      const utterances = await recognise(g, recognizer);
      latencies.push(...utterances.map((u) => u.latencyMs));
      const plain = runCase(g, null);
      const words = runCase(
        g,
        utterances.map((u) => ({ atMs: u.endMs + wordsDelayMs, text: u.text })),
      );
      const burst = runCase(
        g,
        utterances.map((u) => ({ atMs: u.endMs + u.latencyMs, text: u.text })),
      );
      runs.plain.push(plain);
      runs.words.push(words);
      runs.burst.push(burst);
      const { id, label, kind, voice, speed, noise, beep } = g.spec;
      rows.push({
        id,
        label,
        kind,
        voice,
        speed,
        noise,
        beep,
        truth: g.truth,
        utterances: utterances.map((u) => ({ end_ms: u.endMs, latency_ms: u.latencyMs, text: u.text })),
        with_words: words,
        with_words_burst_latency: burst,
        cadence_and_beep: plain,
      });
      ctx.log(
        `${id.padEnd(26)} ${label.padEnd(7)} words: ${show(words)}; burst: ${show(burst)}; cadence+beep: ${show(plain)}` +
          ` [${utterances.map((u) => u.text).join(' / ')}]`,
      );
    }
    const summaries = {
      with_words: summarise(generated, runs.words),
      with_words_burst_latency: summarise(generated, runs.burst),
      cadence_and_beep: summarise(generated, runs.plain),
    };
    for (const [name, s] of Object.entries(summaries)) ctx.log(`${name}: ${JSON.stringify(headline(s))}`);
    const headlineSummary = summaries.with_words;
    ctx.check('voicemail_precision_percent', headlineSummary.precision_percent, 95, 'min');
    ctx.check('voicemail_recall_percent', headlineSummary.recall_percent, 95, 'min');
    ctx.check('voicemail_humans_called_machine', headlineSummary.humans_called_machine, 0, 'max');
    return {
      set: describeSet(generated),
      words_delay_ms: wordsDelayMs,
      recogniser: { utterances: latencies.length, burst_finish_latency_ms: percentiles(latencies) },
      ...summaries,
      cases: rows,
    };
  } finally {
    recognizer.close();
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

/** The detector over the case's audio; with `words`, given each utterance's words at its time. */
function runCase(g: GeneratedCase, words: { atMs: number; text: string }[] | null): CaseRun {
  const detector = new AnsweringMachineDetector({ awaitWords: words !== null });
  const due = [...(words ?? [])].sort((a, b) => a.atMs - b.atMs);
  const run = emptyRun();
  for (let i = 0; i < g.samples.length; i += FRAME) {
    const nowMs = (i / FRAME) * FRAME_MS;
    while (due.length > 0 && (due[0]?.atMs ?? Infinity) <= nowMs) note(run, g, detector.words(due.shift()?.text ?? ''));
    note(run, g, detector.push(g.samples.subarray(i, i + FRAME)));
  }
  return run;
}

/**
 * The case's utterances as the platform segments them (VAD and endpointer on the 16 kHz the
 * RateConverter makes) and their words (the recogniser hears them zero-stuffed).
 */
async function recognise(g: GeneratedCase, recognizer: EmbeddedRecognizer): Promise<Utterance[]> {
  const toVad = new RateConverter(8000, 16000);
  const vad = new VoiceActivityDetector();
  const endpointer = new Endpointer();
  const utterances: Utterance[] = [];
  let stream: RecognitionStream | null = null;
  let pending = new Int16Array(0);
  try {
    for (let i = 0; i < g.samples.length; i += FRAME) {
      const frame = g.samples.subarray(i, i + FRAME);
      const converted = toVad.process(frame);
      const joined = new Int16Array(pending.length + converted.length);
      joined.set(pending);
      joined.set(converted, pending.length);
      const voiced = joined.length >= 2 * FRAME ? vad.isSpeech(joined.subarray(0, 2 * FRAME)) : false;
      pending = joined.slice(Math.min(joined.length, 2 * FRAME));
      const event = endpointer.push(zeroStuff(frame), voiced);
      if (event?.type === 'speech_start') {
        stream = recognizer.start('en-US');
        for (const audio of event.audio) stream.write(audio);
      } else if (event?.type === 'speech') stream?.write(event.frame);
      else if (event?.type === 'speech_end' && stream) {
        const asked = performance.now();
        const text = await stream.finish();
        stream = null;
        utterances.push({ endMs: (i / FRAME + 1) * FRAME_MS, text, latencyMs: Math.round(performance.now() - asked) });
      }
    }
  } finally {
    // Speech still going at the end of the case (none in the set): never ended, never recognised.
    stream?.cancel();
    vad.close();
  }
  return utterances;
}

function zeroStuff(frame: Int16Array): Int16Array {
  const out = new Int16Array(frame.length * 2);
  for (let i = 0; i < frame.length; i++) out[2 * i] = frame[i] ?? 0;
  return out;
}

function emptyRun(): CaseRun {
  return { result: null, reason: null, decided_after_ms: null, cue_by: null, cue_at_ms: null, cue_error_ms: null };
}

function note(run: CaseRun, g: GeneratedCase, event: AmdEvent | null): void {
  if (!event) return;
  if (event.type === 'decided') {
    run.result = event.result;
    run.reason = event.reason;
    run.decided_after_ms = event.decidedAfterMs;
    return;
  }
  run.cue_by = event.by;
  run.cue_at_ms = event.atMs;
  const reference = g.truth.beepEndMs ?? g.truth.speechEndMs;
  run.cue_error_ms = Math.round(event.atMs - reference);
}

function summarise(cases: GeneratedCase[], runs: CaseRun[]): Summary {
  const pairs = cases.map((g, i) => ({ g, r: runs[i] ?? emptyRun() }));
  const machines = pairs.filter((p) => p.g.spec.label === 'machine');
  const humans = pairs.filter((p) => p.g.spec.label === 'human');
  const tp = machines.filter((p) => p.r.result === 'machine').length;
  const fp = humans.filter((p) => p.r.result === 'machine').length;
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = machines.length === 0 ? 0 : tp / machines.length;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  const pct = (v: number): number => round2(v * 100);
  const decided = (list: typeof pairs): number[] => list.map((p) => p.r.decided_after_ms ?? p.g.truth.durationMs);
  const pick = (values: number[]): { p50: number; p95: number } => {
    const { p50, p95 } = percentiles(values);
    return { p50, p95 };
  };
  const afterSpeech = humans
    .filter((p) => p.r.result === 'human' && p.r.decided_after_ms !== null)
    .map((p) => {
      const at = p.r.decided_after_ms ?? 0;
      const ended = p.g.truth.parts.filter((part) => part.endMs <= at).map((part) => part.endMs);
      return at - Math.max(0, ...ended);
    });
  const beeped = machines.filter((p) => p.g.truth.beepEndMs !== null && p.r.cue_error_ms !== null);
  const beepErrors = beeped.map((p) => p.r.cue_error_ms ?? 0);
  const noBeep = machines
    .filter((p) => p.g.truth.beepEndMs === null && p.r.cue_error_ms !== null)
    .map((p) => p.r.cue_error_ms ?? 0);
  const count = (values: (string | null)[]): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const v of values) if (v) out[v] = (out[v] ?? 0) + 1;
    return out;
  };
  const beepStats = percentiles(beepErrors);
  const rightByKind: Record<string, string> = {};
  const groups = new Map<string, { right: number; cases: number }>();
  for (const p of pairs) {
    const beeped = p.g.spec.label === 'machine' ? (p.g.spec.beep ? '_beep' : '_no_beep') : '';
    for (const key of [`${p.g.spec.label}_${p.g.spec.kind}`, ...(beeped ? [`machine${beeped}`] : [])]) {
      const group = groups.get(key) ?? { right: 0, cases: 0 };
      group.cases++;
      if (p.r.result === p.g.spec.label) group.right++;
      groups.set(key, group);
    }
  }
  for (const [key, g] of [...groups].sort(([a], [b]) => a.localeCompare(b))) rightByKind[key] = `${g.right}/${g.cases}`;
  return {
    machines: machines.length,
    humans: humans.length,
    precision_percent: pct(precision),
    recall_percent: pct(recall),
    f1_percent: pct(f1),
    humans_called_machine: fp,
    machines_called_human: machines.filter((p) => p.r.result === 'human').length,
    unknowns: {
      machine: machines.filter((p) => p.r.result !== 'machine' && p.r.result !== 'human').length,
      human: humans.filter((p) => p.r.result !== 'machine' && p.r.result !== 'human').length,
    },
    decided_by: count(pairs.map((p) => (p.r.result ? `${p.r.result}_by_${p.r.reason}` : 'undecided'))),
    right_by_kind: rightByKind,
    decision_ms: {
      machine: pick(decided(machines)),
      human: pick(decided(humans)),
      human_after_speech_ms: pick(afterSpeech),
    },
    message_cue: {
      after_beep_ms: {
        cases: beepErrors.length,
        p50: beepStats.p50,
        p95: beepStats.p95,
        max: beepStats.max,
        before_beep_end: beepErrors.filter((e) => e < 0).length,
      },
      no_beep_after_greeting_ms: {
        cases: noBeep.length,
        p50: percentiles(noBeep).p50,
        max: percentiles(noBeep).max,
      },
      by: count(machines.map((p) => p.r.cue_by)),
    },
    missed: pairs.filter((p) => p.r.result !== p.g.spec.label).map((p) => `${p.g.spec.id}: ${p.r.result ?? 'none'}`),
  };
}

function headline(s: Summary): object {
  return {
    precision: s.precision_percent,
    recall: s.recall_percent,
    humans_called_machine: s.humans_called_machine,
    machines_called_human: s.machines_called_human,
    unknowns: s.unknowns,
    decision_p50_ms: { machine: s.decision_ms.machine.p50, human: s.decision_ms.human.p50 },
    missed: s.missed,
  };
}

function show(r: CaseRun): string {
  const cue = r.cue_by ? `, cue ${r.cue_by} at ${r.cue_at_ms} (${r.cue_error_ms})` : '';
  return `${r.result ?? 'none'} by ${r.reason ?? '-'} at ${r.decided_after_ms ?? '-'}${cue}`;
}

function describeSet(cases: GeneratedCase[]): object {
  const count = (f: (g: GeneratedCase) => string): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const g of cases) out[f(g)] = (out[f(g)] ?? 0) + 1;
    return out;
  };
  return {
    cases: cases.length,
    by_label_and_kind: count((g) => `${g.spec.label}_${g.spec.kind}`),
    machines_with_beep: cases.filter((g) => g.spec.beep).length,
    by_voice: count((g) => g.spec.voice),
    by_noise: count((g) => (g.spec.noise ? `${g.spec.noise.type}_${g.spec.noise.snrDb}db` : 'none')),
  };
}
