import { Injectable } from '@nestjs/common';

/**
 * How an instance stops for a deploy without dropping what it carries (docs/capacity.md,
 * "Draining"): on SIGTERM the entry point (main.ts, media.ts) calls `drain()` before it closes
 * anything; each context that carries long-lived work (the conversations) has registered how to
 * take no new work and wait for what it holds, bounded by its own timeout. Meanwhile `/ready`
 * answers 503 `draining`, so that a load balancer sends new requests elsewhere.
 */
@Injectable()
export class Drains {
  private readonly drains = new Map<string, () => Promise<void>>();
  private started: Promise<void> | null = null;

  register(name: string, drain: () => Promise<void>): void {
    this.drains.set(name, drain);
  }

  get draining(): boolean {
    return this.started !== null;
  }

  private cutShort: () => void = () => undefined;

  /**
   * Runs every registered drain at once; resolves when all are done, or when `cut` is called (again:
   * the same promise).
   */
  drain(): Promise<void> {
    const cut = new Promise<void>((resolve) => (this.cutShort = resolve));
    this.started ??= Promise.race([
      Promise.all([...this.drains.values()].map((drain) => drain())).then(() => undefined),
      cut,
    ]);
    return this.started;
  }

  /** Ends a drain under way now (a second signal, a fatal error): the shutdown goes on at once. */
  cut(): void {
    this.cutShort();
  }
}
