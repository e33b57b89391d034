import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeUlaw, encodeUlaw } from '../audio/g711';
import { EchoCanceller } from './echo-canceller';
import { EchoGate } from './echo-gate';

/**
 * The echo gate on real speech (flite's slt voice as the agent, its kal voice as the caller, 8 kHz,
 * through μ-law), after the echo canceller when it is built (else on the echo as it comes). A line
 * returns the agent's voice whole and 80 ms late (SIPp's -rtp_echo), or 15 dB down and 100 ms late.
 */
const FRAME = 160;
let dir: string;
let agent: Int16Array;
let caller: Int16Array;

function speak(voice: string, text: string): Int16Array {
  const wav = join(dir, `${voice}.wav`);
  const raw = join(dir, `${voice}.raw`);
  execFileSync('flite', ['-voice', voice, '-t', text, '-o', wav]);
  execFileSync('sox', ['-R', wav, '-r', '8000', '-c', '1', '-b', '16', '-e', 'signed-integer', raw]);
  const bytes = readFileSync(raw);
  return new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2).slice();
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'echo-gate-'));
  agent = speak(
    'slt',
    'Thank you for calling Northwind Dental. Our opening hours are nine to five, Monday to Friday, and ten to two on Saturday. How can I help you today?',
  );
  caller = speak('kal', 'Hello, I would like to book a cleaning for next week please.');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs the agent's speech down a line that returns it `gainDb` down and `delayMs` late, with the
 * caller speaking from `callerAtS` (or not at all); returns, per frame, whether the gate took it
 * for echo and whether the caller was speaking in it.
 */
function run(
  delayMs: number,
  gainDb: number,
  callerAtS: number | null,
): { echo: boolean; calling: boolean; echoing: boolean; callerDb: number }[] {
  const canceller = EchoCanceller.create({ sampleRate: 8000, frameSize: FRAME, tailMs: 500 });
  const gate = new EchoGate();
  const delay = (delayMs * 8000) / 1000;
  const gain = 10 ** (gainDb / 20);
  const callerAt = callerAtS === null ? Infinity : callerAtS * 8000;
  const frames: { echo: boolean; calling: boolean; echoing: boolean; callerDb: number }[] = [];
  for (let at = 0; at + FRAME <= agent.length; at += FRAME) {
    const sent = agent.slice(at, at + FRAME);
    const line = new Int16Array(FRAME);
    let echoEnergy = 0;
    let voiceEnergy = 0;
    for (let k = 0; k < FRAME; k++) {
      const echo = at + k - delay >= 0 ? (agent[at + k - delay] ?? 0) * gain : 0;
      const voice = at + k >= callerAt ? (caller[at + k - callerAt] ?? 0) : 0;
      echoEnergy += echo * echo;
      voiceEnergy += voice * voice;
      line[k] = Math.max(-32768, Math.min(32767, Math.round(echo + voice)));
    }
    // Sound: a mean level above 100 (about -50 dBFS).
    const calling = voiceEnergy / FRAME > 100 * 100;
    const echoing = echoEnergy / FRAME > 100 * 100;
    const heard = decodeUlaw(encodeUlaw(line));
    const cleaned = canceller ? canceller.cancel(heard, sent) : heard;
    frames.push({
      echo: gate.isEcho(cleaned, sent),
      calling,
      echoing,
      callerDb: 10 * Math.log10(voiceEnergy / FRAME + 1),
    });
  }
  canceller?.close();
  return frames;
}

/**
 * Whether the echo alone ever starts an utterance: the endpointer starts one on 4 frames of speech
 * among 5 (endpointer.ts), so that many frames of echo only (no caller) let through is a false start.
 */
function falseStarts(frames: { echo: boolean; calling: boolean; echoing: boolean }[]): number {
  let starts = 0;
  for (let i = 4; i < frames.length; i++) {
    const window = frames.slice(i - 4, i + 1);
    if (window.every((f) => !f.calling) && window.filter((f) => f.echoing && !f.echo).length >= 4) starts++;
  }
  return starts;
}

it('takes a whole echo (0 dB, 80 ms late) for echo: it never lets enough through to start an utterance', () => {
  expect(falseStarts(run(80, 0, null))).toBe(0);
});

it.each([
  [100, -15],
  [20, -10],
  [300, -30],
])('takes an echo %d ms late, %d dB down, for echo throughout', (delayMs, gainDb) => {
  expect(falseStarts(run(delayMs, gainDb, null))).toBe(0);
});

it('lets the caller through when it speaks over the agent: an utterance can start within 300 ms', () => {
  const frames = run(100, -15, 4);
  const first = frames.findIndex((f) => f.calling);
  let start = -1;
  for (let i = first + 4; i < frames.length && start < 0; i++) {
    if (frames.slice(i - 4, i + 1).filter((f) => f.calling && !f.echo).length >= 4) start = i;
  }
  expect(first).toBeGreaterThan(0);
  expect(start).toBeGreaterThan(0);
  // From the caller's first frame of sound to the fourth let through of five: the endpointer's start.
  expect((start - first) * 20).toBeLessThanOrEqual(300);
});

it('on a line with no echo, lets the caller through early: an utterance 2 s into the agent speaking starts within 300 ms', () => {
  const frames = run(100, -120, 2);
  const first = frames.findIndex((f) => f.calling);
  let start = -1;
  for (let i = first + 4; i < frames.length && start < 0; i++) {
    if (frames.slice(i - 4, i + 1).filter((f) => f.calling && !f.echo).length >= 4) start = i;
  }
  expect(start).toBeGreaterThan(0);
  expect((start - first) * 20).toBeLessThanOrEqual(300);
});

it('takes nothing for echo while the agent is silent', () => {
  const gate = new EchoGate();
  const silence = new Int16Array(FRAME);
  const voice = caller.slice(8000, 8000 + FRAME);
  for (let i = 0; i < 30; i++) expect(gate.isEcho(voice, silence)).toBe(false);
});
