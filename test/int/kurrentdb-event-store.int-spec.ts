/**
 * The shared event store contract against a real EventStoreDB / KurrentDB server, plus the
 * persistent-subscription feed that only this adapter has. Needs EVENTSTORE_URL, e.g.
 *   docker compose -f docker/docker-compose.yml up -d kurrentdb
 *   EVENTSTORE_URL='esdb://localhost:2113?tls=false' npx jest test/int/kurrentdb-event-store.int-spec.ts
 * Without it the suite is skipped, and says why.
 *
 * A live server keeps everything ever written, so each store the factory hands out sees only its own
 * world: stream names get a per-run, per-store prefix (stripped again on the way out), and $all reads
 * start at the server's head when the store was created and skip other prefixes. Positions pass
 * through untouched, so the contract still checks the adapter's real (commit, prepare) order.
 */
import { randomUUID } from 'node:crypto';
import {
  AppendResult,
  comparePositions,
  EventStore,
  ExpectedVersion,
  NewEvent,
  Page,
  Position,
  StoredEvent,
  WrongExpectedVersionError,
} from '../../src/event-store/event-store.port';
import { DuplicateEventIdError, KurrentDbEventStore } from '../../src/event-store/kurrentdb/kurrentdb-event-store';
import { describeEventStoreContract } from './event-store.contract';

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

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    try {
      return await this.inner.append(this.prefix + streamId, events, expected);
    } catch (err) {
      if (err instanceof WrongExpectedVersionError) {
        throw new WrongExpectedVersionError(streamId, err.expected, err.actual);
      }
      throw err;
    }
  }

  async readStream(streamId: string): Promise<StoredEvent[]> {
    return (await this.inner.readStream(this.prefix + streamId)).map((e) => this.strip(e));
  }

  async readAll(after: Position, limit: number): Promise<StoredEvent[]> {
    if (limit <= 0) return [];
    let cursor = comparePositions(after, this.origin) < 0 ? this.origin : after;
    const out: StoredEvent[] = [];
    while (out.length < limit) {
      const page = await this.inner.readAll(cursor, limit);
      const last = page[page.length - 1];
      if (last === undefined) break;
      for (const event of page) {
        if (!this.owns(event)) continue;
        out.push(this.strip(event));
        if (out.length === limit) break;
      }
      cursor = last.position;
    }
    return out;
  }

  async readPage(after: Position, limit: number): Promise<Page> {
    return { events: await this.readAll(after, limit), hidden: false };
  }

  async readByIds(ids: readonly string[]): Promise<StoredEvent[]> {
    return (await this.inner.readByIds(ids)).filter((e) => this.owns(e)).map((e) => this.strip(e));
  }

  onAppended(listener: () => void): () => void {
    return this.inner.onAppended(listener);
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

function newEvent(type: string): NewEvent {
  return {
    id: randomUUID(),
    type,
    data: { n: type },
    metadata: { tenant_id: 'ten_test', created_at: new Date().toISOString() },
  };
}

async function factory(): Promise<{ store: EventStore; cleanup: () => Promise<void> }> {
  if (url === undefined) throw new Error('EVENTSTORE_URL is not set');
  const inner = KurrentDbEventStore.connect(url);
  let origin: Position;
  try {
    origin = await inner.headPosition();
  } catch (err) {
    await inner.close();
    throw err;
  }
  const store = new PrefixedEventStore(inner, `kdbc${runId}n${++storeCounter}-`, origin);
  return { store, cleanup: () => store.close() };
}

if (url === undefined) {
  console.log(
    'KurrentDB contract suite skipped: EVENTSTORE_URL is not set (docker compose -f docker/docker-compose.yml up kurrentdb brings one up)',
  );
}

const describeIfServer = url === undefined ? describe.skip : describe;

describeIfServer('KurrentDbEventStore against a live server', () => {
  describeEventStoreContract('KurrentDbEventStore', factory);

  describe('store-wide event ids', () => {
    let store: KurrentDbEventStore;

    beforeAll(() => {
      store = KurrentDbEventStore.connect(url ?? '');
    });

    afterAll(async () => {
      await store.close();
    });

    it('lets an append that lost a race be retried with the same ids, but never in another stream', async () => {
      const stream = `kdbc${runId}-guard-1`;
      const first: NewEvent = newEvent('guard.first');
      const retried: NewEvent = newEvent('guard.retried');
      await store.append(stream, [first], 'no_stream');
      // loses the race: the id is reserved for `stream`, the append itself fails
      await expect(store.append(stream, [retried], 'no_stream')).rejects.toBeInstanceOf(WrongExpectedVersionError);
      const ok = await store.append(stream, [retried], 0);
      expect(ok.nextExpectedVersion).toBe(1);
      await expect(store.append(`${stream}-other`, [retried], 'any')).rejects.toBeInstanceOf(DuplicateEventIdError);
      await expect(store.append(`${stream}-other`, [first, first], 'any')).rejects.toBeInstanceOf(
        DuplicateEventIdError,
      );
      expect((await store.readStream(stream)).map((e) => e.id)).toEqual([first.id, retried.id]);
      expect(await store.readStream(`${stream}-other`)).toEqual([]);
    });
  });

  describe('subscribePersistentToAll', () => {
    let store: KurrentDbEventStore;
    const group = `kdbc${runId}-outbox`;

    beforeAll(() => {
      store = KurrentDbEventStore.connect(url ?? '');
    });

    afterAll(async () => {
      await store.deletePersistentSubscriptionToAll(group).catch(() => undefined);
      await store.close();
    });

    it('delivers new events once, acking after the handler and parking the ones whose handler throws', async () => {
      const origin = await store.headPosition();
      const stream = `kdbc${runId}-persistent-1`;
      const events = [newEvent('test.ok'), newEvent('test.poison'), newEvent('test.ok')];
      const attempts = new Map<string, number>();
      const handled: StoredEvent[] = [];
      const errors: unknown[] = [];

      const subscription = store.subscribePersistentToAll(
        group,
        (e) => {
          if (e.streamId !== stream) return Promise.resolve();
          attempts.set(e.id, (attempts.get(e.id) ?? 0) + 1);
          if (e.type === 'test.poison') return Promise.reject(new Error('poison'));
          handled.push(e);
          return Promise.resolve();
        },
        { startFrom: origin, onError: (err) => errors.push(err) },
      );
      try {
        const appended = await store.append(stream, events, 'no_stream');
        const deadline = Date.now() + 30_000;
        while (handled.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        // give a wrongly retried poison event the chance to show up
        await new Promise((r) => setTimeout(r, 500));

        expect(handled.map((e) => e.id).sort()).toEqual([events[0]?.id, events[2]?.id].sort());
        expect(attempts.get(events[1]?.id ?? '')).toBe(1);
        const last = handled.find((e) => e.id === events[2]?.id);
        expect(last?.streamPosition).toBe(2);
        expect(last?.metadata).toEqual(events[2]?.metadata);
        expect(last?.position).toEqual(appended.position);
        expect(errors).toEqual([]);
      } finally {
        await subscription.stop();
      }
    });
  });
});
