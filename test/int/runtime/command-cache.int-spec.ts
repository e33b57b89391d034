/**
 * The executor's stream-state cache and the cached API-key and tenant lookups, on real PostgreSQL.
 * "Another instance" is played by appending straight through the EventStore, as a second process on
 * the same database would; the last block runs two whole apps on one database.
 */
import { getRepositoryToken } from '@nestjs/typeorm';
import { EVENT_STORE, EventStore, NewEvent, StoredEvent } from '../../../src/event-store/event-store.port';
import type { Decider, DomainEvent } from '../../../src/kernel/decider';
import { newEventId } from '../../../src/kernel/ids';
import { defineEdge } from '../../../src/kernel/event-edge';
import { withIdempotencyKey } from '../../../src/kernel/idempotency-context';
import { DomainError } from '../../../src/kernel/result';
import { CommandExecutor } from '../../../src/runtime/commands/command-executor';
import { LogObserver } from '../../../src/runtime/processing/log-observer';
import { ProjectionsService } from '../../../src/runtime/processing/processors.service';
import { LOOKUP_TTL_MS, TenantLookups } from '../../../src/tenants/application/tenant-lookups';
import { TENANT_EVENT_TYPES } from '../../../src/tenants/domain/tenant.decider';
import { ApiKeyEntity, TenantEntity } from '../../../src/tenants/projections/tenant.entity';
import { startTestApp, TestApp } from '../../support/app';
import { eventually } from '../../support/eventually';

type ItemEvent =
  | DomainEvent<'item.added', { item: string }>
  | DomainEvent<'item.removed', { item: string }>
  | DomainEvent<'item.used', { item: string }>;
type ItemCommand =
  | { type: 'add'; item: string }
  | { type: 'add_pair'; items: [string, string] }
  | { type: 'remove'; item: string }
  | { type: 'use'; item: string };
type ItemState = { readonly items: readonly string[]; readonly used: number };

/** A set of items: adding one present is a no-op, using one absent a refusal. */
const items: Decider<ItemCommand, ItemState, ItemEvent> = {
  edge: defineEdge<ItemEvent>({
    'item.added': { item: true },
    'item.removed': { item: true },
    'item.used': { item: true },
  }),
  initialState: () => ({ items: [], used: 0 }),
  evolve(state, event) {
    switch (event.type) {
      case 'item.added':
        return { ...state, items: [...state.items, event.data.item] };
      case 'item.removed':
        return { ...state, items: state.items.filter((i) => i !== event.data.item) };
      case 'item.used':
        return { ...state, used: state.used + 1 };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'add':
        return state.items.includes(command.item) ? [] : [{ type: 'item.added', data: { item: command.item } }];
      case 'add_pair':
        return command.items.map((item) => ({ type: 'item.added' as const, data: { item } }));
      case 'remove':
        return state.items.includes(command.item) ? [{ type: 'item.removed', data: { item: command.item } }] : [];
      case 'use':
        if (!state.items.includes(command.item)) throw new DomainError('not_found', `No item ${command.item}.`);
        return [{ type: 'item.used', data: { item: command.item } }];
    }
  },
};

let streams = 0;
const newStream = (): string => `itemtest-${process.pid}_${++streams}`;

function behind(type: ItemEvent['type'], item: string, idempotencyKey?: string): NewEvent {
  return {
    id: newEventId(),
    type,
    data: { item },
    metadata: {
      tenant_id: null,
      created_at: new Date().toISOString(),
      ...(idempotencyKey ? { idempotency_key: idempotencyKey } : {}),
    },
  };
}

