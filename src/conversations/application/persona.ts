import type { SpeechSynthesizer } from '../engines/engines';
import { type AudioTransport, type FrameSource, frameSamples } from '../pipeline/audio-transport';

/** A frame louder than this (RMS of 16-bit samples) is the agent speaking; its silence is digital zero. */
const VOICE_RMS = 300;
/** How long the persona waits for the agent to start answering before it says its next line anyway. */
const ANSWER_WAIT_MS = 10_000;

export interface PersonaScript {
  script: readonly string[];
  /** How long the agent must have been quiet, after speaking, before the persona speaks. */
  pause_ms: number;
}

/**
 * The simulated callee of a test persona call (docs/conversations.md, "Test persona calls"): it
 * listens to the agent, and each time the agent has spoken and then been quiet for `pause_ms`, it says
 * the next line of its script with the embedded synthesis. After its last line it waits for the
 * agent's answer, then `run` resolves (the caller hangs up). The agent ending the call first ends it
 * too. It plays through the callee's end of the call, so the agent hears it as it would a person.
 */
export class Persona implements FrameSource {
  private queue: Int16Array[] = [];
  private readonly frame: number;
  private agentSpokeAt = 0;
  private agentQuietSince = Date.now();
  private agentSpeaking = false;
  private closed = false;
  private wake: (() => void) | null = null;
  /** What the persona said, and when (ms since the start), for the caller's checks. */
  readonly said: { line: string; at: number }[] = [];
  private readonly startedAt = Date.now();

  constructor(
    private readonly transport: AudioTransport,
    private readonly synthesizer: SpeechSynthesizer,
    private readonly persona: PersonaScript,
  ) {
    this.frame = frameSamples(transport.sampleRate);
    transport.play(this);
    transport.onFrame((f) => this.heard(f));
    transport.onClosed(() => {
      this.closed = true;
      this.poke();
    });
  }

  nextFrame(): Int16Array | null {
    const next = this.queue.shift() ?? null;
    if (next === null) this.poke();
    return next;
  }

  /** Says every line in turn, each after the agent has answered; resolves when done or when the call ends. */
  async run(): Promise<void> {
    let since = this.startedAt;
    for (const line of this.persona.script) {
      await this.agentAnswered(since);
      if (this.closed) return;
      await this.say(line);
      since = Date.now();
    }
    await this.agentAnswered(since);
  }

  /** Until the agent has spoken after `since` and then been quiet for pause_ms (or did not answer at all). */
  private async agentAnswered(since: number): Promise<void> {
    const deadline = since + ANSWER_WAIT_MS;
    while (!this.closed) {
      const now = Date.now();
      const answered = this.agentSpokeAt > since && !this.agentSpeaking;
      if (answered && now - this.agentQuietSince >= this.persona.pause_ms) return;
      if (!answered && this.agentSpokeAt <= since && now >= deadline) return;
      await this.sleep(20);
    }
  }

  private async say(line: string): Promise<void> {
    const speech = await this.synthesizer.synthesize(line, {});
    const samples =
      speech.sampleRate === this.transport.sampleRate
        ? speech.samples
        : resample(speech.samples, speech.sampleRate, this.transport.sampleRate);
    this.said.push({ line, at: Date.now() - this.startedAt });
    for (let i = 0; i < samples.length; i += this.frame) {
      const frame = new Int16Array(this.frame);
      frame.set(samples.subarray(i, i + this.frame));
      this.queue.push(frame);
    }
    while (this.queue.length > 0 && !this.closed) await this.sleep(20);
  }

  private heard(frame: Int16Array): void {
    let sum = 0;
    for (const s of frame) sum += s * s;
    const loud = Math.sqrt(sum / frame.length) > VOICE_RMS;
    const now = Date.now();
    if (loud) this.agentSpokeAt = now;
    if (this.agentSpeaking && !loud) this.agentQuietSince = now;
    this.agentSpeaking = loud;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = null;
        resolve();
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
    });
  }

  private poke(): void {
    this.wake?.();
  }
}

/** Linear resampling, for the persona's own voice only (the pipeline has its own filtered converter). */
function resample(input: Int16Array, from: number, to: number): Int16Array {
  const out = new Int16Array(Math.floor((input.length * to) / from));
  for (let i = 0; i < out.length; i++) {
    const x = (i * from) / to;
    const j = Math.floor(x);
    const a = input[j] ?? 0;
    const b = input[j + 1] ?? a;
    out[i] = Math.round(a + (b - a) * (x - j));
  }
  return out;
}
