/**
 * Media toolkit (src/kernel/media/): the echo canceller. What the agent says comes back from the far
 * end, late and quieter: a phone line's hybrid returns it (up to 300 ms late, 10 to 30 dB down), a
 * room's loudspeaker into a microphone does too. Heard as it is, the agent's own voice would trip the
 * voice activity detector and reach the recogniser as if the caller had spoken. `cancel(heard, sent)`
 * takes the far end's incoming frame and the agent's outgoing frame played at the same tick, and
 * returns the incoming frame with the echo of the agent removed, the caller's voice kept.
 *
 * The work is done by Debian's libspeexdsp (an adaptive filter that learns the echo path, then a
 * residual echo suppressor), in a Node addon built by `npm run build` into dist/speech/
 * (native/echo-canceller.c, native/build.mjs). The platform runs without it: `create` then answers
 * null and `unavailableReason()` says what to install. The addon is context-aware, so a canceller
 * works in a worker thread as in the main thread; a canceller belongs to the thread that created it.
 *
 * Measured on flite's speech over a simulated μ-law line, 20 ms frames at 8 kHz, a 500 ms tail
 * (echo-canceller.spec.ts): on lines 20 to 360 ms late, 10 to 30 dB down, the echo comes out 26 to
 * 28 dB down once converged, and 20 dB down or more after 2 to 5 seconds of the agent speaking; a
 * caller talking over the echo comes through unchanged; a frame costs about 45 µs (80 µs at 16 kHz,
 * 250 µs at 48 kHz).
 *
 * The residual echo suppressor (on by default) works while the caller is silent and steps aside
 * while the caller speaks (native/echo-canceller.c has its settings and why). It works on
 * overlapping windows, so the cleaned frame comes out one frame late (`delayFrames`). The adaptive
 * filter alone (`residualSuppression: false`) adds no delay but leaves more echo: 23 dB down instead
 * of 28 on the 100 ms, -15 dB line.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface EchoCancellerOptions {
  /** Samples per second: 8000 for a phone call, 16000 or 48000 in a room. */
  sampleRate: number;
  /** Samples per frame: 160 for 20 ms at 8 kHz. Every `cancel` takes exactly this many. */
  frameSize: number;
  /** The longest echo path to learn, in ms: the line's lateness and the jitter buffer's depth, with margin. */
  tailMs: number;
  /** The residual echo suppressor after the adaptive filter (default true; see above). */
  residualSuppression?: boolean;
}

/** An opaque handle of the addon (a type-tagged external). */
interface NativeHandle {
  readonly __echoCanceller: unique symbol;
}

/** What native/echo-canceller.c exports. */
interface EchoCancellerAddon {
  create(frameSize: number, sampleRate: number, tailSamples: number, suppress: boolean): NativeHandle;
  process(handle: NativeHandle, heard: Int16Array, sent: Int16Array, out: Int16Array): void;
  reset(handle: NativeHandle): void;
  destroy(handle: NativeHandle): void;
}

const ADDON_FILE = 'echo-canceller.node';

/**
 * The nearest folder above `from` that holds `package.json` (as src/infra/project-root.ts finds it,
 * which the shared kernel may not import).
 */
