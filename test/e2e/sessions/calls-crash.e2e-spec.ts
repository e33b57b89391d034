/**
 * Calls survive a crash: the real service (node dist/main.js, SIM_TIME_SCALE=0.05) places 30 test calls,
 * is killed with SIGKILL while they are mid-flight, and is restarted on the same DATABASE_URL and
 * DATA_DIR. Every accepted session must end with exactly one terminal event (session.ended or
 * session.failed) and one session.created, its script must resume to the documented sequence with no
 * duplicates, and the webhook receiver must get those events.
 */
import { eventCatalog } from '../../../src/app.module';
import { verifyWebhook } from '../../../src/kernel/signing/verify-webhook';
import {
  allEvents,
  CallsService,
  placeCall,
  SessionBody,
  sessionEvents,
  startCallsService,
  TERMINAL_TYPES,
  stopCallsSuite,
} from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import {
  createEndpoint,
  CreatedEndpoint,
  createTenant,
  envelopeOf,
  header,
  Receiver,
  startReceiver,
  TenantInfo,
} from '../../support/webhooks-harness';

const { validatePayload } = eventCatalog;

jest.setTimeout(240_000);

const ANSWERED = ['session.created', 'session.started'];
const RECORDED = ['session.ended', 'session.recording_completed'];
const FAILED = ['session.created', 'session.failed'];
const EXPECTED: Record<string, string[]> = {
  '+14155550100': [...ANSWERED, ...RECORDED],
  '+14155550101': FAILED,
  '+14155550102': FAILED,
  '+14155550103': FAILED,
  '+14155550104': FAILED,
  '+14155550105': [...ANSWERED, 'session.transfer_initiated', ...RECORDED],
  '+14155550106': [
    ...ANSWERED,
    'session.opt_out_detected',
    ...RECORDED,
    'session.opt_out_recording_pending_purge',
    'session.opt_out_recording_purged',
  ],
  '+14155550107': [...ANSWERED, 'session.consent_refused', 'session.ended'],
  '+14155550108': [...ANSWERED, 'function.timeout', ...RECORDED],
  '+14155550109': [...ANSWERED, ...RECORDED],
};
const NUMBERS = Object.keys(EXPECTED);
const CALLS = 30;

let h: CallsService;
let receiver: Receiver;
let tenant: TenantInfo;
let endpoint: CreatedEndpoint;
const accepted: SessionBody[] = [];

interface Counts {
  created: number;
  started: number;
  terminal: number;
}

/** Per session id: session.created and terminal events in the event store itself. */
async function storeCounts(): Promise<Map<string, Counts>> {
  const { rows } = await h.db.pool.query<{ sid: string; type: string; n: number }>(
    `SELECT data->>'session_id' AS sid, type, count(*)::int AS n FROM events
     WHERE type IN ('session.created', 'session.started', 'session.ended', 'session.failed') GROUP BY 1, 2`,
  );
  const out = new Map<string, Counts>();
  for (const r of rows) {
    const c = out.get(r.sid) ?? { created: 0, started: 0, terminal: 0 };
    if (r.type === 'session.created') c.created += r.n;
    else if (r.type === 'session.started') c.started += r.n;
    else c.terminal += r.n;
    out.set(r.sid, c);
  }
  return out;
}

beforeAll(async () => {
  receiver = await startReceiver();
  h = await startCallsService({
    SIM_TIME_SCALE: '0.05',
    RECORDING_PURGE_GRACE: '1s',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_TIMEOUT_MS: '2000',
  });
  tenant = await createTenant(h.call, h.svc.adminToken, 'Crash Calls Co');
  endpoint = await createEndpoint(h.call, tenant.api_key, { url: receiver.url });
});

afterAll(() => stopCallsSuite(h));

