import type { Migration } from '../infra/database/migration';
import type { EventFragment } from '../catalog/event-fragment';
import type { TextBody } from '../kernel/http/text-body';
import type { ConfigSection } from '../config/config-section';

import type { DomainEvent } from '../kernel/decider';
import type { EventEdge } from '../kernel/event-edge';

export { ForwardOnlyMigration, type Migration } from '../infra/database/migration';

/**
 * What a bounded context contributes without booting Nest: its migrations, its event catalog
 * fragment, its settings and the request bodies other than JSON its routes take. A context's module carries it as `static readonly context`, and `app.module.ts` lists
 * the modules; everything else (processors, timer kinds, workers) the module registers itself with
 * the runtime when Nest initialises it.
 */

/**
 * P is the payload map of its events (`BoundedContext<SessionPayloads>`), from which app.module.ts
 * derives the typed union of catalog events; a context without events writes plain `BoundedContext`,
 * which accepts no fragment (so a fragment cannot be registered without its types).
 */
export interface BoundedContext<P = never> {
  readonly name: string;
  readonly migrations?: readonly Migration[];
  readonly events?: EventFragment<P>;
  /** Bodies other than JSON that some of its routes take as text (kernel/http/text-body.ts). */
  readonly textBodies?: readonly TextBody[];
  /** Its settings (`<context>.config.ts`): parsed by loadAppConfig(), documented in docs/configuration.md. */
  readonly settings?: ConfigSection<unknown>;

  /**
   * How its stored events are read back (src/kernel/event-edge.ts): every type it stores, catalog or
   * internal, with its required fields and the upcasters of older shapes. The runtime joins the
   * contexts' edges (`joinContextEdges`): a type two contexts claim fails the start.
   */
  readonly edge?: EventEdge<DomainEvent>;
}

/** A Nest module class that is a bounded context. */
export interface ContextModule {
  readonly context: BoundedContext<unknown>;
  new (...args: never[]): unknown;
}

/** Every context's edge as one: the reading of any stored event of the platform. */
export function joinContextEdges(contexts: readonly BoundedContext<unknown>[]): EventEdge<DomainEvent> | null {
  let joined: EventEdge<DomainEvent> | null = null;
  for (const { edge } of contexts) if (edge) joined = joined ? joined.and(edge) : edge;
  return joined;
}
