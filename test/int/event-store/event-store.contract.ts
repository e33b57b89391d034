import { randomUUID } from 'node:crypto';
import {
  comparePositions,
  DuplicateEventIdError,
  EventStore,
  NewEvent,
  pageEnd,
  Position,
  START,
  StoredEvent,
  WrongExpectedVersionError,
} from '../../../src/event-store/event-store.port';
import type { DomainEvent } from '../../../src/kernel/decider';
import { defineEdge } from '../../../src/kernel/event-edge';
import { newEventId } from '../../../src/kernel/ids';
import { CheckpointStoreMismatchError, ProcessorRunner } from '../../../src/runtime/processing/processor-runner';
import { snapshotOfStream } from '../../../src/runtime/commands/stream-state-cache';
import { createTestDatabase, TestDatabase } from '../../support/database';

/**
 * What the harness of one store provides besides the store. The hooks provoke, on the real store,
 * what only that store can do; a case that needs a hook the harness lacks says so and checks what
 * it can without it.
 */
export interface EventStoreFixture {
  store: EventStore;
  cleanup: () => Promise<void>;
  /**
   * How far the store itself keeps event ids unique: in the whole store (PostgreSQL's unique index),
   * or only against retries of one append (KurrentDB, decision 50): an id reused elsewhere is stored.
   */
  eventIds: 'store' | 'retries';
  /** Drops a stream's events before `revision`, as the store's truncation does ($tb on KurrentDB). */
  truncateBefore?: (streamId: string, revision: number) => Promise<void>;
  /** Writes a record the store keeps out of the port's log (a KurrentDB system record); absent when none exists. */
  appendFilteredRecord?: () => Promise<void>;
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

/** Where a reader of the whole log ends up: past the last event and past whatever the store filters out after it. */
async function readToEnd(store: EventStore, from: Position): Promise<{ events: StoredEvent[]; end: Position }> {
  const events: StoredEvent[] = [];
  let at = from;
  for (;;) {
    const page = await store.readPage(at, 100);
    events.push(...page.events);
    const next = pageEnd(at, page);
    if (page.events.length === 0 && comparePositions(next, at) === 0) return { events, end: at };
    at = next;
  }
}

/** A decider that only counts, to see the version a command would expect. */
const counter = {
  initialState: () => 0,
  evolve: (n: number) => n + 1,
  edge: defineEdge<DomainEvent<'a' | 'b' | 'c' | 'd' | 'e' | 'after.emptied'>>({
    a: {},
    b: {},
    c: {},
    d: {},
    e: {},
    'after.emptied': {},
  }),
};

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