describe('command executor: stream state kept between commands', () => {
  let t: TestApp;
  let executor: CommandExecutor;
  let store: EventStore;
  let reads: jest.SpyInstance;

  beforeAll(async () => {
    t = await startTestApp();
    executor = t.app.get(CommandExecutor);
    store = t.app.get<EventStore>(EVENT_STORE);
    reads = jest.spyOn(store, 'readStream');
  });
  afterAll(async () => {
    reads?.mockRestore();
    await t?.close();
  });
  beforeEach(() => reads.mockClear());

  const run = (stream: string, command: ItemCommand) => executor.execute(stream, items, command, { tenantId: null });
  const stored = async (stream: string) =>
    (await store.readStream(stream)).map((e) => [e.streamPosition, e.type, e.data.item]);

  it('decides on the kept state: a run of commands on one stream reads it no more', async () => {
    const stream = newStream();
    await run(stream, { type: 'add', item: 'a' });
    await run(stream, { type: 'add', item: 'b' });
    const third = await run(stream, { type: 'use', item: 'a' });
    expect(third.state).toEqual({ items: ['a', 'b'], used: 1 });
    expect(reads).not.toHaveBeenCalled();
    expect(await stored(stream)).toEqual([
      [0, 'item.added', 'a'],
      [1, 'item.added', 'b'],
      [2, 'item.used', 'a'],
    ]);
  });

  it('keeps no state the decider calls settled: the next command reads the stream, and decides right', async () => {
    // Settled once an item has been used: the executor drops it instead of keeping it.
    const settling: Decider<ItemCommand, ItemState, ItemEvent> = { ...items, settled: (state) => state.used > 0 };
    const stream = newStream();
    const runSettling = (command: ItemCommand) => executor.execute(stream, settling, command, { tenantId: null });
    await runSettling({ type: 'add', item: 'a' });
    await runSettling({ type: 'add', item: 'b' });
    expect(reads).not.toHaveBeenCalled();
    await runSettling({ type: 'use', item: 'a' });
    // Not kept: guessed new, the append expecting no stream fails, the stream is read and decided on.
    const again = await runSettling({ type: 'use', item: 'b' });
    expect(reads).toHaveBeenCalledTimes(1);
    expect(again.state).toEqual({ items: ['a', 'b'], used: 2 });
    expect(await stored(stream)).toEqual([
      [0, 'item.added', 'a'],
      [1, 'item.added', 'b'],
      [2, 'item.used', 'a'],
      [3, 'item.used', 'b'],
    ]);
  });

  it('decides again on fresh state when another writer appended behind the cache: nothing lost or doubled', async () => {
    const stream = newStream();
    await run(stream, { type: 'add', item: 'a' });
    await store.append(stream, [behind('item.added', 'b')], 0);
    // The cached state (revision 0) does not know b: the append expecting 0 fails, the stream is read.
    const added = await run(stream, { type: 'add', item: 'b' });
    expect(added.events).toEqual([]);
    const c = await run(stream, { type: 'add', item: 'c' });
    expect(c.state.items).toEqual(['a', 'b', 'c']);
    expect(await stored(stream)).toEqual([
      [0, 'item.added', 'a'],
      [1, 'item.added', 'b'],
      [2, 'item.added', 'c'],
    ]);
    await store.append(stream, [behind('item.added', 'd')], 2);
    const e = await run(stream, { type: 'add', item: 'e' });
    expect(e.state.items).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(e.events).toHaveLength(1);
    expect(await stored(stream)).toEqual([
      [0, 'item.added', 'a'],
      [1, 'item.added', 'b'],
      [2, 'item.added', 'c'],
      [3, 'item.added', 'd'],
      [4, 'item.added', 'e'],
    ]);
  });

  it('re-decides a no-op on cached state on a fresh read (the stale cache would have done nothing)', async () => {
    const stream = newStream();
    await run(stream, { type: 'add', item: 'a' });
    await store.append(stream, [behind('item.removed', 'a')], 0);
    reads.mockClear();
    // Cached: a is there, so adding it is a no-op; fresh: it was removed, so it is added again.
    const again = await run(stream, { type: 'add', item: 'a' });
    expect(again.events.map((e) => e.type)).toEqual(['item.added']);
    expect(reads).toHaveBeenCalledTimes(1);
    expect(await stored(stream)).toEqual([
      [0, 'item.added', 'a'],
      [1, 'item.removed', 'a'],
      [2, 'item.added', 'a'],
    ]);
    // A true no-op is still answered as one, after the read.
    expect((await run(stream, { type: 'add', item: 'a' })).events).toEqual([]);
  });

  it('re-decides a refusal on cached state on a fresh read, and keeps a refusal that a fresh read confirms', async () => {
    const stream = newStream();
    await run(stream, { type: 'add', item: 'a' });
    await store.append(stream, [behind('item.added', 'z')], 0);
    const used = await run(stream, { type: 'use', item: 'z' });
    expect(used.state).toEqual({ items: ['a', 'z'], used: 1 });
    await expect(run(stream, { type: 'use', item: 'nope' })).rejects.toThrow('No item nope.');
    expect(await stored(stream)).toEqual([
      [0, 'item.added', 'a'],
      [1, 'item.added', 'z'],
      [2, 'item.used', 'z'],
    ]);
  });

  it('guesses a stream it does not keep is new, and reads it when the guess is wrong', async () => {
    const fresh = newStream();
    expect((await run(fresh, { type: 'add', item: 'a' })).events).toHaveLength(1);
    expect(reads).not.toHaveBeenCalled();
    const elsewhere = newStream();
    await store.append(elsewhere, [behind('item.added', 'x')], 'no_stream');
    // Not cached: guessed new, so `use x` is refused on the guess and decided again on a read.
    expect((await run(elsewhere, { type: 'use', item: 'x' })).state.used).toBe(1);
    // Appending on the guess expects no stream: refused, read, decided again.
    const other = newStream();
    await store.append(other, [behind('item.added', 'y')], 'no_stream');
    const added = await run(other, { type: 'add', item: 'w' });
    expect(added.state.items).toEqual(['y', 'w']);
    expect(await stored(other)).toEqual([
      [0, 'item.added', 'y'],
      [1, 'item.added', 'w'],
    ]);
  });

  describe('idempotency keys', () => {
    const keyed = <T>(key: string, work: () => Promise<T>): Promise<T> => withIdempotencyKey(key, work);
    const under = async (stream: string, key: string): Promise<StoredEvent[]> =>
      (await store.readStream(stream)).filter((e) => e.metadata.idempotency_key === key);

    it('a retried request returns the events it committed, repeated, as a read of the stream would', async () => {
      const stream = newStream();
      await run(stream, { type: 'add', item: 'a' });
      const first = await keyed('p:k1', () => run(stream, { type: 'add', item: 'b' }));
      reads.mockClear();
      const retry = await keyed('p:k1', () => run(stream, { type: 'add', item: 'b' }));
      expect(reads).not.toHaveBeenCalled();
      expect(retry.repeated).toBe(true);
      expect(retry.position).toEqual(first.position);
      expect(retry.events).toEqual(await under(stream, 'p:k1'));
      // Even a different command under the key answers with what the key committed.
      const other = await keyed('p:k1', () => run(stream, { type: 'add', item: 'c' }));
      expect(other.repeated).toBe(true);
      expect(other.events.map((e) => e.id)).toEqual(first.events.map((e) => e.id));
      expect(await stored(stream)).toEqual([
        [0, 'item.added', 'a'],
        [1, 'item.added', 'b'],
      ]);
    });

    it('a retry of several events under one key reads their positions, and answers the same', async () => {
      const stream = newStream();
      const first = await keyed('p:pair', () => run(stream, { type: 'add_pair', items: ['a', 'b'] }));
      const retry = await keyed('p:pair', () => run(stream, { type: 'add_pair', items: ['a', 'b'] }));
      expect(retry.repeated).toBe(true);
      expect(retry.position).toEqual(first.position);
      expect(retry.events).toEqual(await under(stream, 'p:pair'));
      expect(await stored(stream)).toHaveLength(2);
    });

    it('finds a key committed by another instance after the state was cached', async () => {
      const stream = newStream();
      await run(stream, { type: 'add', item: 'a' });
      await store.append(stream, [behind('item.added', 'b', 'p:k2')], 0);
      // The cache has no p:k2: the decision (add c) is appended expecting revision 0, which fails; the
      // read then finds the key's event, and the request is answered with it.
      const retry = await keyed('p:k2', () => run(stream, { type: 'add', item: 'c' }));
      expect(retry.repeated).toBe(true);
      expect(retry.events).toEqual(await under(stream, 'p:k2'));
      expect(await stored(stream)).toEqual([
        [0, 'item.added', 'a'],
        [1, 'item.added', 'b'],
      ]);
    });
  });

  it('appendTo: the decided stream stays as it was, the other stream is read afresh', async () => {
    const decided = newStream();
    const target = newStream();
    await run(decided, { type: 'add', item: 'a' });
    await run(target, { type: 'add', item: 't' });
    const ping = await executor.execute(
      decided,
      items,
      { type: 'use', item: 'a' },
      { tenantId: null },
      {
        appendTo: target,
      },
    );
    expect(ping.events).toHaveLength(1);
    // The target got an event with `any`: its next command decides on a state that has it.
    const next = await run(target, { type: 'add', item: 'u' });
    expect(next.state).toEqual({ items: ['t', 'u'], used: 1 });
    expect(await stored(target)).toEqual([
      [0, 'item.added', 't'],
      [1, 'item.used', 'a'],
      [2, 'item.added', 'u'],
    ]);
    expect(await stored(decided)).toEqual([[0, 'item.added', 'a']]);
    // And the decided stream's state is unchanged by the ping.
    expect((await run(decided, { type: 'add', item: 'b' })).state).toEqual({ items: ['a', 'b'], used: 0 });
  });

  it('concurrent commands of this process on one stream: each appended once, in one order', async () => {
    const stream = newStream();
    await run(stream, { type: 'add', item: 'first' });
    const names = Array.from({ length: 8 }, (_, i) => `n${i}`);
    await Promise.all(names.map((item) => run(stream, { type: 'add', item })));
    const events = await store.readStream(stream);
    expect(events.map((e) => e.streamPosition)).toEqual(Array.from({ length: 9 }, (_, i) => i));
    expect(new Set(events.map((e) => e.data.item)).size).toBe(9);
    const last = await run(stream, { type: 'add', item: 'last' });
    expect(last.state.items).toHaveLength(10);
  });
});

