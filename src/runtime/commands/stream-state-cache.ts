import type { AppendResult, NewEvent, StoredEvent } from '../../event-store/event-store.port';
import { Decider, DomainEvent, foldStored } from '../../kernel/decider';

/**
 * The events a stream holds under one Idempotency-Key, in stream order, as `readStream` returns
 * them; `null` when they are known to be there but not all their positions are (several events
 * appended at once: the store returns only the last one's), so a retry reads the stream.
 */
export type KeyedEvents = readonly StoredEvent[] | null;

/** At most this many Idempotency-Keys are indexed per stream; beyond, a keyed command reads the stream. */
export const MAX_KEYS_PER_STREAM = 256;

/**
 * A stream's folded state at one revision: what the executor decides on instead of reading and folding
 * the whole stream again. Immutable: a new snapshot replaces it; deciders return new states (evolve
 * never mutates its input, `src/kernel/decider.ts`), so sharing a state between commands is safe.
 */
export interface StreamSnapshot<State> {
  /** The decider the state was folded with: a snapshot serves only that decider. */
  readonly decider: object;
  readonly state: State;
  /** Revision of the stream's last event (what the next append expects); -1: no stream. */
  readonly version: number;
  /** The stream's events by Idempotency-Key; null when there were too many to keep. */
  readonly keys: ReadonlyMap<string, KeyedEvents> | null;
  /**
   * An estimate of the memory the snapshot holds, in bytes: its events as JSON text, twice (the
   * folded state and the events kept by key are of their size), and what any entry costs. What the
   * cache's byte bound counts; absent (a snapshot built by hand): the fixed cost only.
   */
  readonly bytes?: number;
}

/** What a cached entry costs besides its events: the entry, the snapshot, the key map, the stream id. */
const ENTRY_BYTES = 512;

/** The estimate of one event's share of a snapshot (see `StreamSnapshot.bytes`). */
function eventBytes(dataJson: number, metadataJson: number): number {
  return 2 * (dataJson + metadataJson) + 128;
}

const jsonLength = (value: unknown): number => JSON.stringify(value)?.length ?? 0;

/** A stream guessed new: no events, the decider's initial state; `no_stream` is what an append expects. */
export function emptySnapshot<State>(decider: Pick<Decider<unknown, State, DomainEvent>, 'initialState'>) {
  return {
    decider,
    state: decider.initialState(),
    version: -1,
    keys: new Map(),
    bytes: ENTRY_BYTES,
  } as StreamSnapshot<State>;
}

/** The snapshot of a stream just read: the same fold and the same key lookup as the uncached path. */
export function snapshotOfStream<State, Event extends DomainEvent>(
  decider: Pick<Decider<unknown, State, Event>, 'initialState' | 'evolve' | 'edge'>,
  stored: readonly StoredEvent[],
): StreamSnapshot<State> {
  let keys: Map<string, StoredEvent[]> | null = new Map();
  let bytes = ENTRY_BYTES;
  for (const event of stored) {
    bytes += eventBytes(jsonLength(event.data), jsonLength(event.metadata));
    const key = event.metadata.idempotency_key;
    if (key === undefined || keys === null) continue;
    const list = keys.get(key);
    if (list) list.push(event);
    else if (keys.size >= MAX_KEYS_PER_STREAM) keys = null;
    else keys.set(key, [event]);
  }
  return {
    decider,
    state: foldStored(decider, stored),
    // the last event's revision, not the count: truncation and soft deletes leave revisions that do not start at 0
    version: stored[stored.length - 1]?.streamPosition ?? -1,
    keys,
    bytes,
  };
}

/**
 * The snapshot after `events` were appended after the snapshot's last event (the append's expected
 * version held, so the stream is exactly the snapshot's events followed by these). Their revisions are
 * the ones the append reports (`result.nextExpectedVersion` is the last one's), not the snapshot's
 * version plus their count: a stream whose events all expired or were truncated away reads as empty
 * (version -1) yet continues at a later revision (decision 50). The events are folded as a
 * read would give them back: through JSON, as the store keeps them (no `undefined` fields, dates as
 * strings), so that the cached state is the state a fresh read would fold.
 */
