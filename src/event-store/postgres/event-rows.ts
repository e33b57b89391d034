import type { CustomTypesConfig } from 'pg';
import type { StoredEvent } from '../event-store.port';

// Rows of the events table turned into StoredEvents for PostgresEventStore, with data and metadata
// parsed only when first read (decision 175).

/**
 * The columns every read selects, in this order (`toStoredEvent` reads them by index). The
 * transaction id (xid8) comes as its decimal text, like every column here.
 */
export const EVENT_COLUMNS =
  'event_id, type, data, metadata, stream_id, stream_position, transaction_id, global_position';

/** A row as `EVENT_COLUMNS` with `RAW_ROWS` returns it: every column as PostgreSQL's text (null only
 *  where a left join found no event). */
export type EventRow = (string | null)[];

/**
 * Query options for reads: rows as arrays of PostgreSQL's text output, nothing converted by the
 * driver (jsonb stays text until read, see `toStoredEvent`). Arrays, not objects: no property
 * names per row.
 */
export const RAW_ROWS: { rowMode: 'array'; types: CustomTypesConfig } = {
  rowMode: 'array',
  types: { getTypeParser: () => (text: string) => text },
};

const RAW = Symbol('event text');

/** An event's data and metadata as stored (jsonb's text), and each once parsed: one object per event. */
interface RawJson {
  readonly dataText: string;
  readonly metadataText: string;
  data?: unknown;
  metadata?: unknown;
}

type ReadEvent = Pick<StoredEvent, 'id' | 'streamId' | 'streamPosition'> & { readonly [RAW]: RawJson };

/**
 * Own, enumerable accessors shared by every event read: the first read of `data` (or `metadata`)
 * parses the text and keeps the result, so every later read sees the same object; a spread,
 * `JSON.stringify` or `toEqual` sees them as properties. A processor that only looks at types,
 * streams and positions never pays `JSON.parse`. (Replacing the accessor by a plain property on
 * first read cost more than the parse itself: a map change per event.)
 */
function lazyJson(name: 'data' | 'metadata'): PropertyDescriptor {
  const textOf = name === 'data' ? 'dataText' : 'metadataText';
  return {
    enumerable: true,
    get(this: ReadEvent): unknown {
      const raw = this[RAW];
      const known = raw[name];
      if (known !== undefined) return known;
      try {
        return (raw[name] = JSON.parse(raw[textOf]));
      } catch (err) {
        // Not expected from a jsonb column; should it happen, the reader (and a processor's dead
        // letter) learns which event it is, not only that some JSON was bad.
        throw new Error(
          `event ${this.id} (${this.streamId}@${this.streamPosition}) has ${name} that is not JSON: ${(err as Error).message}`,
        );
      }
    },
  };
}

const DATA = lazyJson('data');
const METADATA = lazyJson('metadata');

/** One row of `EVENT_COLUMNS` (read with `RAW_ROWS`) as a StoredEvent. */
export function toStoredEvent(row: EventRow): StoredEvent {
  const event = {
    id: row[0] as string,
    type: row[1] as string,
    streamId: row[4] as string,
    streamPosition: Number(row[5]),
    position: { commit: BigInt(row[6] as string), prepare: BigInt(row[7] as string) },
  };
  // Three definitions with shared descriptors: cheaper than an object literal with getters, whose
  // accessors are new functions for every event.
  const raw: RawJson = {
    dataText: row[2] as string,
    metadataText: row[3] as string,
    data: undefined,
    metadata: undefined,
  };
  Object.defineProperty(event, RAW, { value: raw });
  Object.defineProperty(event, 'data', DATA);
  Object.defineProperty(event, 'metadata', METADATA);
  return event as StoredEvent;
}