function projectRoot(from: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

/**
 * Where the addon is: in the dist/ this module was compiled into (dist/kernel/media/ → dist/speech/),
 * else in the project root's dist/speech/ (from the sources, in tests, or from the benchmarks' build).
 */
export function echoCancellerAddonPath(): string {
  const beside = join(__dirname, '..', '..', 'speech', ADDON_FILE);
  if (existsSync(beside)) return beside;
  return join(projectRoot(__dirname) ?? join(__dirname, '..', '..', '..'), 'dist', 'speech', ADDON_FILE);
}

/** The addon, loaded once per thread, or why it cannot be. */
let loaded: { addon: EchoCancellerAddon } | { reason: string } | undefined;

function load(): { addon: EchoCancellerAddon } | { reason: string } {
  if (loaded !== undefined) return loaded;
  const path = echoCancellerAddonPath();
  if (!existsSync(path)) {
    loaded = {
      reason:
        `The echo canceller is not built (${path} is missing): ` +
        'install libspeexdsp-dev (apt-get), then npm run build.',
    };
    return loaded;
  }
  try {
    // Node's own require (not a bundler's or a test runner's): it loads a .node file with
    // process.dlopen, once per thread.
    loaded = { addon: createRequire(__filename)(path) as EchoCancellerAddon };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    loaded = { reason: `The echo canceller (${path}) could not be loaded: ${why}` };
  }
  return loaded;
}

export class EchoCanceller {
  /** How many frames the cleaned audio lags the heard audio: 1 with residual suppression, else 0. */
  readonly delayFrames: number;
  readonly frameSize: number;
  private handle: NativeHandle | null;

  private constructor(
    private readonly addon: EchoCancellerAddon,
    options: EchoCancellerOptions,
  ) {
    const { sampleRate, frameSize, tailMs } = options;
    if (!Number.isInteger(sampleRate) || sampleRate < 8000 || sampleRate > 48000) {
      throw new RangeError(`EchoCanceller: sampleRate must be an integer from 8000 to 48000, not ${sampleRate}`);
    }
    if (!Number.isInteger(frameSize) || frameSize < 8 || frameSize > sampleRate / 25) {
      throw new RangeError(`EchoCanceller: frameSize must be an integer from 8 to 40 ms of samples, not ${frameSize}`);
    }
    if (!Number.isFinite(tailMs) || tailMs <= 0 || tailMs > 2000) {
      throw new RangeError(`EchoCanceller: tailMs must be above 0 and at most 2000, not ${tailMs}`);
    }
    const suppress = options.residualSuppression ?? true;
    const tailSamples = Math.max(frameSize, Math.round((tailMs * sampleRate) / 1000));
    this.handle = addon.create(frameSize, sampleRate, tailSamples, suppress);
    this.frameSize = frameSize;
    this.delayFrames = suppress ? 1 : 0;
  }

  /**
   * A canceller, or null when the addon is not built or cannot load (`unavailableReason()` says why).
   * Options out of range throw a RangeError.
   */
  static create(options: EchoCancellerOptions): EchoCanceller | null {
    const state = load();
    return 'addon' in state ? new EchoCanceller(state.addon, options) : null;
  }

  /** Why `create` answers null here, or null when it does not. */
  static unavailableReason(): string | null {
    const state = load();
    return 'reason' in state ? state.reason : null;
  }

  /**
   * The heard frame with the echo of `sent` removed (a new array). `heard` is the far end's incoming
   * frame, `sent` the agent's outgoing frame played at the same tick (silence when the agent is
   * quiet): call it once per tick, in order. Both are Int16Array of `frameSize` samples, else it throws.
   */
  cancel(heard: Int16Array, sent: Int16Array): Int16Array {
    const handle = this.open();
    this.check('heard', heard);
    this.check('sent', sent);
    const out = new Int16Array(this.frameSize);
    this.addon.process(handle, heard, sent, out);
    return out;
  }

  /** Forgets the echo path learnt so far: for a new echo path (another call, a transfer). */
  reset(): void {
    this.addon.reset(this.open());
  }

  /** Frees the native state now (it is freed when the canceller is collected otherwise). Idempotent. */
  close(): void {
    if (this.handle === null) return;
    this.addon.destroy(this.handle);
    this.handle = null;
  }

  /** The addon checks frames too, and never reads past one: here the message says what was wrong. */
  private check(name: string, frame: Int16Array): void {
    if (!(frame instanceof Int16Array)) throw new TypeError(`EchoCanceller: ${name} must be an Int16Array`);
    if (frame.length !== this.frameSize) {
      throw new RangeError(`EchoCanceller: ${name} has ${frame.length} samples, not ${this.frameSize}`);
    }
  }

  private open(): NativeHandle {
    if (this.handle === null) throw new Error('EchoCanceller: used after close()');
    return this.handle;
  }
}
