import { Logger } from '@nestjs/common';
import type { Position, StoredEvent } from '../../event-store/event-store.port';
import { comparePositions } from '../../event-store/event-store.port';
import { LogObserver, type ObservedLog } from './log-observer';

function event(n: number, type: string): StoredEvent {
  return {
    id: `e${n}`,
    type,
    data: {},
    metadata: { tenant_id: null, created_at: '2026-01-01T00:00:00.000Z' },
    streamId: `s-${n}`,
    streamPosition: 0,
    position: { commit: BigInt(n), prepare: BigInt(n) },
  };
}

/** An in-memory log with the port's readPage and onAppended. */
function memoryStore() {
  const log: StoredEvent[] = [];
  const listeners = new Set<() => void>();
  const reads: Position[] = [];
  const store = {
    readPage: (after: Position, limit: number) => {
      reads.push(after);
      const events = log.filter((e) => comparePositions(e.position, after) > 0).slice(0, limit);
      return Promise.resolve({ events, hidden: false });
    },
    onAppended: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } satisfies ObservedLog;
  return {
    store,
    reads,
    add(...events: StoredEvent[]) {
      log.push(...events);
      for (const l of listeners) l();
    },
  };
}

const until = async (check: () => boolean): Promise<void> => {
  const deadline = Date.now() + 3000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('LogObserver', () => {
  it('starts where it is told, and hands each observer the new events of its types, in order', async () => {
    const mem = memoryStore();
    mem.add(event(1, 'tenant.created'));
    const observer = new LogObserver(mem.store, {
      startFrom: () => Promise.resolve({ commit: 1n, prepare: 1n }),
      minIntervalMs: 0,
    });
    const tenants: string[] = [];
    const all: string[] = [];
    observer.observe(['tenant.created', 'tenant.suspended'], (events) => tenants.push(...events.map((e) => e.id)));
    observer.observe('*', (events) => all.push(...events.map((e) => e.id)));
    observer.start();
    try {
      mem.add(event(2, 'session.placed'), event(3, 'tenant.suspended'));
      await until(() => all.length === 2);
      mem.add(event(4, 'tenant.created'));
      await until(() => tenants.length === 2);
      expect(tenants).toEqual(['e3', 'e4']);
      expect(all).toEqual(['e2', 'e3', 'e4']);
    } finally {
      await observer.stop();
    }
  });

  it('a failing callback neither stops the others nor the observer', async () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const mem = memoryStore();
    const observer = new LogObserver(mem.store, { minIntervalMs: 0 });
    const seen: string[] = [];
    observer.observe('*', () => {
      throw new Error('boom');
    });
    observer.observe('*', (events) => seen.push(...events.map((e) => e.id)));
    observer.start();
    try {
      mem.add(event(1, 'a'));
      await until(() => seen.length === 1);
      mem.add(event(2, 'a'));
      await until(() => seen.length === 2);
      expect(logged).toHaveBeenCalledTimes(2);
    } finally {
      await observer.stop();
      logged.mockRestore();
    }
  });

  it('reads at most once per interval however often it is woken, and not at all without observers', async () => {
    const idle = memoryStore();
    const unobserved = new LogObserver(idle.store, { minIntervalMs: 0 });
    unobserved.start();
    idle.add(event(1, 'a'));
    await new Promise((r) => setTimeout(r, 50));
    await unobserved.stop();
    expect(idle.reads).toHaveLength(0);

    const mem = memoryStore();
    const observer = new LogObserver(mem.store, { minIntervalMs: 100 });
    observer.observe('*', () => undefined);
    observer.start();
    try {
      for (let i = 1; i <= 30; i++) {
        mem.add(event(i, 'a'));
        await new Promise((r) => setTimeout(r, 10));
      }
      // About 300 ms of wake-ups: a read at once, then at most one per 100 ms.
      expect(mem.reads.length).toBeLessThanOrEqual(6);
    } finally {
      await observer.stop();
    }
  });
});
