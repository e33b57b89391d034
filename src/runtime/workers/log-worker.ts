import type { EventStore } from '../../event-store/event-store.port';
import { PollingWorker, type PollingWorkerOptions } from './polling-worker';

/**
 * A polling worker over the event log that an append wakes: in this process at once, from another
 * instance by `NOTIFY` (the store's `onAppended`). The processor group, a processor runner alone and
 * the log observer are such workers.
 */
export abstract class LogWorker<Store extends Pick<EventStore, 'onAppended'> = EventStore> extends PollingWorker {
  private unsubscribe: (() => void) | null = null;

  protected constructor(
    name: string,
    protected readonly store: Store,
    options: PollingWorkerOptions = {},
  ) {
    super(name, options);
  }

  override start(): void {
    if (this.isRunning) return;
    this.unsubscribe = this.store.onAppended(() => this.appended());
    super.start();
  }

  override async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    await super.stop();
  }

  /** Called on every append: wakes the loop. */
  protected appended(): void {
    this.poke();
  }
}
