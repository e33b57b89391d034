import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../../infra/project-root';

/** Where `npm run build` puts the embedded engines' helpers (native/build.mjs). */
export const SPEECH_HELPERS_DIR = join(PROJECT_ROOT, 'dist', 'speech');

/** How much lower than the service the helpers run (nice): the audio's pacing comes first. */
const HELPER_NICENESS = 10;

/** The embedded engine cannot run here: its helper was not built (or its Debian package is missing). */
export class EngineUnavailable extends Error {}

/** The path of a built helper, or EngineUnavailable naming what to install. */
export function helperPath(name: 'speech-recognizer' | 'speech-synthesizer'): string {
  const path = join(SPEECH_HELPERS_DIR, name);
  if (!existsSync(path)) {
    const pkgs =
      name === 'speech-recognizer'
        ? 'pocketsphinx pocketsphinx-en-us libpocketsphinx-dev libsphinxbase-dev'
        : 'flite flite1-dev';
    throw new EngineUnavailable(
      `The embedded ${name === 'speech-recognizer' ? 'speech recognition' : 'speech synthesis'} is not built: ` +
        `install ${pkgs} (apt-get), then npm run build (docs/speech-engines.md).`,
    );
  }
  return path;
}

/**
 * One warm helper process: started once, its stdout read as a byte stream by `onData`, ended by
 * `stop()`. A helper that dies reports it once through `onExit` (pending work is the caller's to fail).
 */
export class HelperProcess {
  readonly child: ChildProcessWithoutNullStreams;
  exited = false;
  private stderr = '';

  constructor(
    path: string,
    args: string[],
    onData: (chunk: Buffer) => void,
    private readonly onExit: (why: string) => void,
  ) {
    this.child = spawn(path, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    // Below the service itself: when recognition saturates the cores, the agent's audio keeps its
    // 20 ms pace (the event loop wins) and recognition waits a little instead (docs/speech-engines.md).
    if (this.child.pid !== undefined) {
      try {
        setPriority(this.child.pid, HELPER_NICENESS);
      } catch {
        // Not permitted here: the helper runs at the service's priority.
      }
    }
    this.child.stdout.on('data', onData);
    this.child.stderr.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString('utf8')).slice(-2000);
    });
    // A write to a helper that just died: reported through 'exit', not as an uncaught error.
    this.child.stdin.on('error', () => undefined);
    this.child.on('error', (err) => this.exit(`could not start: ${err.message}`));
    this.child.on('exit', (code, signal) =>
      this.exit(`exited (${signal ?? code})${this.stderr ? `: ${this.stderr.trim()}` : ''}`),
    );
  }

  write(data: Buffer | string): void {
    if (!this.exited) this.child.stdin.write(data);
  }

  stop(): void {
    if (this.exited) return;
    this.child.stdin.end();
    const killer = setTimeout(() => this.child.kill('SIGKILL'), 2000);
    killer.unref();
  }

  private exit(why: string): void {
    if (this.exited) return;
    this.exited = true;
    this.onExit(why);
  }
}
