/**
 * What a bounded context contributes without booting Nest: its migrations (and its catalog
 * fragment). A context's module carries it as `static readonly context`, and `app.module.ts` lists
 * the modules; everything else (processors, timer kinds, workers) the module registers itself with
 * the runtime when Nest initialises it.
 */
export interface Migration {
  /** Unique across the platform; migrations run in id order, each once. */
  readonly id: string;
  readonly sql: string;
}

export interface BoundedContext {
  readonly name: string;
  readonly migrations?: readonly Migration[];
}

/** A Nest module class that is a bounded context. */
export interface ContextModule {
  readonly context: BoundedContext;
  new (...args: never[]): unknown;
}
