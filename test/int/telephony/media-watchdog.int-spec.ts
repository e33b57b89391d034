/**
 * The media watchdog: a media process that dies (kill -9) while holding calls has each of them handed
 * over exactly once, by one of two sweepers racing (two instances), and their slots freed; a live
 * holder's calls are left alone, also past the lease (its heartbeat renews it). The media process is
 * simulated at the budget level: a child process that takes slots through the built CarrierBudget and
 * heartbeats. A process frozen past its lease learns at its next heartbeat which calls it lost. Then,
 * through the whole app: a real session whose slot's holder is dead ends `failed`
 * with `media_lost`, once. Needs `npm run build` (the child loads dist/).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Pool } from 'pg';
import { CommandBus } from '@nestjs/cqrs';
import { RoomAction } from '../../../src/rooms/application/room.commands';
import { CarrierBudget } from '../../../src/telephony/index';
import { MediaWatchdog, type LostCall } from '../../../src/telephony/application/media-watchdog';
import { CreatedTenant, startTestApp, TestApp } from '../../support/app';
import { createTestDatabase, type TestDatabase } from '../../support/database';
import { eventually } from '../../support/eventually';
import { REPO_ROOT } from '../../support/process';

jest.setTimeout(90_000);

const LEASE_MS = 3000;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A stand-in media process: takes the given outbound calls' slots as holder `media-a`, tracks an
 * inbound call `ses_a_in`, heartbeats, prints ready.
 */
function startMediaHolder(url: string, sessionIds: string[]): { child: ChildProcess; ready: Promise<void> } {
  const script = `
    const { Pool } = require('pg');
    const { CarrierBudget } = require(${JSON.stringify(join(REPO_ROOT, 'dist', 'telephony', 'infra', 'carrier-budget.js'))});
    (async () => {
      const pool = new Pool({ connectionString: process.env.DB_URL, max: 2 });
      const budget = new CarrierBudget(pool, { cps: 1000, maxCalls: 1000, leaseMs: ${LEASE_MS}, holder: 'media-a' });
      budget.start();
      for (const id of ${JSON.stringify(sessionIds)}) {
        const answer = await budget.acquire({ sessionId: id, tenantId: 'ten_a' });
        if (!answer.granted) throw new Error('not granted: ' + id);
      }
      await budget.admitInbound({ sessionId: 'ses_a_in', tenantId: 'ten_a' }); // an inbound call it answered
      process.stdout.write('ready\\n');
      setInterval(() => undefined, 1000);
    })().catch((e) => { process.stderr.write(String(e)); process.exit(1); });`;
  const child = spawn(process.execPath, ['-e', script], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', DB_URL: url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    child.on('exit', (code) => reject(new Error(`media holder exited ${String(code)}: ${stderr}`)));
  });
  return { child, ready };
}

describe('the media watchdog after kill -9 of a media process (budget level)', () => {
  let db: TestDatabase;
  let secondPool: Pool;
  let child: ChildProcess | null = null;

  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 8 });
    secondPool = new Pool({ connectionString: db.url, max: 8 });
  });
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await secondPool.end();
    await db.drop();
  });

  it('hands each call (outbound and inbound) of the dead holder over once, frees its slots, and leaves a live holder alone', async () => {
    const calls = ['ses_a1', 'ses_a2', 'ses_a3', 'ses_a4', 'ses_a5'];
    const holder = startMediaHolder(db.url, calls);
    child = holder.child;
    await holder.ready;
    // This process is a live media process too, with a call of its own.
    const live = new CarrierBudget(db.pool, { cps: 1000, maxCalls: 1000, leaseMs: LEASE_MS, holder: 'media-b' });
    live.start();
    expect(await live.acquire({ sessionId: 'ses_b1', tenantId: 'ten_b' })).toEqual({ granted: true });

    const lost: LostCall[] = [];
    const onLost = async (call: LostCall) => {
      lost.push(call);
      await wait(20); // a session command's time: the other sweeper must skip the locked rows meanwhile
    };
    const sweepers = [db.pool, secondPool].map(
      (pool) => new MediaWatchdog(pool, { leaseMs: LEASE_MS, onLost, batch: 2 }),
    );
    const sweepAll = () => Promise.all(sweepers.map((s) => s.sweep()));
    try {
      // Past a whole lease, both holders alive: nothing is lost.
      const until = Date.now() + LEASE_MS + 1000;
      while (Date.now() < until) {
        await sweepAll();
        await wait(200);
      }
      expect(lost).toEqual([]);

      child.kill('SIGKILL');
      const killedAt = Date.now();
      await eventually(
        async () => {
          await sweepAll();
          return lost.length >= calls.length + 1;
        },
        30_000,
        100,
      );
      // Not at once: only once the lease ran out (the last heartbeat was about a third of it before the
      // kill, so about two thirds after it; the bound leaves slack for a late heartbeat on a busy machine).
      expect(Date.now() - killedAt).toBeGreaterThanOrEqual(LEASE_MS / 3);
      for (let i = 0; i < 5; i++) await sweepAll();
      expect(lost.map((c) => c.sessionId).sort()).toEqual([...calls, 'ses_a_in'].sort());
      expect(new Set(lost.map((c) => c.holder))).toEqual(new Set(['media-a']));
      expect(lost.every((c) => c.tenantId === 'ten_a')).toBe(true);
      const { rows } = await db.pool.query<{ session_id: string }>('SELECT session_id FROM sip_call_slots');
      expect(rows.map((r) => r.session_id)).toEqual(['ses_b1']);
      expect(await live.checkHolding()).toEqual([]);
    } finally {
      await live.stop();
    }
  });
});