export function snapshotAfterAppend<State, Event extends DomainEvent>(
  snapshot: StreamSnapshot<State>,
  decider: Pick<Decider<unknown, State, Event>, 'initialState' | 'evolve' | 'edge'>,
  streamId: string,
  events: readonly NewEvent[],
  result: AppendResult,
  idempotencyKey: string | undefined,
): StreamSnapshot<State> {
  const first = result.nextExpectedVersion - events.length + 1;
  let bytes = snapshot.bytes ?? ENTRY_BYTES;
  const stored: StoredEvent[] = events.map((e, i) => {
    const data = JSON.stringify(e.data);
    const metadata = JSON.stringify(e.metadata);
    bytes += eventBytes(data.length, metadata.length);
    return {
      id: e.id,
      type: e.type,
      data: JSON.parse(data) as StoredEvent['data'],
      metadata: JSON.parse(metadata) as StoredEvent['metadata'],
      streamId,
      streamPosition: first + i,
      // Only the last event's position is known; the others are not kept as keyed events (see KeyedEvents).
      position: result.position,
    };
  });
  let keys = snapshot.keys;
  if (idempotencyKey !== undefined && keys !== null) {
    const earlier = keys.get(idempotencyKey);
    if (earlier === undefined && keys.size >= MAX_KEYS_PER_STREAM) keys = null;
    else {
      const next = new Map(keys);
      next.set(idempotencyKey, earlier === null || stored.length !== 1 ? null : [...(earlier ?? []), ...stored]);
      keys = next;
    }
  }
  return {
    decider,
    state: stored.reduce((state, e) => decider.evolve(state, decider.edge.decode(e)), snapshot.state),
    version: result.nextExpectedVersion,
    keys,
    bytes,
  };
}

export interface StreamStateCacheOptions {
  /** Streams kept at most (least recently used go first); 0 turns the cache off. */
  readonly maxStreams: number;
  /** The snapshots' estimated bytes (`StreamSnapshot.bytes`) kept at most; the least recently used go first. */
  readonly maxBytes?: number;
  /** A stream not used for this long goes at the next insertion. */
  readonly idleMs: number;
  readonly now?: () => number;
}

/**
 * Folded stream states kept between commands, per process: an LRU bounded by stream count and by
 * the snapshots' estimated bytes (a long call's session holds far more than a short one's), whose
 * idle entries go. It only ever saves a read: the executor trusts a cached state only for a decision that
 * appends with the cached revision as expected version, which another writer's event makes fail.
 */
export class StreamStateCache {
  private readonly entries = new Map<string, { snapshot: StreamSnapshot<unknown>; usedAt: number }>();
  private readonly now: () => number;
  private heldBytes = 0;

  constructor(private readonly options: StreamStateCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  get enabled(): boolean {
    return this.options.maxStreams > 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The kept snapshots' estimated bytes. */
  get bytes(): number {
    return this.heldBytes;
  }

  get<State>(streamId: string, decider: object): StreamSnapshot<State> | undefined {
    const entry = this.entries.get(streamId);
    if (!entry) return undefined;
    const now = this.now();
    if (entry.snapshot.decider !== decider || now - entry.usedAt > this.options.idleMs) {
      this.remove(streamId);
      return undefined;
    }
    // Most recently used last: the Map's order is the eviction order.
    this.entries.delete(streamId);
    entry.usedAt = now;
    this.entries.set(streamId, entry);
    return entry.snapshot as StreamSnapshot<State>;
  }

  /** Keeps `snapshot` unless a later revision of the stream is already kept (a concurrent command's). */
  put(streamId: string, snapshot: StreamSnapshot<unknown>): void {
    if (!this.enabled || snapshot.version < 0) return;
    const existing = this.entries.get(streamId);
    if (existing && existing.snapshot.decider === snapshot.decider && existing.snapshot.version > snapshot.version)
      return;
    this.remove(streamId);
    const now = this.now();
    this.entries.set(streamId, { snapshot, usedAt: now });
    this.heldBytes += sizeOf(snapshot);
    this.evict(now);
  }

  drop(streamId: string): void {
    this.remove(streamId);
  }

  /** Drops the stream's entry if it has not seen the event at `streamPosition` (another writer's). */
  seen(streamId: string, streamPosition: number): void {
    const entry = this.entries.get(streamId);
    if (entry && entry.snapshot.version < streamPosition) this.remove(streamId);
  }

  clear(): void {
    this.entries.clear();
    this.heldBytes = 0;
  }

  private remove(streamId: string): void {
    const entry = this.entries.get(streamId);
    if (!entry) return;
    this.entries.delete(streamId);
    this.heldBytes -= sizeOf(entry.snapshot);
  }

  private evict(now: number): void {
    const maxBytes = this.options.maxBytes ?? Infinity;
    for (const [streamId, entry] of this.entries) {
      if (
        this.entries.size <= this.options.maxStreams &&
        this.heldBytes <= maxBytes &&
        now - entry.usedAt <= this.options.idleMs
      )
        return;
      this.remove(streamId);
    }
  }
}

const sizeOf = (snapshot: StreamSnapshot<unknown>): number => snapshot.bytes ?? ENTRY_BYTES;
