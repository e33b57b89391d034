import type { AppendOrigin, EventStore, StoredEvent } from '../../src/event-store/event-store.port';
import { sessionStream } from '../../src/sessions/domain/session.decider';
import { SessionLive } from '../../src/sessions/application/session-live';
import type { SessionPartials } from '../../src/sessions/application/session-partials';

/** A store that counts the reads of each stream and lets the test fire its wake-ups. */
function countingStore() {
  const reads = new Map<string, number>();
  const listeners = new Set<(origin?: AppendOrigin, streams?: readonly string[]) => void>();
  const store = {
    readStream: (streamId: string): Promise<StoredEvent[]> => {
      reads.set(streamId, (reads.get(streamId) ?? 0) + 1);
      return Promise.resolve([]);
    },
    onAppended: (listener: (origin?: AppendOrigin, streams?: readonly string[]) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const wake = async (origin?: AppendOrigin, streams?: readonly string[]) => {
    for (const listener of listeners) listener(origin, streams);
    await new Promise((r) => setImmediate(r));
  };
  return { store: store as unknown as EventStore, reads, wake };
}

const partials = { subscribe: () => () => undefined } as unknown as SessionPartials;

describe('SessionLive wake-ups', () => {
  it('a live view re-reads its session for an append to its own stream, or one it cannot tell, not for others', async () => {
    const { store, reads, wake } = countingStore();
    const live = new SessionLive(store, partials);
    const closers: (() => void)[] = [];
    live.follow('ses_a', -1, {
      send: () => undefined,
      ping: () => undefined,
      end: () => undefined,
      onClose: (listener) => closers.push(listener),
    });
    const own = sessionStream('ses_a');
    await wake();
    const first = reads.get(own) ?? 0;
    // Appends of other calls, here: nothing to read.
    for (let i = 0; i < 20; i++) await wake('local', [sessionStream(`ses_other${i}`), 'room-x']);
    expect(reads.get(own)).toBe(first);
    // Its own stream, among others of a grouped append: one read.
    await wake('local', ['room-x', own]);
    expect(reads.get(own)).toBe(first + 1);
    // Another instance's append (streams unknown): a read.
    await wake('remote');
    expect(reads.get(own)).toBe(first + 2);
    for (const close of closers) close();
    live.onApplicationShutdown();
  });
});
