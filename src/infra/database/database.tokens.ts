/** The one pg Pool of the service (TypeORM's own), shared by the event store, processors and timers. */
export const PG_POOL = Symbol('PG_POOL');
