import { EventEmitter } from 'node:events';
import { type PartialsPool, type PartialTranscript, PARTIALS_EVERY_MS, SessionPartials } from './session-partials';

/** A pg Pool stand-in: whether another process listens, the NOTIFYs sent, one LISTEN client. */
function fakePool(othersListen: boolean) {
  const notified: { channel: string; payload: string }[] = [];
  const seen: { queries: string[]; released: Error | boolean | null } = { queries: [], released: null };
  const client = Object.assign(new EventEmitter(), {
    query: (sql: string) => {
      seen.queries.push(sql);
      return Promise.resolve({ rows: [] });
    },
    release: (err?: Error | boolean) => {
      seen.released = err ?? false;
    },
  });
  const pool: PartialsPool = {
    query: (sql: string, params: unknown[]) => {
      if (sql.includes('pg_stat_activity')) return Promise.resolve({ rows: [{ found: othersListen }] });
      notified.push({ channel: params[0] as string, payload: params[1] as string });
      return Promise.resolve({ rows: [] });
    },
    connect: () => Promise.resolve(client),
  };
  return { pool, client, seen, notified };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('SessionPartials', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick'] }));
  afterEach(() => jest.useRealTimers());

  it('tells the first partial at once, then the newest of each 100 ms window, per session', async () => {
    const { pool } = fakePool(false);
    const partials = new SessionPartials(pool);
    const heard: PartialTranscript[] = [];
    const other: PartialTranscript[] = [];
    partials.subscribe('ses_1', (p) => heard.push(p));
    partials.subscribe('ses_2', (p) => other.push(p));
    for (const content of ['Hel', 'Hello', 'Hello the', 'Hello there']) partials.publish('ses_1', { content, t: 1.5 });
    partials.publish('ses_2', { content: 'Yes', t: 0.2 });
    expect(heard).toEqual([{ content: 'Hel', t: 1.5 }]);
    expect(other).toEqual([{ content: 'Yes', t: 0.2 }]);
    jest.advanceTimersByTime(PARTIALS_EVERY_MS);
    expect(heard.map((p) => p.content)).toEqual(['Hel', 'Hello there']);
    jest.advanceTimersByTime(PARTIALS_EVERY_MS * 3);
    expect(heard).toHaveLength(2);
    // A quiet window ended the throttle: the next partial goes at once.
    partials.publish('ses_1', { content: 'And', t: 3 });
    expect(heard.at(-1)).toEqual({ content: 'And', t: 3 });
    partials.beforeApplicationShutdown();
  });

  it('sends a NOTIFY only while another process listens; hears other instances, not its own echo', async () => {
    const alone = fakePool(false);
    const quiet = new SessionPartials(alone.pool);
    quiet.publish('ses_1', { content: 'Hi', t: 1 });
    await flush();
    expect(alone.notified).toEqual([]);
    quiet.beforeApplicationShutdown();

    const shared = fakePool(true);
    const partials = new SessionPartials(shared.pool);
    const heard: PartialTranscript[] = [];
    const off = partials.subscribe('ses_1', (p) => heard.push(p));
    await flush();
    expect(shared.seen.queries).toEqual(['LISTEN session_partials']);
    partials.publish('ses_1', { content: 'Hi', t: 1 });
    await flush();
    await flush();
    expect(shared.notified).toHaveLength(1);
    const sent = shared.notified[0]!;
    expect(sent.channel).toBe('session_partials');
    expect(JSON.parse(sent.payload)).toMatchObject({ session_id: 'ses_1', content: 'Hi', t: 1 });
    expect(heard).toEqual([{ content: 'Hi', t: 1 }]);
    // Its own NOTIFY back: told already. Another instance's: told here.
    shared.client.emit('notification', { channel: 'session_partials', payload: sent.payload });
    const theirs = JSON.stringify({ from: 'another', session_id: 'ses_1', content: 'Hi there', t: 1 });
    shared.client.emit('notification', { channel: 'session_partials', payload: theirs });
    shared.client.emit('notification', { channel: 'session_partials', payload: 'not json' });
    expect(heard).toEqual([
      { content: 'Hi', t: 1 },
      { content: 'Hi there', t: 1 },
    ]);
    // The last live view gone: the LISTEN connection is closed a little later.
    off();
    expect(shared.seen.released).toBeNull();
    jest.advanceTimersByTime(5_000);
    expect(shared.seen.released).toBe(true);
    partials.beforeApplicationShutdown();
  });

  it('cuts a NOTIFY payload to fit under 8000 bytes', async () => {
    const shared = fakePool(true);
    const partials = new SessionPartials(shared.pool);
    partials.publish('ses_1', { content: 'é'.repeat(5000), t: 2 });
    await flush();
    await flush();
    const payload = shared.notified[0]!.payload;
    expect(Buffer.byteLength(payload)).toBeLessThan(8000);
    expect((JSON.parse(payload) as { content: string }).content).toMatch(/^é+$/);
    partials.beforeApplicationShutdown();
  });
});
