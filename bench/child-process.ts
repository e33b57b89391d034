/** Helpers shared by the benchmarks' child processes (the service, the webhook receiver). */
import type { ChildProcess } from 'node:child_process';

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone, with whether it had to be killed. */
export function stopChild(child: ChildProcess, graceMs = 5_000): Promise<{ forced: boolean }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ forced: false });
  return new Promise((resolveStop) => {
    let forced = false;
    const kill = setTimeout(() => {
      forced = true;
      child.kill('SIGKILL');
    }, graceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      resolveStop({ forced });
    });
    child.kill('SIGTERM');
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
