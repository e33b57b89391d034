/**
 * `Page.end`: a store that leaves records out of the port's log (KurrentDB's system records) says
 * how far each read got, and every reader of the runtime moves on from there: a processor alone, the
 * processor group and a rebuild store the checkpoint past trailing records the store left out, so
 * an idle poll does not read them again.
 *
 * PostgreSQL leaves nothing out, so the store here is the real PostgresEventStore seen through
 * `LeavingOut`, which drops the events of one type from each page and reports where the page ended,
 * exactly as the KurrentDB adapter reports its system records. It tests the runtime's side of the
 * port; the adapter's side is the contract suite's case on a server (EVENTSTORE_URL), and the
 * adapter's own page logic is unit-tested over a fake client (kurrentdb-event-store.spec.ts).
 *
 * The contract suite also runs here over `LeavingOut`, with a filtered record to append: its cases
 * about records after the last event, which on PostgreSQL alone reduce to "no `Page.end`", then
 * check a store that does filter.
 */
import { Logger } from '@nestjs/common';
import { comparePositions, EventStore, NewEvent, Page, Position } from '../../../src/event-store/event-store.port';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres-event-store';
import { newEventId } from '../../../src/kernel/ids';
import { ProcessorGroup } from '../../../src/runtime/processing/processor-group';
import { ProcessorRunner, type Processor } from '../../../src/runtime/processing/processor-runner';
import { createTestDatabase, TestDatabase } from '../../support/database';
import { describeEventStoreContract } from '../event-store/event-store.contract';

const LEFT_OUT = '$system.record';

class LeavingOut implements EventStore {
  pages = 0;
  constructor(private readonly inner: PostgresEventStore) {}
  get identity(): string {
    return this.inner.identity;
  }
  append: EventStore['append'] = (...args) => this.inner.append(...args);
  readStream: EventStore['readStream'] = (streamId) => this.inner.readStream(streamId);
  readByIds: EventStore['readByIds'] = (ids) => this.inner.readByIds(ids);
  onAppended: EventStore['onAppended'] = (listener) => this.inner.onAppended(listener);
  onError: EventStore['onError'] = (listener) => this.inner.onError(listener);
  ping: EventStore['ping'] = () => this.inner.ping();
  close: EventStore['close'] = () => this.inner.close();

  async readAll(after: Position, limit: number) {
    return (await this.readPage(after, limit)).events;
  }

  async readPage(after: Position, limit: number): Promise<Page> {
    this.pages++;
    const page = await this.inner.readPage(after, limit);
    const raw = page.events[page.events.length - 1]?.position;
    const events = page.events.filter((e) => e.type !== LEFT_OUT);
    const last = events[events.length - 1]?.position ?? after;
    return raw && comparePositions(raw, last) > 0 ? { ...page, events, end: raw } : { ...page, events };
  }
}

describe('readers move past records the store leaves out (Page.end)', () => {
  let db: TestDatabase;
  let pg: PostgresEventStore;
  let store: LeavingOut;
  const handled: string[] = [];
  const processor = (name: string): Processor => ({
    name,
    handles: '*',
    handle: (_tx, events) => {
      handled.push(...events.map((e) => `${name}:${e.type}`));
      return Promise.resolve();
    },
  });
  const append = async (...types: string[]): Promise<Position> => {
    let position: Position | undefined;
    for (const type of types) {
      const event: NewEvent = {
        id: newEventId(),
        type,
        data: {},
        metadata: { tenant_id: null, created_at: new Date().toISOString() },
      };
      position = (await store.append(`s-${newEventId()}`, [event], 'no_stream')).position;
    }
    return position as Position;
  };
  const checkpoint = async (name: string): Promise<Position | undefined> => {
    const { rows } = await db.pool.query<{ commit_position: string; prepare_position: string }>(
      'SELECT commit_position, prepare_position FROM projection_checkpoints WHERE name = $1',
      [name],
    );
    const row = rows[0];
    return row && { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) };
  };

  beforeAll(async () => {
    Logger.overrideLogger(false);
    db = await createTestDatabase();
    pg = new PostgresEventStore(db.pool);
    store = new LeavingOut(pg);
  });
  afterAll(async () => {
    await pg.close();
    await db.drop();
  });

  it('a processor alone stores its checkpoint past them, and an idle poll then reads nothing again', async () => {
    await append('kept.one');
    const tail = await append(LEFT_OUT, LEFT_OUT);
    const runner = new ProcessorRunner(db.pool, store, processor('alone'));
    await runner.drain();
    expect(handled).toEqual(['alone:kept.one']);
    expect(await checkpoint('alone')).toEqual(tail);
    // a fresh runner (a restart) starts past them: one read, nothing in it, no end beyond it
    const before = store.pages;
    await new ProcessorRunner(db.pool, store, processor('alone')).drain();
    expect(store.pages - before).toBe(1);
    expect(await checkpoint('alone')).toEqual(tail);
  });

  it('the group moves every member past them, including members with nothing to do', async () => {
    handled.length = 0;
    await append('kept.two');
    const tail = await append(LEFT_OUT);
    const group = new ProcessorGroup(db.pool, store, { lingerMs: 0 });
    group.add(new ProcessorRunner(db.pool, store, processor('g1')));
    group.add(new ProcessorRunner(db.pool, store, { ...processor('g2'), handles: ['never.seen'] }));
    await group.drain();
    expect(handled.filter((h) => h.endsWith('kept.two'))).toEqual(['g1:kept.two']);
    expect(await checkpoint('g1')).toEqual(tail);
    expect(await checkpoint('g2')).toEqual(tail);
  });

  it('a runner that resolves waitFor on a left-out position does so once past it', async () => {
    const tail = await append(LEFT_OUT);
    const runner = new ProcessorRunner(db.pool, store, processor('waiting'));
    const waited = runner.waitFor(tail, 2000);
    await runner.drain();
    await expect(waited).resolves.toBe(true);
  });
});

describeEventStoreContract('PostgreSQL seen through LeavingOut (a store that filters records out)', async () => {
  const db = await createTestDatabase();
  const pg = new PostgresEventStore(db.pool);
  return {
    store: new LeavingOut(pg),
    eventIds: 'store',
    truncateBefore: async (streamId, revision) => {
      await db.pool.query('DELETE FROM events WHERE stream_id = $1 AND stream_position < $2', [streamId, revision]);
    },
    appendFilteredRecord: async () => {
      const record: NewEvent = {
        id: newEventId(),
        type: LEFT_OUT,
        data: {},
        metadata: { tenant_id: null, created_at: new Date().toISOString() },
      };
      await pg.append(`left-out-${newEventId()}`, [record], 'no_stream');
    },
    cleanup: async () => {
      await pg.close();
      await db.drop();
    },
  };
});
