/**
 * The sleep of a polling loop that a `wake()` cuts short. A wake that arrives while the loop is busy
 * is remembered, so the next sleep returns at once; the loop calls `reset()` as it starts a round.
 */
export class Wakeup {
  private pending = false;
  private cut: (() => void) | null = null;

  wake(): void {
    this.pending = true;
    this.cut?.();
  }

  reset(): void {
    this.pending = false;
  }

  sleep(ms: number): Promise<void> {
    if (this.pending) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const finish = (): void => {
        clearTimeout(timer);
        this.cut = null;
        resolve();
      };
      function done(): void {
        finish();
      }
      this.cut = finish;
    });
  }
}
