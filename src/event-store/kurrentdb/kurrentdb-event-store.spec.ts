import { EventEmitter } from 'node:events';
import {
  AccessDeniedError,
  BACKWARDS,
  StreamNotFoundError,
  WrongExpectedVersionError as ClientWrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import { DuplicateEventIdError, NewEvent, Position, START, WrongExpectedVersionError } from '../event-store.port';
import { KurrentDbEventStore } from './kurrentdb-event-store';

/*
 * The adapter's own logic (page ends past filtered records, the `any` retry loop, an emptied
 * stream, the position read back after an append, `success: false`, the live subscription's error
 * reports and restarts) driven through a FAKE of the client's API surface (`KurrentDbClientApi`).
 *
 * The fake is NOT a KurrentDB server: it keeps an in-memory log with the shapes the client returns
 * (`@kurrent/kurrentdb-client` 1.3.1: resolved events, append results, its error classes), and
 * implements only what these tests need: optimistic concurrency by revision, inclusive reads from a
 * position, streams whose events are all gone while their revision stays. It tests what the adapter
 * does with the client's answers, not that a server answers so; that is the contract suite's job
 * against a real server (test/int/event-store/kurrentdb-event-store.int-spec.ts).
 */

interface FakeRecord {
  streamId: string;
  id: string;
  type: string;
  revision: bigint;
  position: { commit: bigint; prepare: bigint };
  data: unknown;
  metadata: unknown;
}

class FakeSubscription extends EventEmitter {
  unsubscribed = false;
  unsubscribe(): Promise<void> {
    this.unsubscribed = true;
    return Promise.resolve();
  }
}

class FakeKurrentClient {
  readonly log: FakeRecord[] = [];
  /** Per stream: its last revision (kept when its events vanish) and the first revision still readable. */
  readonly streams = new Map<string, { last: bigint; visibleFrom: bigint }>();
  readonly appends: { streamId: string; ids: string[]; streamState: unknown }[] = [];
  readonly streamReads: { streamId: string; options: Record<string, unknown> }[] = [];
  readonly subscriptions: FakeSubscription[] = [];
  /** As the client's option: false resolves a conflict as `{ success: false }` instead of throwing. */
  throwOnAppendFailure = true;
  /** Append results without a position (as an idempotent rewrite is acknowledged). */
  omitAppendPosition = false;
  /** Before an append is checked: where a test lets another writer in. */
  beforeAppend?: (streamId: string) => void;
  disposed = false;
  private nextPosition = 100n;

  /** A record written by someone else (another writer's event, a system record). */
  write(streamId: string, type: string, id = `${type}-${this.nextPosition}`): FakeRecord {
    const stream = this.streams.get(streamId);
    const revision = stream ? stream.last + 1n : 0n;
    const position = { commit: this.nextPosition, prepare: this.nextPosition };
    this.nextPosition += 10n;
    const record = { streamId, id, type, revision, position, data: { n: Number(revision) }, metadata: meta };
    this.log.push(record);
    this.streams.set(streamId, { last: revision, visibleFrom: stream?.visibleFrom ?? 0n });
    return record;
  }

  /** Every event of the stream gone (expired by $maxAge, truncated by $tb), its revision kept. */
  empty(streamId: string): void {
    const stream = this.streams.get(streamId);
    if (stream) stream.visibleFrom = stream.last + 1n;
  }

  appendToStream = async (
    streamId: string,
    events: { id: string; type: string; data: unknown; metadata?: unknown }[],
    options: { streamState: 'any' | 'no_stream' | bigint },
  ) => {
    await Promise.resolve();
    this.appends.push({ streamId, ids: events.map((e) => e.id), streamState: options.streamState });
    this.beforeAppend?.(streamId);
    const current = this.streams.get(streamId)?.last;
    const { streamState } = options;
    const ok = streamState === 'any' || (streamState === 'no_stream' ? current === undefined : current === streamState);
    if (!ok) {
      if (this.throwOnAppendFailure) {
        throw new ClientWrongExpectedVersionError(undefined, {
          streamName: streamId,
          current: current ?? 'no_stream',
          expected: streamState,
        });
      }
      return { success: false, nextExpectedRevision: current ?? -1n, position: undefined };
    }
    let last: FakeRecord | undefined;
    for (const e of events) {
      last = this.write(streamId, e.type, e.id);
      last.data = e.data;
      last.metadata = e.metadata;
    }
    return {
      success: true,
      nextExpectedRevision: (last as FakeRecord).revision,
      position: this.omitAppendPosition ? undefined : (last as FakeRecord).position,
    };
  };

  readAll = (options: { fromPosition?: unknown; direction?: unknown; maxCount?: number | bigint }) => {
    const from = options.fromPosition as { commit: bigint; prepare: bigint } | undefined;
    const backwards = options.direction === BACKWARDS;
    let records = backwards ? [...this.log].reverse() : this.log;
    // reads from a position include the record at it
    if (!backwards && from && typeof from === 'object') {
      records = records.filter((r) => r.position.commit >= from.commit);
    }
    return toStream(records.slice(0, countOf(options.maxCount)));
  };

  readStream = (
    streamId: string,
    options: { direction?: unknown; fromRevision?: unknown; maxCount?: number | bigint },
  ) => {
    this.streamReads.push({ streamId, options });
    const stream = this.streams.get(streamId);
    if (stream === undefined) return failing(new StreamNotFoundError(undefined, streamId));
    const visible = this.log.filter((r) => r.streamId === streamId && r.revision >= stream.visibleFrom);
    const backwards = options.direction === BACKWARDS;
    let records = backwards ? [...visible].reverse() : visible;
    const from = options.fromRevision;
    if (typeof from === 'bigint')
      records = records.filter((r) => (backwards ? r.revision <= from : r.revision >= from));
    return toStream(records.slice(0, countOf(options.maxCount)));
  };

  subscribeToAll = () => {
    const subscription = new FakeSubscription();
    this.subscriptions.push(subscription);
    return subscription;
  };

  dispose = async () => {
    this.disposed = true;
    await Promise.resolve();
  };
}

const meta = { tenant_id: null, created_at: '2025-01-01T00:00:00.000Z' };

const countOf = (maxCount: number | bigint | undefined): number =>
  maxCount === undefined ? Infinity : Number(maxCount);

async function* toStream(records: readonly FakeRecord[]) {
  for (const r of records) {
    await Promise.resolve();
    yield {
      event: { ...r, created: new Date(0), isJson: true, contentType: 'application/json' },
      commitPosition: r.position.commit,
    };
  }
}

// eslint-disable-next-line require-yield
async function* failing(err: Error): AsyncGenerator<never> {
  await Promise.resolve();
  throw err;
}

function storeOver(fake: FakeKurrentClient, onError?: (err: unknown) => void): KurrentDbEventStore {
  return KurrentDbEventStore.withClient(fake, { onError });
}

function ev(id: string): NewEvent {
  return { id, type: 'thing.happened', data: { id }, metadata: meta };
}

describe('KurrentDbEventStore over a fake client: reading $all', () => {
  it('leaves system records out and reports the page end past trailing ones, across raw pages', async () => {
    const fake = new FakeKurrentClient();
    const a = fake.write('s-1', 'thing.happened');
    const b = fake.write('s-1', 'thing.happened');
    // more trailing system records than one raw page (64) holds
    let lastSystem: FakeRecord = b;
    for (let i = 0; i < 70; i++) lastSystem = fake.write(i % 2 ? '$stats-0' : 's-2', i % 2 ? 'any' : '$metadata');
    const store = storeOver(fake);
    const page = await store.readPage(START, 10);
    expect(page.events.map((e) => e.id)).toEqual([a.id, b.id]);
    expect(page.end).toEqual(lastSystem.position);
    // from there: nothing, and no end (nothing was passed)
    const next = await store.readPage(page.end as Position, 10);
    expect(next).toEqual({ events: [], hidden: false });
  });

  it('ends a page at its limit without an end, and the next read starts after its last event', async () => {
    const fake = new FakeKurrentClient();
    const ids = [0, 1, 2, 3, 4].map(() => fake.write('s-1', 'thing.happened').id);
    fake.write('$$s-1', '$metadata');
    const store = storeOver(fake);
    const first = await store.readPage(START, 2);
    expect(first.events.map((e) => e.id)).toEqual(ids.slice(0, 2));
    expect(first.end).toBeUndefined();
    const rest = await store.readPage(first.events[1]?.position as Position, 10);
    expect(rest.events.map((e) => e.id)).toEqual(ids.slice(2));
    expect(rest.end).toEqual(fake.log[fake.log.length - 1]?.position);
  });

  it('reads the head of $all backwards, system records included; START on an empty log', async () => {
    const fake = new FakeKurrentClient();
    const store = storeOver(fake);
    expect(await store.headPosition()).toEqual(START);
    fake.write('s-1', 'thing.happened');
    const system = fake.write('$stats-0', '$statsCollected');
    expect(await store.headPosition()).toEqual(system.position);
  });
});

describe('KurrentDbEventStore over a fake client: appends', () => {
  it('returns the position the append reports', async () => {
    const fake = new FakeKurrentClient();
    const result = await storeOver(fake).append('s-1', [ev('e1'), ev('e2')], 'no_stream');
    expect(result).toEqual({ nextExpectedVersion: 1, position: fake.log[1]?.position });
    expect(fake.streamReads).toHaveLength(0);
  });

  it('reads the position back when the append reports none (an idempotent rewrite)', async () => {
    const fake = new FakeKurrentClient();
    fake.omitAppendPosition = true;
    const result = await storeOver(fake).append('s-1', [ev('e1'), ev('e2')], 'no_stream');
    expect(result).toEqual({ nextExpectedVersion: 1, position: fake.log[1]?.position });
    expect(fake.streamReads).toEqual([
      { streamId: 's-1', options: expect.objectContaining({ fromRevision: 1n, maxCount: 1 }) as unknown },
    ]);
  });

  it.each([true, false])(
    'reports a conflict as WrongExpectedVersionError with the actual revision (throwOnAppendFailure %s)',
    async (throwOnAppendFailure) => {
      const fake = new FakeKurrentClient();
      fake.throwOnAppendFailure = throwOnAppendFailure;
      const store = storeOver(fake);
      await store.append('s-1', [ev('e1'), ev('e2'), ev('e3')], 'no_stream');
      const conflict = await store.append('s-1', [ev('e4')], 0).catch((err: unknown) => err);
      expect(conflict).toBeInstanceOf(WrongExpectedVersionError);
      expect(conflict).toMatchObject({ streamId: 's-1', expected: 0, actual: 2 });
      const none = await store.append('s-2', [ev('e5')], 3).catch((err: unknown) => err);
      expect(none).toMatchObject({ expected: 3, actual: 'no_stream' });
      // nothing was stored by either, and nobody was told of an append
      expect(fake.log.map((r) => r.id)).toEqual(['e1', 'e2', 'e3']);
    },
  );

  it.each([true, false])(
    'appends to an emptied stream expecting no stream, at the revision the conflict names (throwOnAppendFailure %s)',
    async (throwOnAppendFailure) => {
      const fake = new FakeKurrentClient();
      fake.throwOnAppendFailure = throwOnAppendFailure;
      const store = storeOver(fake);
      await store.append('s-1', [ev('e1'), ev('e2'), ev('e3')], 'no_stream');
      fake.empty('s-1');
      expect(await store.readStream('s-1')).toEqual([]);
      const result = await store.append('s-1', [ev('e4')], 'no_stream');
      expect(result.nextExpectedVersion).toBe(3);
      expect(fake.appends.slice(1).map((a) => a.streamState)).toEqual(['no_stream', 2n]);
      expect((await store.readStream('s-1')).map((e) => [e.id, e.streamPosition])).toEqual([['e4', 3]]);
    },
  );

  it('does not retry a no-stream append when the stream still has events, nor more than once', async () => {
    const fake = new FakeKurrentClient();
    const store = storeOver(fake);
    await store.append('s-1', [ev('e1')], 'no_stream');
    await expect(store.append('s-1', [ev('e2')], 'no_stream')).rejects.toMatchObject({
      expected: 'no_stream',
      actual: 0,
    });
    expect(fake.appends).toHaveLength(2);
    // emptied, and another writer gets in before the retry: reported against what the caller expected
    fake.empty('s-1');
    let once = true;
    fake.beforeAppend = (streamId) => {
      if (!once || fake.appends.length !== 4) return;
      once = false;
      fake.write(streamId, 'other.writer');
    };
    await expect(store.append('s-1', [ev('e3')], 'no_stream')).rejects.toMatchObject({
      expected: 'no_stream',
      actual: 1,
    });
    expect(fake.appends).toHaveLength(4);
  });

  it('any: appends at the tail it read, and reads again when another writer got there first', async () => {
    const fake = new FakeKurrentClient();
    const store = storeOver(fake);
    await store.append('s-1', [ev('e1')], 'no_stream');
    let once = true;
    fake.beforeAppend = (streamId) => {
      if (!once) return;
      once = false;
      fake.write(streamId, 'other.writer');
    };
    const result = await store.append('s-1', [ev('e2')], 'any');
    expect(result.nextExpectedVersion).toBe(2);
    expect(fake.appends.slice(1).map((a) => a.streamState)).toEqual([0n, 1n]);
  });

  it('any: a retry whose first try was stored (its acknowledgement lost) stores nothing', async () => {
    const fake = new FakeKurrentClient();
    const store = storeOver(fake);
    const first = await store.append('s-1', [ev('e1'), ev('e2')], 'any');
    fake.write('s-1', 'other.writer');
    const again = await store.append('s-1', [ev('e1'), ev('e2')], 'any');
    expect(again).toEqual(first);
    expect(fake.appends).toHaveLength(1);
    await expect(store.append('s-1', [ev('e2'), ev('e9')], 'any')).rejects.toBeInstanceOf(DuplicateEventIdError);
  });

  it('any: on an emptied stream, appends where the conflict said the stream is (one retry, not twenty)', async () => {
    const fake = new FakeKurrentClient();
    const store = storeOver(fake);
    await store.append('s-1', [ev('e1'), ev('e2')], 'no_stream');
    fake.empty('s-1');
    const result = await store.append('s-1', [ev('e3')], 'any');
    expect(result.nextExpectedVersion).toBe(2);
    expect(fake.appends.slice(1).map((a) => a.streamState)).toEqual(['no_stream', 1n]);
  });

  it('any: gives up after 20 tries against writers that always get there first', async () => {
    const fake = new FakeKurrentClient();
    const store = storeOver(fake);
    await store.append('s-1', [ev('e1')], 'no_stream');
    fake.beforeAppend = (streamId) => void fake.write(streamId, 'other.writer');
    await expect(store.append('s-1', [ev('e2')], 'any')).rejects.toBeInstanceOf(WrongExpectedVersionError);
    expect(fake.appends).toHaveLength(1 + 20);
  });
});

describe('KurrentDbEventStore over a fake client: the live subscription', () => {
  afterEach(() => jest.useRealTimers());

  it('wakes listeners on data, reports its errors, restarts with a backoff, and stops on close', async () => {
    jest.useFakeTimers();
    const fake = new FakeKurrentClient();
    const errors: unknown[] = [];
    const store = storeOver(fake, (err) => errors.push(err));
    let woken = 0;
    store.onAppended(() => woken++);
    expect(fake.subscriptions).toHaveLength(1);
    const first = fake.subscriptions[0] as FakeSubscription;

    first.emit('data', {});
    first.emit('data', {});
    jest.advanceTimersByTime(10);
    expect(woken).toBe(1); // throttled: one wake-up for both

    first.emit('error', new AccessDeniedError(undefined, 'Access denied'));
    expect(first.unsubscribed).toBe(true);
    expect(errors).toHaveLength(1);
    expect(String((errors[0] as Error).message)).toMatch(/denied access.*read on \$all/);
    // its 'end' and 'close' after the error are the same failure: not reported again
    first.emit('end');
    first.emit('close');
    expect(errors).toHaveLength(1);

    jest.advanceTimersByTime(499);
    expect(fake.subscriptions).toHaveLength(1);
    jest.advanceTimersByTime(1);
    expect(fake.subscriptions).toHaveLength(2);
    const second = fake.subscriptions[1] as FakeSubscription;
    // confirmed: whatever was appended while it was down is announced
    second.emit('confirmation');
    jest.advanceTimersByTime(10);
    expect(woken).toBe(2);

    second.emit('end');
    expect(errors).toHaveLength(2);
    expect(String((errors[1] as Error).message)).toMatch(/live subscription to \$all ended/);
    // the failure count was reset by the confirmation: the first delay again
    jest.advanceTimersByTime(500);
    expect(fake.subscriptions).toHaveLength(3);

    await store.close();
    expect(fake.subscriptions[2]?.unsubscribed).toBe(true);
    expect(fake.disposed).toBe(true);
    fake.subscriptions[2]?.emit('error', new Error('after close'));
    jest.advanceTimersByTime(60_000);
    expect(errors).toHaveLength(2);
    expect(fake.subscriptions).toHaveLength(3);
  });
});
