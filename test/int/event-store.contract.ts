import { randomUUID } from 'node:crypto';
import {
  comparePositions,
  EventStore,
  NewEvent,
  START,
  StoredEvent,
  WrongExpectedVersionError,
} from '../../src/event-store/event-store.port';
import { newEventId } from '../../src/kernel/ids';

export interface EventStoreFixture {
  store: EventStore;
  cleanup: () => Promise<void>;
}

function event(type: string, data: Record<string, unknown> = {}): NewEvent {
  return {
    id: newEventId(),
    type,
    data,
    metadata: { tenant_id: 'ten_contract', created_at: new Date().toISOString() },
  };
}

async function readEverything(store: EventStore): Promise<StoredEvent[]> {
  const out: StoredEvent[] = [];
  let after = START;
  for (;;) {
    const page = await store.readAll(after, 100);
    const last = page[page.length - 1];
    if (!last) return out;
    out.push(...page);
    after = last.position;
  }
}

/** The behaviour every event store adapter must have; run against PostgreSQL and KurrentDB. */
export function describeEventStoreContract(name: string, factory: () => Promise<EventStoreFixture>): void {
  describe(`event store contract: ${name}`, () => {
    let fixture: EventStoreFixture;
    let store: EventStore;
    const stream = (): string => `contract-${randomUUID()}`;

    beforeAll(async () => {
      fixture = await factory();
      store = fixture.store;
    });
    afterAll(async () => {
      await fixture.cleanup();
    });

    it('appends to a new stream and reads it back in order with ids, data and metadata intact', async () => {
      const s = stream();
      const events = [event('thing.created', { n: 1, nested: { a: [1, 2] } }), event('thing.renamed', { n: 2 })];
      const result = await store.append(s, events, 'no_stream');
      expect(result.nextExpectedVersion).toBe(1);
      const read = await store.readStream(s);
      expect(read.map((e) => [e.id, e.type, e.streamPosition])).toEqual([
        [events[0]!.id, 'thing.created', 0],
        [events[1]!.id, 'thing.renamed', 1],
      ]);
      expect(read[0]!.data).toEqual({ n: 1, nested: { a: [1, 2] } });
      expect(read[0]!.metadata).toEqual(events[0]!.metadata);
      expect(comparePositions(read[1]!.position, result.position)).toBe(0);
    });

    it('returns an empty list for a stream that does not exist', async () => {
      expect(await store.readStream(stream())).toEqual([]);
    });

    it('enforces the expected version', async () => {
      const s = stream();
      await store.append(s, [event('a')], 'no_stream');
      await expect(store.append(s, [event('b')], 'no_stream')).rejects.toBeInstanceOf(WrongExpectedVersionError);
      await expect(store.append(s, [event('b')], 5)).rejects.toBeInstanceOf(WrongExpectedVersionError);
      await expect(store.append(stream(), [event('b')], 0)).rejects.toBeInstanceOf(WrongExpectedVersionError);
      const ok = await store.append(s, [event('b')], 0);
      expect(ok.nextExpectedVersion).toBe(1);
      const any = await store.append(s, [event('c')], 'any');
      expect(any.nextExpectedVersion).toBe(2);
    });

    it('lets exactly one of two writers with the same expected version win', async () => {
      const s = stream();
      await store.append(s, [event('a')], 'no_stream');
      const results = await Promise.allSettled([store.append(s, [event('b1')], 0), store.append(s, [event('b2')], 0)]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(rejected.reason).toBeInstanceOf(WrongExpectedVersionError);
      expect(await store.readStream(s)).toHaveLength(2);
    });

    it('rejects a duplicate event id', async () => {
      const e = event('dup');
      await store.append(stream(), [e], 'any');
      await expect(store.append(stream(), [e], 'any')).rejects.toThrow();
    });

    it('reads all events after a position, exclusive, in commit order, paged', async () => {
      const before = await readEverything(store);
      const from = before[before.length - 1]?.position ?? START;
      const s = stream();
      const appended = [event('p1'), event('p2'), event('p3')];
      await store.append(s, appended, 'no_stream');
      const page1 = await store.readAll(from, 2);
      expect(page1.map((e) => e.id)).toEqual([appended[0]!.id, appended[1]!.id]);
      const page2 = await store.readAll(page1[1]!.position, 2);
      expect(page2.map((e) => e.id)).toEqual([appended[2]!.id]);
      for (let i = 1; i < page1.length; i++) {
        expect(comparePositions(page1[i - 1]!.position, page1[i]!.position)).toBe(-1);
      }
    });

    it('reads events by id', async () => {
      const e = event('by.id');
      await store.append(stream(), [e], 'any');
      const found = await store.readByIds([e.id, randomUUID()]);
      expect(found.map((x) => x.id)).toEqual([e.id]);
    });

    it('fires the wake-up hint after an append', async () => {
      const woke = new Promise<void>((resolve) => {
        const off = store.onAppended(() => {
          off();
          resolve();
        });
      });
      await store.append(stream(), [event('wake')], 'any');
      await expect(woke).resolves.toBeUndefined();
    });
  });
}
