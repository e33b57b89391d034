import type { StoredEvent } from '../../event-store/event-store.port';
import type { Decider, DomainEvent } from '../../kernel/decider';
import { defineEdge } from '../../kernel/event-edge';
import {
  emptySnapshot,
  MAX_KEYS_PER_STREAM,
  snapshotAfterAppend,
  snapshotOfStream,
  StreamSnapshot,
  StreamStateCache,
} from './stream-state-cache';

type Ev = DomainEvent<'n', { n: number; extra?: unknown }>;
const sum: Decider<unknown, number, Ev> = {
  edge: defineEdge<Ev>({ n: { n: true } }),
  initialState: () => 0,
  evolve: (state, e) => state + e.data.n,
  decide: () => [],
};

function stored(streamPosition: number, n: number, key?: string): StoredEvent {
  return {
    id: `e${streamPosition}`,
    type: 'n',
    data: { n },
    metadata: { tenant_id: null, created_at: '2026-01-01T00:00:00.000Z', ...(key ? { idempotency_key: key } : {}) },
    streamId: 's',
    streamPosition,
    position: { commit: 1n, prepare: BigInt(streamPosition) },
  };
}

const snap = (version: number): StreamSnapshot<number> => ({ decider: sum, state: version, version, keys: new Map() });

describe('StreamStateCache', () => {
  it('keeps at most maxStreams, the least recently used going first', () => {
    const cache = new StreamStateCache({ maxStreams: 2, idleMs: 60_000 });
    cache.put('a', snap(0));
    cache.put('b', snap(0));
    expect(cache.get('a', sum)).toBeDefined(); // a is now the most recent
    cache.put('c', snap(0));
    expect(cache.get('b', sum)).toBeUndefined();
    expect(cache.get('a', sum)).toBeDefined();
    expect(cache.get('c', sum)).toBeDefined();
    expect(cache.size).toBe(2);
  });

  it('keeps at most maxBytes of estimated snapshot size, the least recently used going first', () => {
    const big = (version: number): StreamSnapshot<number> => ({ ...snap(version), bytes: 4_000 });
    const cache = new StreamStateCache({ maxStreams: 100, maxBytes: 10_000, idleMs: 60_000 });
    cache.put('a', big(0));
    cache.put('b', big(0));
    expect(cache.bytes).toBe(8_000);
    expect(cache.get('a', sum)).toBeDefined(); // a is now the most recent
    cache.put('c', big(0)); // 12,000 > 10,000: b goes
    expect(cache.get('b', sum)).toBeUndefined();
    expect([cache.size, cache.bytes]).toEqual([2, 8_000]);
    cache.put('a', big(1)); // a replaced: counted once
    cache.drop('c');
    expect([cache.size, cache.bytes]).toEqual([1, 4_000]);
  });

  it('estimates a snapshot by its events: a read and the same events appended weigh alike', () => {
    const events = [stored(0, 1, 'k1'), stored(1, 2, 'k2')];
    const read = snapshotOfStream(sum, events);
    const appended = snapshotAfterAppend(
      snapshotAfterAppend(
        emptySnapshot(sum),
        sum,
        's',
        [{ id: 'e0', type: 'n', data: { n: 1 }, metadata: events[0]!.metadata }],
        { nextExpectedVersion: 0, position: events[0]!.position },
        'k1',
      ),
      sum,
      's',
      [{ id: 'e1', type: 'n', data: { n: 2 }, metadata: events[1]!.metadata }],
      { nextExpectedVersion: 1, position: events[1]!.position },
      'k2',
    );
    expect(read.bytes).toBe(appended.bytes);
    const heavier = snapshotOfStream(sum, [
      stored(0, 1, 'k1'),
      { ...stored(1, 2, 'k2'), data: { n: 2, extra: 'x'.repeat(1000) } },
    ]);
    expect(heavier.bytes! - read.bytes!).toBeGreaterThanOrEqual(2_000);
  });

  it('drops idle entries', () => {
    let now = 0;
    const cache = new StreamStateCache({ maxStreams: 10, idleMs: 1000, now: () => now });
    cache.put('a', snap(0));
    cache.put('b', snap(0));
    now = 800;
    expect(cache.get('b', sum)).toBeDefined();
    now = 1500;
    cache.put('c', snap(0)); // a (idle since 0) goes; b (used at 800) stays
    expect(cache.size).toBe(2);
    expect(cache.get('a', sum)).toBeUndefined();
    now = 2900;
    expect(cache.get('b', sum)).toBeUndefined();
  });

  it('never replaces a later revision with an earlier one, and serves only its decider', () => {
    const cache = new StreamStateCache({ maxStreams: 10, idleMs: 60_000 });
    cache.put('a', snap(3));
    cache.put('a', snap(2));
    expect(cache.get<number>('a', sum)?.version).toBe(3);
    expect(cache.get('a', { other: true })).toBeUndefined();
    expect(cache.get('a', sum)).toBeUndefined();
  });

  it('forgets a stream when an event it has not seen is observed, not for one it has', () => {
    const cache = new StreamStateCache({ maxStreams: 10, idleMs: 60_000 });
    cache.put('a', snap(3));
    cache.seen('a', 3);
    expect(cache.get('a', sum)).toBeDefined();
    cache.seen('a', 4);
    expect(cache.get('a', sum)).toBeUndefined();
  });

  it('is off with maxStreams 0, and keeps no stream that does not exist', () => {
    const off = new StreamStateCache({ maxStreams: 0, idleMs: 60_000 });
    off.put('a', snap(1));
    expect(off.enabled).toBe(false);
    expect(off.size).toBe(0);
    const on = new StreamStateCache({ maxStreams: 10, idleMs: 60_000 });
    on.put('a', emptySnapshot(sum));
    expect(on.size).toBe(0);
  });
});