describe('API keys and tenants: cached lookups invalidated through the log', () => {
  let t: TestApp;
  const listEvents = (app: TestApp, apiKey: string) => app.asTenant(apiKey, { method: 'GET', url: '/v1/events' });
  const prefixOf = (apiKey: string): string => apiKey.split('_').slice(0, 2).join('_');

  beforeAll(async () => {
    t = await startTestApp({ env: { SIM_TIME_SCALE: '0.001' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves requests from the cache, and refuses a revoked key at the next request', async () => {
    const tenant = await t.createTenant('Cached Keys Co');
    const keyReads = jest.spyOn(t.app.get(getRepositoryToken(ApiKeyEntity)), 'findOneBy');
    try {
      // The observer drops the cache when it sees the tenant's own creation events, which may land
      // between these requests under load: once it has, three requests read the key at most once.
      await eventually(async () => {
        keyReads.mockClear();
        for (let i = 0; i < 3; i++) expect((await listEvents(t, tenant.api_key)).statusCode).toBe(200);
        return keyReads.mock.calls.length <= 1;
      }, 10_000);
    } finally {
      keyReads.mockRestore();
    }
    const revoked = await t.admin({
      method: 'DELETE',
      url: `/admin/v1/tenants/${tenant.tenant_id}/api_keys/${prefixOf(tenant.api_key)}`,
    });
    expect(revoked.statusCode).toBe(200);
    expect((await listEvents(t, tenant.api_key)).statusCode).toBe(401);
  });

  it('requests that miss the same key together read it once, and a read that began before an invalidation is not joined', async () => {
    const tenant = await t.createTenant('Concurrent Misses Co');
    const lookups = t.app.get(TenantLookups);
    const keyReads = jest.spyOn(t.app.get(getRepositoryToken(ApiKeyEntity)), 'findOneBy');
    const tenantReads = jest.spyOn(t.app.get(getRepositoryToken(TenantEntity)), 'findOneBy');
    try {
      // Once the observer has settled the tenant's creation, 16 requests that all miss read each table about once
      // (an invalidation by the observer between them may add a read); without sharing it was 16 of each.
      await eventually(async () => {
        lookups.changed(tenant.tenant_id);
        keyReads.mockClear();
        tenantReads.mockClear();
        const answers = await Promise.all(Array.from({ length: 16 }, () => listEvents(t, tenant.api_key)));
        expect(answers.map((a) => a.statusCode)).toEqual(Array(16).fill(200));
        return keyReads.mock.calls.length <= 2 && tenantReads.mock.calls.length <= 2;
      }, 10_000);
      // An invalidation while a read is under way: the next miss reads anew instead of joining it.
      lookups.changed(tenant.tenant_id);
      keyReads.mockClear();
      const first = lookups.apiKey(prefixOf(tenant.api_key));
      lookups.changed(tenant.tenant_id);
      const second = lookups.apiKey(prefixOf(tenant.api_key));
      expect((await first)?.tenantId).toBe(tenant.tenant_id);
      expect((await second)?.tenantId).toBe(tenant.tenant_id);
      expect(keyReads.mock.calls.length).toBe(2);
    } finally {
      keyReads.mockRestore();
      tenantReads.mockRestore();
    }
    // An unknown key is refused however many ask for it at once.
    const unknown = await Promise.all(
      Array.from({ length: 4 }, () => listEvents(t, `${prefixOf(tenant.api_key)}x_not_a_key`)),
    );
    expect(unknown.map((a) => a.statusCode)).toEqual(Array(4).fill(401));
  });

  it('refuses a key whose revocation another instance appended, once the log observer has seen it', async () => {
    const tenant = await t.createTenant('Revoked Elsewhere Co');
    expect((await listEvents(t, tenant.api_key)).statusCode).toBe(200);
    const store = t.app.get<EventStore>(EVENT_STORE);
    const started = Date.now();
    await store.append(
      `tenant-${tenant.tenant_id}`,
      [
        {
          id: newEventId(),
          type: 'tenant.api_key_revoked',
          data: { key_prefix: prefixOf(tenant.api_key) },
          metadata: { tenant_id: tenant.tenant_id, created_at: new Date().toISOString() },
        },
      ],
      1,
    );
    await eventually(async () => (await listEvents(t, tenant.api_key)).statusCode === 401, 2 * LOOKUP_TTL_MS, 20);
    // Well before the cache's time bound (the key was cached just before): the observer saw the event.
    expect(Date.now() - started).toBeLessThan(LOOKUP_TTL_MS / 2);
  });

  it('places no call for a tenant suspended by another instance, once the observer has seen it', async () => {
    const tenant = await t.createTenant('Suspended Elsewhere Co');
    const call = () =>
      t.asTenant(tenant.api_key, {
        method: 'POST',
        url: '/v1/calls',
        payload: { to: '+14155550100', from: '+14155550000', test_mode: true, agent_config: { prompt: 'hi' } },
      });
    expect((await call()).statusCode).toBe(201);
    const started = Date.now();
    await t.app.get<EventStore>(EVENT_STORE).append(
      `tenant-${tenant.tenant_id}`,
      [
        {
          id: newEventId(),
          type: 'tenant.suspended',
          data: {},
          metadata: { tenant_id: tenant.tenant_id, created_at: new Date().toISOString() },
        },
      ],
      1,
    );
    await eventually(async () => (await call()).statusCode === 403, 2 * LOOKUP_TTL_MS, 20);
    expect(Date.now() - started).toBeLessThan(LOOKUP_TTL_MS / 2);
  });
});

describe('two app instances on one database', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    a = await startTestApp();
    b = await startTestApp({ database: a.db, adminToken: a.adminToken });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a key revoked through instance A is refused by instance B within the bound', async () => {
    // What B's log observer has seen of the tenant's stream, to know when B's lookups have settled.
    const seenByB = new Set<string>();
    const stopWatching = b.app
      .get(LogObserver)
      .observe(TENANT_EVENT_TYPES, (events) => events.forEach((e) => seenByB.add(e.id)));
    const tenant = await a.createTenant('Twin Keys Co');
    const listEvents = (app: TestApp) => app.asTenant(tenant.api_key, { method: 'GET', url: '/v1/events' });
    try {
      // B invalidates the tenant when its observer sees the tenant's events and again once B's read
      // models have applied them: wait for both, so the cache checked below is not dropped meanwhile.
      const created = await a.app.get<EventStore>(EVENT_STORE).readStream(`tenant-${tenant.tenant_id}`);
      await eventually(async () => created.every((e) => seenByB.has(e.id)));
      expect(await b.app.get(ProjectionsService).waitForProjections(created[created.length - 1]!.position)).toBe(true);
      // B's own wait for that position resolved with this one; its settling runs in the microtasks after.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      stopWatching();
    }
    await eventually(async () => (await listEvents(b)).statusCode === 200);
    // B's lookups are cached now: its next requests read neither table.
    const keyReads = jest.spyOn(b.app.get(getRepositoryToken(ApiKeyEntity)), 'findOneBy');
    const tenantReads = jest.spyOn(b.app.get(getRepositoryToken(TenantEntity)), 'findOneBy');
    try {
      expect((await listEvents(b)).statusCode).toBe(200);
      expect(keyReads).not.toHaveBeenCalled();
      expect(tenantReads).not.toHaveBeenCalled();
    } finally {
      keyReads.mockRestore();
      tenantReads.mockRestore();
    }
    const prefix = tenant.api_key.split('_').slice(0, 2).join('_');
    const revoked = await a.admin({
      method: 'DELETE',
      url: `/admin/v1/tenants/${tenant.tenant_id}/api_keys/${prefix}`,
    });
    expect(revoked.statusCode).toBe(200);
    const started = Date.now();
    expect((await listEvents(a)).statusCode).toBe(401);
    await eventually(async () => (await listEvents(b)).statusCode === 401, 2 * LOOKUP_TTL_MS, 20);
    expect(Date.now() - started).toBeLessThan(LOOKUP_TTL_MS / 2);
    // And it stays refused once the cache's bound has passed.
    await new Promise((r) => setTimeout(r, 200));
    expect((await listEvents(b)).statusCode).toBe(401);
  });

  it('commands through both instances on one stream: none lost, none doubled', async () => {
    const tenant = await a.createTenant('Twin Credits Co');
    const grant = (app: TestApp, cents: number) =>
      app.admin({
        method: 'POST',
        url: `/admin/v1/tenants/${tenant.tenant_id}/credits`,
        payload: { amount_cents: cents },
      });
    // Alternating instances: each one's cached revision is stale at every other command.
    for (let i = 1; i <= 6; i++) expect((await grant(i % 2 ? a : b, i)).statusCode).toBe(200);
    await Promise.all([grant(a, 100), grant(b, 200), grant(a, 300), grant(b, 400)]);
    const { rows } = await a.db.pool.query<{ stream_position: number; amount: number }>(
      `SELECT stream_position, (data->>'amount_cents')::int AS amount FROM events
        WHERE stream_id = $1 AND type = 'credits.granted' ORDER BY stream_position`,
      [`credits-${tenant.tenant_id}`],
    );
    expect(rows.map((r) => r.amount).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 100, 200, 300, 400]);
    const positions = rows.map((r) => r.stream_position);
    expect(new Set(positions).size).toBe(10);
    // And the balance is their sum: no grant decided on a stale balance.
    const credits = await b.asTenant(tenant.api_key, { method: 'GET', url: '/v1/credits' });
    expect(credits.json()).toMatchObject({ balance_cents: 1021 });
  });
});
