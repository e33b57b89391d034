import type { Processor } from '../infra/subscriptions/checkpointed-processor';

/** A read model: a processor that owns some tables and can be rebuilt from the whole history. */
export interface Projection extends Processor {
  /** Tables emptied and refilled by a rebuild. */
  readonly tables: readonly string[];
}
