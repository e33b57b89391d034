import { Injectable, Logger } from '@nestjs/common';
import type { Worker } from './polling-worker';

/**
 * The one owner of background work: contexts register their workers while Nest initialises the
 * modules; the runtime module starts them all after bootstrap (unless workers are off, as in the
 * CLI) and stops them all before any shutdown hook closes the database pool.
 */
@Injectable()
export class WorkerLifecycle {
  private readonly logger = new Logger('Lifecycle');
  private readonly workers: Worker[] = [];
  private started = false;

  register(worker: Worker): void {
    if (this.workers.includes(worker)) return;
    this.workers.push(worker);
    if (this.started) worker.start();
  }

  startAll(): void {
    this.started = true;
    for (const worker of this.workers) worker.start();
  }

  /** Stops every worker (each waits for its work in flight); one failing to stop does not keep the others running. */
  async stopAll(): Promise<void> {
    this.started = false;
    const results = await Promise.allSettled(this.workers.map((w) => w.stop()));
    results.forEach((r, i) => {
      if (r.status === 'rejected')
        this.logger.error(`stopping ${this.workers[i]?.name ?? '?'} failed: ${String(r.reason)}`);
    });
  }
}