describe('snapshots', () => {
  it('of a read: the fold, the revision and the events by key', () => {
    const s = snapshotOfStream(sum, [stored(0, 1, 'k1'), stored(1, 2), stored(2, 3, 'k1'), stored(3, 4, 'k2')]);
    expect(s.state).toBe(10);
    expect(s.version).toBe(3);
    expect(s.keys?.get('k1')?.map((e) => e.id)).toEqual(['e0', 'e2']);
    expect(s.keys?.get('k2')?.map((e) => e.id)).toEqual(['e3']);
  });

  it('of a read with more keys than kept: keys unknown', () => {
    const events = Array.from({ length: MAX_KEYS_PER_STREAM + 1 }, (_, i) => stored(i, 1, `k${i}`));
    expect(snapshotOfStream(sum, events).keys).toBeNull();
  });

  it('after an append: folded as stored (through JSON), one keyed event exact, several not', () => {
    const seen: unknown[] = [];
    const recording: Decider<unknown, number, Ev> = {
      ...sum,
      evolve: (state, e) => (seen.push(e.data), state + e.data.n),
    };
    const base = snapshotOfStream(recording, [stored(0, 1)]);
    const one = snapshotAfterAppend(
      base,
      recording,
      's',
      [
        {
          id: 'x',
          type: 'n',
          data: { n: 5, extra: undefined },
          metadata: { tenant_id: null, created_at: 't', idempotency_key: 'k' },
        },
      ],
      { nextExpectedVersion: 1, position: { commit: 9n, prepare: 9n } },
      'k',
    );
    expect(one.state).toBe(6);
    expect(one.version).toBe(1);
    expect(seen[seen.length - 1]).toEqual({ n: 5 });
    expect(Object.keys(seen[seen.length - 1] as object)).toEqual(['n']);
    expect(one.keys?.get('k')).toEqual([
      expect.objectContaining({ id: 'x', streamId: 's', streamPosition: 1, position: { commit: 9n, prepare: 9n } }),
    ]);
    const two = snapshotAfterAppend(
      one,
      recording,
      's',
      [
        { id: 'y', type: 'n', data: { n: 1 }, metadata: { tenant_id: null, created_at: 't', idempotency_key: 'k2' } },
        { id: 'z', type: 'n', data: { n: 1 }, metadata: { tenant_id: null, created_at: 't', idempotency_key: 'k2' } },
      ],
      { nextExpectedVersion: 3, position: { commit: 10n, prepare: 11n } },
      'k2',
    );
    expect(two.version).toBe(3);
    expect(two.state).toBe(8);
    expect(two.keys?.get('k2')).toBeNull();
    expect(two.keys?.get('k')).toHaveLength(1);
  });
});

describe("snapshotAfterAppend: the revisions are the append result's", () => {
  it("continues at the revision the store reports, not at the snapshot's version plus the count", () => {
    const decider = {
      initialState: () => 0,
      evolve: (n: number) => n + 1,
      edge: defineEdge<DomainEvent<'t'>>({ t: {} }),
    };
    // a stream whose events all expired reads as empty (version -1); the store appended at 7 and 8
    const base = snapshotOfStream(decider, []);
    const meta = { tenant_id: null, created_at: 't', idempotency_key: 'k' };
    const after = snapshotAfterAppend(
      base,
      decider,
      's',
      [{ id: 'a', type: 't', data: {}, metadata: meta }],
      { nextExpectedVersion: 7, position: { commit: 3n, prepare: 3n } },
      'k',
    );
    expect(after.version).toBe(7);
    expect(after.keys?.get('k')).toEqual([expect.objectContaining({ id: 'a', streamPosition: 7 })]);
    const next = snapshotAfterAppend(
      after,
      decider,
      's',
      [
        { id: 'b', type: 't', data: {}, metadata: { tenant_id: null, created_at: 't' } },
        { id: 'c', type: 't', data: {}, metadata: { tenant_id: null, created_at: 't' } },
      ],
      { nextExpectedVersion: 9, position: { commit: 4n, prepare: 4n } },
      undefined,
    );
    expect(next.version).toBe(9);
    expect(next.state).toBe(3);
  });
});

describe('snapshotOfStream: the version is the last revision', () => {
  it('expects the revision of the last event when earlier revisions are gone (truncation, soft delete)', () => {
    const decider = {
      initialState: () => 0,
      evolve: (n: number) => n + 1,
      edge: defineEdge<DomainEvent<'t'>>({ t: {} }),
    };
    const at = (streamPosition: number) =>
      ({
        id: `e${streamPosition}`,
        type: 't',
        data: {},
        metadata: { tenant_id: null, created_at: '2025-01-01T00:00:00.000Z' },
        streamId: 's',
        streamPosition,
        position: { commit: BigInt(streamPosition), prepare: BigInt(streamPosition) },
      }) as const;
    expect(snapshotOfStream(decider, [at(5), at(6)]).version).toBe(6);
    expect(snapshotOfStream(decider, [at(0), at(1)]).version).toBe(1);
    expect(snapshotOfStream(decider, []).version).toBe(-1);
  });
});
