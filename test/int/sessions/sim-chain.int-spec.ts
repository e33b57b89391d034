/**
 * The simulator's chain of steps (session-timers.ts) on the whole application and a real database:
 * one claimed `sim.step` row plays a call's steps one after another; a graceful stop in the middle
 * moves the row to the next step, released, and the call resumes from there; a row left behind at
 * an earlier step (what a kill -9 leaves once its lease lapses) replays as no-ops; and a session's
 * watchdog lives exactly as long as the session is not ended.
 */
import { randomUUID } from 'node:crypto';
import { TimersService } from '../../../src/runtime/timers/timers.service';
import { simStepTimer, TIMER, watchdogKey } from '../../../src/sessions/application/session-reactor.processor';
import { scriptFor, TEST_NUMBERS } from '../../../src/sessions/domain/test-pool.scenarios';
import { CreatedTenant, startTestApp, TestApp } from '../../support/app';
import { eventually } from '../../support/eventually';

jest.setTimeout(60_000);

const SCALE = 0.02;
const TO = TEST_NUMBERS.completed;
const STEPS = scriptFor(TO).length;
const ALL_SEQS = Array.from({ length: STEPS }, (_, i) => i + 1);

interface TimerRow {
  kind: string;
  dedupe_key: string | null;
  due_at: Date;
  payload: Record<string, unknown>;
  attempts: number;
  locked_until: Date | null;
}

describe('simulated calls: one claimed timer row plays the steps', () => {
  let t: TestApp;
  let tenant: CreatedTenant;

  beforeAll(async () => {
    t = await startTestApp({ env: { SIM_TIME_SCALE: String(SCALE) } });
    tenant = await t.createTenant('Chained Calls');
  });
  afterAll(async () => {
    await t?.close();
  });

  const place = async (): Promise<string> => {
    const res = await t.asTenant(tenant.api_key, {
      method: 'POST',
      url: '/v1/calls',
      payload: { to: TO, from: '+14155550199', agent_config: { prompt: 'Hi' }, test_mode: true },
    });
    expect(res.statusCode).toBe(201);
    return res.json<{ session_id: string }>().session_id;
  };
  /** The seq of every session.signal_applied of the session, in commit order (duplicates kept). */
  const appliedSeqs = async (sessionId: string): Promise<number[]> => {
    const { rows } = await t.db.pool.query<{ seq: number }>(
      `SELECT (data->>'seq')::int AS seq FROM events WHERE stream_id = $1 AND type = 'session.signal_applied'
       ORDER BY stream_position`,
      [`session-${sessionId}`],
    );
    return rows.map((r) => r.seq);
  };
  const eventTypes = async (sessionId: string): Promise<string[]> => {
    const { rows } = await t.db.pool.query<{ type: string }>(
      `SELECT type FROM events WHERE stream_id = $1 ORDER BY stream_position`,
      [`session-${sessionId}`],
    );
    return rows.map((r) => r.type);
  };
  const timersOf = async (sessionId: string): Promise<TimerRow[]> =>
    (
      await t.db.pool.query<TimerRow>(
        `SELECT kind, dedupe_key, due_at, payload, attempts, locked_until FROM timers
         WHERE payload->>'session_id' = $1 ORDER BY kind`,
        [sessionId],
      )
    ).rows;
  const recorded = (sessionId: string) =>
    eventually(async () => {
      expect(await eventTypes(sessionId)).toContain('session.recording_completed');
      return true;
    }, 20_000);
  /** The catalog events of the call, each once, in order; every step applied once. */
  const expectPlayedOnce = async (sessionId: string): Promise<void> => {
    expect(await appliedSeqs(sessionId)).toEqual(ALL_SEQS);
    const catalog = (await eventTypes(sessionId)).filter(
      (type) => !['session.placed', 'session.signal_applied', 'session.transcript_appended'].includes(type),
    );
    expect(catalog).toEqual([
      'session.created',
      'session.started',
      'session.function_invoked',
      'session.ended',
      'session.recording_completed',
    ]);
  };

  it('plays a whole call, each step once, and leaves no timer behind (the watchdog is cancelled as it ends)', async () => {
    const sessionId = await place();
    await eventually(async () => {
      expect((await timersOf(sessionId)).map((r) => r.dedupe_key)).toContain(watchdogKey(sessionId));
      return true;
    }, 10_000);
    await recorded(sessionId);
    await expectPlayedOnce(sessionId);
    await eventually(async () => {
      expect(await timersOf(sessionId)).toEqual([]);
      return true;
    }, 10_000);
  });

  it('a stop in the middle moves the row to the next step, released at once; the call then resumes from there', async () => {
    const timers = t.app.get(TimersService);
    const sessionId = await place();
    await eventually(async () => {
      expect((await appliedSeqs(sessionId)).length).toBeGreaterThanOrEqual(3);
      return true;
    }, 10_000);
    const started = Date.now();
    await timers.stop();
    expect(Date.now() - started).toBeLessThan(2_000);

    const applied = await appliedSeqs(sessionId);
    expect(applied.length).toBeLessThan(STEPS);
    expect(applied).toEqual(ALL_SEQS.slice(0, applied.length));
    const rows = await timersOf(sessionId);
    const sim = rows.find((r) => r.kind === TIMER.simStep.name);
    // The step after the last one played, not locked: nothing waits for a lease.
    expect(sim).toMatchObject({ payload: { seq: applied.length + 1 }, locked_until: null, attempts: 0 });
    // Still not ended: its watchdog is there.
    expect(rows.find((r) => r.kind === TIMER.watchdog.name)).toMatchObject({ dedupe_key: watchdogKey(sessionId) });

    timers.start();
    await recorded(sessionId);
    await expectPlayedOnce(sessionId);
    await eventually(async () => {
      expect(await timersOf(sessionId)).toEqual([]);
      return true;
    }, 10_000);
  });

  it('a row left at an earlier step with its lease lapsed (a kill -9 mid-chain) replays the steps as no-ops', async () => {
    const sessionId = await place();
    await recorded(sessionId);
    const before = await eventTypes(sessionId);
    const { rows } = await t.db.pool.query<{ created_at: string }>(
      `SELECT metadata->>'created_at' AS created_at FROM events WHERE stream_id = $1 AND type = 'session.placed'`,
      [`session-${sessionId}`],
    );
    // The row as the chain claimed it: at its first step, locked under a lease that has lapsed.
    const row = simStepTimer({
      tenantId: tenant.tenant_id,
      sessionId,
      to: TO,
      base: Date.parse(rows[0]!.created_at),
      seq: 1,
      scale: SCALE,
    })!;
    await t.db.pool.query(
      `INSERT INTO timers (timer_id, kind, dedupe_key, due_at, payload, attempts, locked_until)
       VALUES ($1, $2, $3, $4, $5, 1, now() - interval '1 second')`,
      [randomUUID(), row.kind, row.dedupeKey, row.dueAt, JSON.stringify(row.payload)],
    );
    t.app.get(TimersService).poke();
    await eventually(async () => {
      expect(await timersOf(sessionId)).toEqual([]);
      return true;
    }, 10_000);
    expect(await eventTypes(sessionId)).toEqual(before);
    await expectPlayedOnce(sessionId);
  });
});
