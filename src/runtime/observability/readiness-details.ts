import { Injectable } from '@nestjs/common';

/**
 * What `GET /ready` says beside its checks, contributed by the contexts (as their metrics are to
 * RuntimeMetrics): e.g. the conversations this instance carries against its capacity. A detail is
 * information, not a check: it never makes the answer 503.
 */
@Injectable()
export class ReadinessDetails {
  private readonly parts = new Map<string, () => unknown>();

  /** `name` appears in the readiness answer with what `read` returns at each request. */
  contribute(name: string, read: () => unknown): void {
    this.parts.set(name, read);
  }

  collect(): Record<string, unknown> {
    return Object.fromEntries([...this.parts].map(([name, read]) => [name, read()]));
  }
}
