/**
 * The shared event store contract against a real EventStoreDB / KurrentDB server. Needs
 * EVENTSTORE_URL, e.g.
 *   docker compose -f docker/docker-compose.yml up -d kurrentdb
 *   EVENTSTORE_URL='kurrentdb://localhost:2113?tls=false' npx jest test/int/event-store/kurrentdb-event-store.int-spec.ts
 * (or the three-node cluster of docker/docker-compose.cluster.yml: docs/kurrentdb.md).
 * Without it the suite is skipped, and says why.
 *
 * A live server keeps everything ever written, so each store the factory hands out sees only its own
 * world: stream names get a per-run, per-store prefix (stripped again on the way out), and $all reads
 * start at the server's head when the store was created and leave other prefixes out, as records the
 * store filters (reported through `Page.end`). Positions pass through untouched, so the contract
 * still checks the adapter's real (commit, prepare) order.
 */
import { randomUUID } from 'node:crypto';
import { KurrentDBClient } from '@kurrent/kurrentdb-client';
import {
  AppendResult,
  comparePositions,
  DuplicateEventIdError,
  EventStore,
  ExpectedVersion,
  NewEvent,
  Page,
  pageEnd,
  Position,
  StoredEvent,
  WrongExpectedVersionError,
} from '../../../src/event-store/event-store.port';
import {
  KurrentDbEventStore,
  normalizeConnectionString,
} from '../../../src/event-store/kurrentdb/kurrentdb-event-store';
import { describeEventStoreContract, EventStoreFixture } from './event-store.contract';

const url = process.env['EVENTSTORE_URL']?.trim() || undefined;
const runId = `${Date.now().toString(36)}${randomUUID().slice(0, 8)}`;
let storeCounter = 0;

/** Scopes a KurrentDbEventStore to stream names starting with `prefix` and to $all after `origin`. */
class PrefixedEventStore implements EventStore {
  constructor(
    readonly inner: KurrentDbEventStore,
    private readonly prefix: string,
    private readonly origin: Position,
  ) {}

  get identity(): string {
    return this.inner.identity;
  }

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    try {
      return await this.inner.append(this.prefix + streamId, events, expected);
    } catch (err) {
      if (err instanceof WrongExpectedVersionError) {
        throw new WrongExpectedVersionError(streamId, err.expected, err.actual);
      }
      if (err instanceof DuplicateEventIdError) throw new DuplicateEventIdError(err.eventId, streamId);
      throw err;
    }
  }

  async readStream(streamId: string): Promise<StoredEvent[]> {
    return (await this.inner.readStream(this.prefix + streamId)).map((e) => this.strip(e));
  }

  async readAll(after: Position, limit: number): Promise<StoredEvent[]> {
    return (await this.readPage(after, limit)).events;
  }

  /** Other prefixes' events are, in this world, records the store leaves out. */
  async readPage(after: Position, limit: number): Promise<Page> {
    if (limit <= 0) return { events: [], hidden: false };
    let cursor = comparePositions(after, this.origin) < 0 ? this.origin : after;
    const events: StoredEvent[] = [];
    for (;;) {
      const page = await this.inner.readPage(cursor, limit);
      for (const event of page.events) {
        cursor = event.position;
        if (!this.owns(event)) continue;
        events.push(this.strip(event));
        if (events.length === limit) return { events, hidden: false };
      }
      const next = pageEnd(cursor, page);
      if (page.events.length === 0) {
        const last = events[events.length - 1]?.position ?? after;
        return comparePositions(next, last) > 0 ? { events, hidden: false, end: next } : { events, hidden: false };
      }
      cursor = next;
    }
  }

  async readByIds(ids: readonly string[]): Promise<StoredEvent[]> {
    return (await this.inner.readByIds(ids)).filter((e) => this.owns(e)).map((e) => this.strip(e));
  }

  onAppended(listener: () => void): () => void {
    return this.inner.onAppended(listener);
  }

  onError(listener: (err: unknown) => void): () => void {
    return this.inner.onError(listener);
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private owns(event: StoredEvent): boolean {
    return event.streamId.startsWith(this.prefix);
  }

  private strip(event: StoredEvent): StoredEvent {
    return { ...event, streamId: event.streamId.slice(this.prefix.length) };
  }
}

async function factory(): Promise<EventStoreFixture> {
  if (url === undefined) throw new Error('EVENTSTORE_URL is not set');
  const inner = KurrentDbEventStore.connect(url);
  // The hooks use a client of their own: what they do is not the adapter's to do.
  const client = KurrentDBClient.connectionString(normalizeConnectionString(url));
  let origin: Position;
  try {
    origin = await inner.headPosition();
  } catch (err) {
    await inner.close();
    await client.dispose();
    throw err;
  }
  const prefix = `kdbc${runId}n${++storeCounter}-`;
  const store = new PrefixedEventStore(inner, prefix, origin);
  return {
    store,
    eventIds: 'retries',
    truncateBefore: async (streamId, revision) => {
      await client.setStreamMetadata(prefix + streamId, { truncateBefore: revision });
    },
    // stream metadata is a system record ($metadata in $$<stream>)
    appendFilteredRecord: async () => {
      await client.setStreamMetadata(`${prefix}filtered-${randomUUID()}`, { maxAge: 86_400 });
    },
    cleanup: async () => {
      await store.close();
      await client.dispose();
    },
  };
}

if (url === undefined) {
  console.log(
    'KurrentDB contract suite skipped: EVENTSTORE_URL is not set (docker compose -f docker/docker-compose.yml up kurrentdb brings one up)',
  );
}

const describeIfServer = url === undefined ? describe.skip : describe;

describeIfServer('KurrentDbEventStore against a live server', () => {
  describeEventStoreContract('KurrentDbEventStore', factory);
});