    it('reports the actual version of a stream when the expected one is wrong', async () => {
      const s = stream();
      await store.append(s, [event('a'), event('b')], 'no_stream');
      const err = (await store.append(s, [event('c')], 0).catch((e: unknown) => e)) as WrongExpectedVersionError;
      expect(err).toBeInstanceOf(WrongExpectedVersionError);
      expect([err.expected, err.actual]).toEqual([0, 1]);
      const missing = (await store
        .append(stream(), [event('c')], 3)
        .catch((e: unknown) => e)) as WrongExpectedVersionError;
      expect(missing.actual).toBe('no_stream');
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

    it('refuses an empty append, whatever the expectation, and stores nothing', async () => {
      const s = stream();
      for (const expected of ['no_stream', 'any', 0] as const) {
        await expect(store.append(s, [], expected)).rejects.toBeInstanceOf(RangeError);
      }
      expect(await store.readStream(s)).toEqual([]);
    });

    it('refuses a negative or fractional expected version before writing anything', async () => {
      const s = stream();
      for (const expected of [-1, -2, 0.5, Number.NaN]) {
        await expect(store.append(s, [event('a')], expected)).rejects.toBeInstanceOf(RangeError);
      }
      expect(await store.readStream(s)).toEqual([]);
    });

    it('expects the revision of the last event, not the count, once earlier revisions are gone (truncation)', async () => {
      const s = stream();
      await store.append(s, [event('a'), event('b'), event('c'), event('d')], 'no_stream');
      if (!fixture.truncateBefore) {
        console.log(`${name}: no truncation hook, non-contiguous revisions not provoked`);
        return;
      }
      await fixture.truncateBefore(s, 2);
      const read = await store.readStream(s);
      expect(read.map((e) => [e.type, e.streamPosition])).toEqual([
        ['c', 2],
        ['d', 3],
      ]);
      // what the command executor would expect on this read
      expect(snapshotOfStream(counter, read).version).toBe(3);
      await expect(store.append(s, [event('e')], read.length - 1)).rejects.toBeInstanceOf(WrongExpectedVersionError);
      const ok = await store.append(s, [event('e')], 3);
      expect(ok.nextExpectedVersion).toBe(4);
      expect((await store.readStream(s)).map((e) => e.streamPosition)).toEqual([2, 3, 4]);
    });

    it('takes an append to a stream whose events are all gone as to a new one (no_stream, any)', async () => {
      if (!fixture.truncateBefore) {
        console.log(`${name}: no truncation hook, an emptied stream not provoked`);
        return;
      }
      for (const expected of ['no_stream', 'any'] as const) {
        const s = stream();
        await store.append(s, [event('a'), event('b')], 'no_stream');
        // every event gone, not a delete: KurrentDB keeps the stream's revision ($tb past its last one)
        await fixture.truncateBefore(s, 2);
        const read = await store.readStream(s);
        expect(read).toEqual([]);
        expect(snapshotOfStream(counter, read).version).toBe(-1);
        // what the executor does on that read: the emptied stream's state is the initial state
        const again = event('after.emptied');
        const result = await store.append(s, [again], expected);
        const now = await store.readStream(s);
        expect(now.map((e) => e.id)).toEqual([again.id]);
        // the revision is the store's (PostgreSQL starts again at 0, KurrentDB goes on at 2): the result says it
        expect(result.nextExpectedVersion).toBe(now[0]!.streamPosition);
      }
    });

    it('refuses an id given twice in one append, storing nothing', async () => {
      const s = stream();
      const e = event('twice');
      await expect(store.append(s, [e, event('other'), e], 'any')).rejects.toBeInstanceOf(DuplicateEventIdError);
      expect(await store.readStream(s)).toEqual([]);
    });

    it('answers a retry after a lost acknowledgement with the first result, storing nothing again', async () => {
      for (const expected of ['no_stream', 'any'] as const) {
        const s = stream();
        const events = [event('once.a'), event('once.b')];
        const first = await store.append(s, events, expected);
        // the acknowledgement of `first` is lost: the caller sends the same append again
        const retried = await store.append(s, events, expected);
        expect(retried.nextExpectedVersion).toBe(first.nextExpectedVersion);
        expect(comparePositions(retried.position, first.position)).toBe(0);
        expect((await store.readStream(s)).map((e) => e.id)).toEqual(events.map((e) => e.id));
      }
      const s = stream();
      await store.append(s, [event('head')], 'no_stream');
      const events = [event('next')];
      const first = await store.append(s, events, 0);
      expect(await store.append(s, events, 0)).toEqual(first);
      expect(await store.readStream(s)).toHaveLength(2);
    });

    it('answers an `any` retry with the first result even after another writer appended meanwhile', async () => {
      const s = stream();
      const events = [event('mine')];
      const first = await store.append(s, events, 'any');
      await store.append(s, [event('theirs')], 'any');
      const retried = await store.append(s, events, 'any');
      expect(retried.nextExpectedVersion).toBe(first.nextExpectedVersion);
      expect(comparePositions(retried.position, first.position)).toBe(0);
      expect((await store.readStream(s)).map((e) => e.type)).toEqual(['mine', 'theirs']);
    });

    it('keeps ids unique as far as the store says: in another stream', async () => {
      const e = event('dup');
      const a = stream();
      const b = stream();
      await store.append(a, [e], 'any');
      if (fixture.eventIds === 'store') {
        await expect(store.append(b, [e], 'any')).rejects.toBeInstanceOf(DuplicateEventIdError);
        await expect(store.append(b, [event('fresh'), e], 'no_stream')).rejects.toBeInstanceOf(DuplicateEventIdError);
        expect(await store.readStream(b)).toEqual([]);
      } else {
        // the documented gap (decision 50): nothing in the store finds an id in another stream
        await store.append(b, [e], 'no_stream');
        expect((await store.readStream(b)).map((x) => x.id)).toEqual([e.id]);
      }
    });

    it('keeps ids unique as far as the store says: at another place in the same stream', async () => {
      const s = stream();
      const e = event('dup');
      await store.append(s, [e], 'no_stream');
      await store.append(s, [event('between')], 0);
      if (fixture.eventIds === 'store') {
        await expect(store.append(s, [e], 1)).rejects.toBeInstanceOf(DuplicateEventIdError);
        expect(await store.readStream(s)).toHaveLength(2);
      } else {
        await store.append(s, [e], 1);
        expect((await store.readStream(s)).map((x) => x.id)).toEqual([e.id, expect.any(String), e.id]);
      }
      // with `any`, an id found among the stream's last events is a clash in every store
      const mixed = [event('new'), e];
      await expect(store.append(s, mixed, 'any')).rejects.toBeInstanceOf(DuplicateEventIdError);
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

    it('lets a reader move past records it filters out after the last event, and finds the next event', async () => {
      const { end: start } = await readToEnd(store, START);
      const first = await store.append(stream(), [event('before.filtered')], 'no_stream');
      await fixture.appendFilteredRecord?.();
      const page = await store.readPage(first.position, 10);
      expect(page.events).toEqual([]);
      const end = pageEnd(first.position, page);
      if (fixture.appendFilteredRecord) expect(comparePositions(end, first.position)).toBe(1);
      else expect(page.end).toBeUndefined();
      // nothing of the log is left after the end (a live server may write more system records meanwhile)
      expect((await store.readPage(end, 10)).events).toEqual([]);
      const next = event('after.filtered');
      await store.append(stream(), [next], 'no_stream');
      expect((await store.readPage(end, 10)).events.map((e) => e.id)).toEqual([next.id]);
      // a page is never shorter than its events: `end` is not before the last event read
      const all = await readToEnd(store, start);
      expect(all.events.map((e) => e.type).slice(-2)).toEqual(['before.filtered', 'after.filtered']);
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

    it('reports a failure in the background to its error listeners, never to the append', async () => {
      const errors: unknown[] = [];
      const offError = store.onError((err) => errors.push(err));
      const failure = new Error('a wake-up listener failed');
      const offWake = store.onAppended(() => {
        throw failure;
      });
      try {
        const result = await store.append(stream(), [event('wake.failing')], 'no_stream');
        expect(result.nextExpectedVersion).toBe(0);
        const deadline = Date.now() + 5000;
        while (!errors.includes(failure) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
        expect(errors).toContain(failure);
      } finally {
        offWake();
        offError();
      }
    });

    it('answers a ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
      expect(store.identity).toMatch(/^[a-z]+$/);
    });

    describe('processors reading this store (checkpoints in PostgreSQL)', () => {
      let db: TestDatabase;
      const seen: StoredEvent[] = [];
      const processorName = (): string => `contract_${randomUUID().slice(0, 8)}`;
      const runner = (name: string): ProcessorRunner =>
        new ProcessorRunner(db.pool, store, {
          name,
          handles: '*',
          handle: (_tx, events) => {
            seen.push(...events);
            return Promise.resolve();
          },
        });
      const checkpoint = async (name: string) =>
        (
          await db.pool.query<{ commit_position: string; prepare_position: string; event_store: string }>(
            'SELECT commit_position, prepare_position, event_store FROM projection_checkpoints WHERE name = $1',
            [name],
          )
        ).rows[0];

      beforeAll(async () => {
        db = await createTestDatabase();
      });
      afterAll(async () => {
        await db.drop();
      });

      it('stores the checkpoint past trailing filtered records, with the store it belongs to', async () => {
        const name = processorName();
        await store.append(stream(), [event('checkpointed')], 'no_stream');
        await fixture.appendFilteredRecord?.();
        const { end } = await readToEnd(store, START);
        await runner(name).drain();
        const row = await checkpoint(name);
        expect(row?.event_store).toBe(store.identity);
        const stored = { commit: BigInt(row?.commit_position ?? -1), prepare: BigInt(row?.prepare_position ?? -1) };
        // at least where a reader of the whole log ended before (a live server may have added system records since)
        expect(comparePositions(stored, end)).toBeGreaterThanOrEqual(0);
        if (!fixture.appendFilteredRecord) expect(stored).toEqual(end);
        expect((await store.readPage(stored, 10)).events).toEqual([]);
        expect(seen.map((e) => e.type)).toContain('checkpointed');
      });

      it("refuses a checkpoint written against another store's log, and reads nothing", async () => {
        const name = processorName();
        await runner(name).drain();
        await db.pool.query(`UPDATE projection_checkpoints SET event_store = 'another-store' WHERE name = $1`, [name]);
        seen.length = 0;
        await store.append(stream(), [event('not.for.foreign.checkpoints')], 'no_stream');
        await expect(runner(name).drain()).rejects.toBeInstanceOf(CheckpointStoreMismatchError);
        expect(seen).toEqual([]);
        // a checkpoint at the start belongs to no log yet: it is claimed
        await db.pool.query(
          `UPDATE projection_checkpoints SET commit_position = -1, prepare_position = -1 WHERE name = $1`,
          [name],
        );
        await runner(name).drain();
        expect((await checkpoint(name))?.event_store).toBe(store.identity);
      });
    });
  });
}
