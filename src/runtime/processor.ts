import type { Processor } from './processor-runner';

/** A read model: a processor that owns some tables and can be rebuilt from the whole history. */
export interface Projection extends Processor {
  /** Tables emptied and refilled by a rebuild. */
  readonly tables: readonly string[];
  /** false for read models with side effects (the webhook outbox): API reads wait for them, rebuilds skip them. */
  readonly rebuildable?: boolean;
}
