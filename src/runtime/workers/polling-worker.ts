import { Wakeup } from './wakeup';

/** Something the runtime starts after bootstrap and stops before the database pool closes. */
export interface Worker {
  readonly name: string;
  start(): void;
  stop(): Promise<void>;
}

export interface PollingWorkerOptions {
  /** Called with each failed round's error; the loop backs off and carries on. */
  onError?: (err: unknown) => void;
  /** Back-off after `failures` consecutive failed rounds. Default: 100 ms doubling, at most 5 s. */
  backoffMs?: (failures: number) => number;
}

/**
 * The one loop every background worker runs: the processor runners, the timers, the webhook
 * delivery worker and the mail worker. A round (`tick`) does the work available now and says
 * whether more is waiting; when none is, the loop sleeps `idleMs()` or until `poke()` (an append,
 * a NOTIFY, a finished attempt). A failed round is reported and retried after a back-off; it never
 * ends the loop or the process.
 */
export abstract class PollingWorker implements Worker {
  private running = false;
  private loop: Promise<void> | null = null;
  private readonly wakeup = new Wakeup();

  protected constructor(
    readonly name: string,
    private readonly loopOptions: PollingWorkerOptions = {},
  ) {}

  /** One round. Returns true when more work is waiting (run again at once), false to sleep. */
  protected abstract tick(): Promise<boolean>;

  /** How long to sleep after an idle round; a poke cuts it short. */
  protected idleMs(): number | Promise<number> {
    return 1000;
  }

  /** After the loop has ended: wait for work still in flight, flush buffers. */
  protected afterStop(): Promise<void> {
    return Promise.resolve();
  }

  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.poke();
    await this.loop;
    this.loop = null;
    await this.afterStop();
  }

  poke(): void {
    this.wakeup.wake();
  }

  /** A pause inside a round that a poke also cuts short (e.g. waiting for slots to free). */
  protected sleep(ms: number): Promise<void> {
    return this.wakeup.sleep(ms);
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      try {
        this.wakeup.reset();
        const more = await this.tick();
        failures = 0;
        if (more) continue;
        await this.wakeup.sleep(await this.idleMs());
      } catch (err) {
        failures++;
        this.loopOptions.onError?.(err);
        await this.wakeup.sleep(this.loopOptions.backoffMs?.(failures) ?? Math.min(5000, 100 * 2 ** failures));
      }
    }
  }
}
