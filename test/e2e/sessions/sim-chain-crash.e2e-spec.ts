/**
 * The simulator's chain across a kill -9: the real service (node dist/main.js, SIM_TIME_SCALE=0.05)
 * plays each test call under one claimed `sim.step` row, waiting in memory between steps. Killed
 * with SIGKILL mid-call, it leaves each row at the step it was claimed with, locked under its lease;
 * restarted on the same database, the rows run again once the lease lapses and replay from that
 * step. Every step must be applied exactly once (no duplicate session.signal_applied seq), every
 * catalog event stored and delivered once per id, and no timer left once the calls are over.
 */
import { scriptFor } from '../../../src/sessions/domain/test-pool.scenarios';
import { CallsService, placeCall, SessionBody, startCallsService, stopCallsSuite } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import {
  createEndpoint,
  createTenant,
  envelopeOf,
  Receiver,
  startReceiver,
  TenantInfo,
} from '../../support/webhooks-harness';

jest.setTimeout(180_000);

const NUMBERS = ['+14155550100', '+14155550105', '+14155550109'];
const CALLS = 6;

let h: CallsService;
let receiver: Receiver;
let tenant: TenantInfo;
const accepted: SessionBody[] = [];

async function appliedSeqs(): Promise<Map<string, number[]>> {
  const { rows } = await h.db.pool.query<{ stream_id: string; seq: number }>(
    `SELECT stream_id, (data->>'seq')::int AS seq FROM events WHERE type = 'session.signal_applied'
     ORDER BY stream_id, stream_position`,
  );
  const out = new Map<string, number[]>();
  for (const r of rows) {
    const id = r.stream_id.slice('session-'.length);
    out.set(id, [...(out.get(id) ?? []), r.seq]);
  }
  return out;
}

beforeAll(async () => {
  receiver = await startReceiver();
  h = await startCallsService({ SIM_TIME_SCALE: '0.05', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  tenant = await createTenant(h.call, h.svc.adminToken, 'Chain Crash Co');
  await createEndpoint(h.call, tenant.api_key, { url: receiver.url });
});

afterAll(() => stopCallsSuite(h));

describe('simulated calls across a kill -9 in the middle of their chains', () => {
  it('dies mid-call, leaving each call row at the step its chain was claimed with, under its lease', async () => {
    const bodies = await Promise.all(
      Array.from({ length: CALLS }, (_, i) =>
        placeCall(h.call, tenant.api_key, NUMBERS[i % NUMBERS.length]!, { testMode: true }),
      ),
    );
    accepted.push(...bodies);
    // Every call answered and talking (at least two steps played), none hung up yet.
    await eventually(
      async () => {
        const seqs = await appliedSeqs();
        if (!accepted.every((b) => (seqs.get(b.session_id)?.length ?? 0) >= 2)) throw new Error('not all talking');
        return true;
      },
      20_000,
      10,
    );
    h.svc.kill('SIGKILL');
    expect((await h.svc.waitForExit(10_000)).signal).toBe('SIGKILL');

    const seqs = await appliedSeqs();
    const { rows } = await h.db.pool.query<{ sid: string; seq: number; locked: boolean }>(
      `SELECT payload->>'session_id' AS sid, (payload->>'seq')::int AS seq, coalesce(locked_until > now(), false) AS locked
       FROM timers WHERE kind = 'sim.step'`,
    );
    const rowOf = new Map(rows.map((r) => [r.sid, r]));
    for (const b of accepted) {
      const applied = seqs.get(b.session_id)!;
      expect(applied.length).toBeLessThan(scriptFor(b.to_number!).length);
      const row = rowOf.get(b.session_id);
      expect(row).toBeDefined();
      // One row per call: claimed, it is still at the step its chain started from (the steps after it
      // were played in memory); released, the chain had stopped before a step far away and moved it there.
      if (row!.locked) expect(row!.seq).toBeLessThanOrEqual(applied.length + 1);
      else expect(row!.seq).toBe(applied.length + 1);
    }
    // At least one call was killed mid-chain and will replay steps already played.
    expect(
      accepted.some(
        (b) => rowOf.get(b.session_id)!.locked && rowOf.get(b.session_id)!.seq < seqs.get(b.session_id)!.length,
      ),
    ).toBe(true);
  });

  it('after a restart, the chains replay from their rows once the lease lapses: every step applied once', async () => {
    await h.restart();
    await eventually(
      async () => {
        const { rows } = await h.db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM events WHERE type = 'session.recording_completed'`,
        );
        if (rows[0]!.n < CALLS) throw new Error(`${rows[0]!.n} of ${CALLS} calls recorded\n${h.diagnostics()}`);
        return true;
      },
      120_000,
      250,
    );
    const seqs = await appliedSeqs();
    for (const b of accepted) {
      const steps = scriptFor(b.to_number!).length;
      expect({ session: b.session_id, seqs: seqs.get(b.session_id) }).toEqual({
        session: b.session_id,
        seqs: Array.from({ length: steps }, (_, i) => i + 1),
      });
    }
    // No catalog event twice in the store.
    const { rows: twice } = await h.db.pool.query(
      `SELECT stream_id, type, count(*)::int AS n FROM events
       WHERE type IN ('session.created', 'session.started', 'session.transfer_initiated', 'session.ended',
                      'session.recording_completed')
       GROUP BY 1, 2 HAVING count(*) > 1`,
    );
    expect(twice).toEqual([]);
  });

  it('the receiver gets each event once per id, and no timer is left (sim rows done, watchdogs cancelled)', async () => {
    const { rows: events } = await h.db.pool.query<{ id: string; type: string }>(
      `SELECT event_id::text AS id, type FROM events WHERE type IN ('session.created', 'session.started',
         'session.transfer_initiated', 'session.ended', 'session.recording_completed')`,
    );
    await eventually(
      () => {
        const got = new Set(receiver.requests.map((r) => envelopeOf(r).id));
        const missing = events.filter((e) => !got.has(e.id));
        if (missing.length > 0) throw new Error(`${missing.length} events not delivered yet`);
        return true;
      },
      60_000,
      250,
    );
    // Per session and type, one event id (a delivery interrupted by the kill may repeat that id).
    const ids = new Map<string, Set<string>>();
    for (const env of receiver.requests.map(envelopeOf)) {
      const key = `${String(env.data.session_id)} ${env.type}`;
      ids.set(key, (ids.get(key) ?? new Set()).add(env.id));
    }
    for (const [key, set] of ids) expect({ key, ids: set.size }).toEqual({ key, ids: 1 });
    await eventually(
      async () => {
        const { rows } = await h.db.pool.query<{ kind: string }>(`SELECT kind FROM timers`);
        expect(rows).toEqual([]);
        return true;
      },
      20_000,
      250,
    );
  });
});