describe('a media process that was frozen past its lease', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 4 });
  });
  afterAll(async () => {
    await db.drop();
  });

  it('learns at its next heartbeat which of its calls the watchdog ended, once each, not the released ones', async () => {
    const budget = new CarrierBudget(db.pool, { cps: 100, maxCalls: 100, leaseMs: LEASE_MS, holder: 'media-f' });
    const lostHere: string[] = [];
    budget.onSlotLost((id) => lostHere.push(id));
    for (const id of ['f1', 'f2', 'f3']) await budget.acquire({ sessionId: id, tenantId: 't' });
    await budget.admitInbound({ sessionId: 'f_in', tenantId: 't' });
    // Frozen: the lease runs out (made old here), the watchdog ends its calls; one was released before.
    await budget.release('f3');
    await db.pool.query(`UPDATE sip_media_holders SET heartbeat_at = now() - interval '1 minute'`);
    const handed: string[] = [];
    const watchdog = new MediaWatchdog(db.pool, {
      leaseMs: LEASE_MS,
      onLost: async (c) => void handed.push(c.sessionId),
    });
    expect(await watchdog.sweep()).toBe(3);
    expect(handed.sort()).toEqual(['f1', 'f2', 'f_in']);
    // Back: its heartbeat finds them gone.
    budget.start();
    await eventually(() => lostHere.length === 3, 10_000);
    await budget.stop();
    expect(lostHere.sort()).toEqual(['f1', 'f2', 'f_in']);
    expect(await budget.checkHolding()).toEqual([]);
  });
});

describe('the media watchdog in the app', () => {
  let app: TestApp;
  let tenant: CreatedTenant;

  beforeAll(async () => {
    app = await startTestApp({
      env: { SIM_TIME_SCALE: '0.01', SIP_MEDIA_PROCESS: 'external', SIP_MEDIA_LEASE: '3s' },
    });
    tenant = await app.createTenant();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('ends a session whose media process died as failed (media_lost), once, and frees its slot', async () => {
    const made = await app.asTenant(tenant.api_key, {
      method: 'POST',
      url: '/v1/rooms',
      payload: { agent_config: { prompt: 'Talk.' } },
    });
    expect(made.statusCode).toBe(201);
    const roomId = made.json<{ room_id: string }>().room_id;
    await app.app.get(CommandBus).execute(new RoomAction(tenant.tenant_id, roomId, { type: 'join' }));
    const sessionId = await eventually(async () => {
      const room = await app.asTenant(tenant.api_key, { method: 'GET', url: `/v1/rooms/${roomId}` });
      const id = room.json<{ session_id: string | null }>().session_id;
      if (!id) return false;
      const s = await app.asTenant(tenant.api_key, { method: 'GET', url: `/v1/sessions/${id}` });
      return s.statusCode === 200 && s.json<{ status: string }>().status === 'in_progress' ? id : false;
    }, 30_000);
    // The call's slot, held by a media process whose last heartbeat is a minute old.
    await app.db.pool.query(
      `INSERT INTO sip_media_holders (holder, heartbeat_at) VALUES ('media-dead', now() - interval '1 minute')`,
    );
    await app.db.pool.query(
      `INSERT INTO sip_call_slots (session_id, tenant_id, holder, started_at, direction) VALUES ($1, $2, 'media-dead', now(), 'inbound')`,
      [sessionId, tenant.tenant_id],
    );
    const ended = await eventually(async () => {
      const s = await app.asTenant(tenant.api_key, { method: 'GET', url: `/v1/sessions/${sessionId}` });
      const body = s.json<{ status: string; end_reason: string | null }>();
      return body.status === 'failed' ? body : false;
    }, 30_000);
    expect(ended.end_reason).toBe('media_lost');
    expect((await app.db.pool.query('SELECT 1 FROM sip_call_slots')).rowCount).toBe(0);
    // One terminal event, also after more sweeps than it takes (the lease is 3 s: a sweep each second).
    await new Promise((r) => setTimeout(r, 2500));
    const events = await app.db.pool.query<{ type: string }>(
      `SELECT type FROM events WHERE stream_id LIKE $1 AND type IN ('session.ended', 'session.failed')`,
      [`%${sessionId}%`],
    );
    expect(events.rows.map((r) => r.type)).toEqual(['session.failed']);
  });
});