describe('calls across a kill -9 of the service', () => {
  it('accepts 30 test calls and dies on SIGKILL while they are mid-flight', async () => {
    const bodies = await Promise.all(
      Array.from({ length: CALLS }, (_, i) =>
        placeCall(h.call, tenant.api_key, NUMBERS[i % NUMBERS.length]!, { testMode: true }),
      ),
    );
    accepted.push(...bodies);
    for (const b of bodies) expect(b.status).toBe('queued');
    expect(new Set(bodies.map((b) => b.session_id)).size).toBe(CALLS);

    // Mid-flight: some calls have finished (the short failures), some are mid-conversation.
    await eventually(
      async () => {
        const counts = [...(await storeCounts()).values()];
        return (
          counts.filter((c) => c.terminal > 0).length >= 3 &&
          counts.filter((c) => c.started > 0 && c.terminal === 0).length >= 3
        );
      },
      20_000,
      10,
    );
    h.svc.kill('SIGKILL');
    const exit = await h.svc.waitForExit(10_000);
    expect(exit.signal).toBe('SIGKILL');

    const counts = await storeCounts();
    const finished = accepted.filter((b) => (counts.get(b.session_id)?.terminal ?? 0) > 0).length;
    expect(finished).toBeGreaterThan(0);
    expect(finished).toBeLessThan(CALLS);
    expect(
      accepted.some((b) => counts.get(b.session_id)!.started === 1 && counts.get(b.session_id)!.terminal === 0),
    ).toBe(true);
    // Every accepted call had committed its session.created before the 201.
    for (const b of accepted) expect(counts.get(b.session_id)?.created).toBe(1);
  });

  it('after a restart on the same database and DATA_DIR, every accepted session ends exactly once', async () => {
    await h.restart();
    await eventually(
      async () => {
        const counts = await storeCounts();
        const pending = accepted.filter((b) => (counts.get(b.session_id)?.terminal ?? 0) === 0);
        if (pending.length > 0) {
          const { rows } = await h.db.pool.query<{
            kind: string;
            n: number;
            errors: string | null;
            locked: Date | null;
          }>(
            `SELECT kind, count(*)::int AS n, max(last_error) AS errors, max(locked_until) AS locked FROM timers GROUP BY kind`,
          );
          throw new Error(
            `${pending.length} sessions without a terminal event yet; timers: ${JSON.stringify(rows)}\n${h.diagnostics()}`,
          );
        }
        return true;
      },
      150_000,
      250,
    );
    const counts = await storeCounts();
    for (const b of accepted) {
      const { created, terminal } = counts.get(b.session_id)!;
      expect({ session: b.session_id, created, terminal }).toEqual({ session: b.session_id, created: 1, terminal: 1 });
    }
  });

  it('resumes every script to its documented catalog sequence, with no duplicate event', async () => {
    await eventually(
      async () => {
        for (const b of accepted) {
          const types = (await sessionEvents(h.call, tenant.api_key, b.session_id)).map((e) => e.type);
          expect({ to: b.to_number, id: b.session_id, types }).toEqual({
            to: b.to_number,
            id: b.session_id,
            types: EXPECTED[b.to_number!],
          });
        }
        return true;
      },
      90_000,
      500,
    );
    // The stored history (not only the read model) holds each catalog event once.
    const { rows } = await h.db.pool.query<{ sid: string; type: string; n: number }>(
      `SELECT data->>'session_id' AS sid, type, count(*)::int AS n FROM events
       WHERE type LIKE 'session.%' AND type NOT IN ('session.placed', 'session.signal_applied', 'session.transcript_appended', 'session.function_invoked', 'session.agent_disposition_given')
       GROUP BY 1, 2 HAVING count(*) > 1`,
    );
    expect(rows).toEqual([]);
  });

  it('the opted-out number is on the do-not-call list once, from an opt-out', async () => {
    const res = await h.call('GET', '/v1/dnc', { token: tenant.api_key });
    const rows = (res.body.data as { phone_number: string; source: string; session_id: string }[]).filter(
      (r) => r.phone_number === '+14155550106',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.source).toBe('opt_out');
    expect(accepted.map((b) => b.session_id)).toContain(rows[0]!.session_id);
  });

  it('GET /v1/events agrees: one session.created and one terminal event per session, valid payloads', async () => {
    const all = await allEvents(h.call, tenant.api_key);
    const ids = new Set(accepted.map((b) => b.session_id));
    for (const b of accepted) {
      const mine = all.filter((e) => e.data.session_id === b.session_id);
      expect(mine.filter((e) => e.type === 'session.created')).toHaveLength(1);
      expect(mine.filter((e) => TERMINAL_TYPES.has(e.type))).toHaveLength(1);
    }
    for (const e of all) {
      if (typeof e.data.session_id === 'string') expect(ids.has(e.data.session_id)).toBe(true);
      expect({ type: e.type, errors: validatePayload(e.type, e.data) }).toEqual({ type: e.type, errors: [] });
    }
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
  });

  it('the receiver got every event of every session, each signed and verifiable (redeliveries keep their id)', async () => {
    const all = await allEvents(h.call, tenant.api_key);
    const expected = new Map(all.map((e) => [e.id, e]));
    await eventually(
      () => {
        const got = new Set(receiver.requests.map((r) => header(r.headers, 'x-webhook-id')));
        const missing = [...expected.keys()].filter((id) => !got.has(id));
        if (missing.length > 0)
          throw new Error(`${missing.length} events not delivered yet, e.g. ${expected.get(missing[0]!)!.type}`);
        return true;
      },
      90_000,
      250,
    );
    for (const req of receiver.requests) {
      expect(verifyWebhook({ secret: endpoint.secret, headers: req.headers, rawBody: req.rawBody }).ok).toBe(true);
      const envelope = envelopeOf(req);
      // A delivery interrupted by the kill may be sent again, always with the same id and body.
      expect(expected.get(envelope.id)).toEqual(envelope);
    }
    for (const b of accepted) {
      const terminal = receiver.requests
        .map(envelopeOf)
        .filter((e) => e.data.session_id === b.session_id && TERMINAL_TYPES.has(e.type));
      expect(new Set(terminal.map((e) => e.id)).size).toBe(1);
    }
  });
});
