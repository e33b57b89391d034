/**
 * The test pool end to end: the real service process (node dist/main.js) with SIM_TIME_SCALE=0.01 and a
 * 2 s purge grace, one real loopback receiver subscribed to '*'. Every scripted number of
 * docs/calls-and-test-pool.md "The test pool" is called once and its whole event history is checked: exact catalog sequence in
 * commit order, payloads against the catalog schema, signatures, transcripts, recordings (real WAV
 * files), opt-out purge, DNC, listing and tenant isolation; then a billed production call.
 */
import { eventCatalog } from '../../../src/app.module';
import { verifyWebhook } from '../../../src/kernel/signing/verify-webhook';
import {
  allEvents,
  CallsService,
  FROM_NUMBER,
  placeCall,
  readWavHeader,
  SessionBody,
  sessionEvents,
  startCallsService,
  TERMINAL_TYPES,
  stopCallsSuite,
} from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import {
  consistently,
  createEndpoint,
  CreatedEndpoint,
  assignNumber,
  createTenant,
  Envelope,
  envelopeOf,
  header,
  ISO_MS,
  Receiver,
  startReceiver,
  TenantInfo,
  UUID_V7,
} from '../../support/webhooks-harness';

const { isCatalogType, validatePayload } = eventCatalog;

jest.setTimeout(120_000);

const GRACE_MS = 2000;

interface Scenario {
  types: string[];
  status: string;
  end_reason: string;
  duration: number;
  connected: boolean;
  recorded: boolean;
}

const ANSWERED = ['session.created', 'session.started'];
const SCENARIOS: Record<string, Scenario> = {
  '+14155550100': {
    types: [...ANSWERED, 'session.ended', 'session.recording_completed'],
    status: 'completed',
    end_reason: 'completed',
    duration: 45,
    connected: true,
    recorded: true,
  },
  '+14155550101': {
    types: ['session.created', 'session.failed'],
    status: 'no_answer',
    end_reason: 'no_answer',
    duration: 0,
    connected: false,
    recorded: false,
  },
  '+14155550102': {
    types: ['session.created', 'session.failed'],
    status: 'busy',
    end_reason: 'busy',
    duration: 0,
    connected: false,
    recorded: false,
  },
  '+14155550103': {
    types: ['session.created', 'session.failed'],
    status: 'voicemail',
    end_reason: 'voicemail',
    duration: 0,
    connected: false,
    recorded: false,
  },
  '+14155550104': {
    types: ['session.created', 'session.failed'],
    status: 'failed',
    end_reason: 'carrier_error',
    duration: 0,
    connected: false,
    recorded: false,
  },
  '+14155550105': {
    types: [...ANSWERED, 'session.transfer_initiated', 'session.ended', 'session.recording_completed'],
    status: 'completed',
    end_reason: 'transferred',
    duration: 60,
    connected: true,
    recorded: true,
  },
  '+14155550106': {
    types: [
      ...ANSWERED,
      'session.opt_out_detected',
      'session.ended',
      'session.recording_completed',
      'session.opt_out_recording_pending_purge',
      'session.opt_out_recording_purged',
    ],
    status: 'completed',
    end_reason: 'opt_out',
    duration: 12,
    connected: true,
    recorded: true,
  },
  '+14155550107': {
    types: [...ANSWERED, 'session.consent_refused', 'session.ended'],
    status: 'completed',
    end_reason: 'consent_refused',
    duration: 6,
    connected: true,
    recorded: false,
  },
  '+14155550108': {
    types: [...ANSWERED, 'function.timeout', 'session.ended', 'session.recording_completed'],
    status: 'completed',
    end_reason: 'completed',
    duration: 30,
    connected: true,
    recorded: true,
  },
  '+14155550109': {
    types: [...ANSWERED, 'session.ended', 'session.recording_completed'],
    status: 'completed',
    end_reason: 'completed',
    duration: 20,
    connected: true,
    recorded: true,
  },
};
const NUMBERS = Object.keys(SCENARIOS);

let h: CallsService;
let receiver: Receiver;
let tenant: TenantInfo;
let other: TenantInfo;
let endpoint: CreatedEndpoint;
/** to → the 201 body of POST /v1/calls. */
const placed = new Map<string, SessionBody>();
/** to → the session's envelopes (GET /v1/sessions/{id}/events) once complete. */
const histories = new Map<string, Envelope[]>();

const api = (method: string, path: string, token = tenant.api_key) => h.call(method, path, { token });
const baseUrl = () => h.svc.baseUrl;
const byType = (events: Envelope[], type: string) => events.find((e) => e.type === type);
const sessionIdOf = (e: Envelope) => e.data.session_id as string | undefined;

beforeAll(async () => {
  receiver = await startReceiver();
  h = await startCallsService({
    SIM_TIME_SCALE: '0.01',
    RECORDING_PURGE_GRACE: '2s',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  });
  tenant = await createTenant(h.call, h.svc.adminToken, 'Test Pool Co');
  // Its production calls come from a number it owns (decision 178); its test calls from any.
  await assignNumber(h.call, h.svc.adminToken, tenant.tenant_id, FROM_NUMBER);
  other = await createTenant(h.call, h.svc.adminToken, 'Other Co');
  endpoint = await createEndpoint(h.call, tenant.api_key, { url: receiver.url });
  expect(endpoint.events).toEqual(['*']);
});

afterAll(() => stopCallsSuite(h));

describe('POST /v1/calls with test_mode true', () => {
  it('answers 201 with the queued session for each test number', async () => {
    const started = Date.now();
    const bodies = await Promise.all(NUMBERS.map((to) => placeCall(h.call, tenant.api_key, to, { testMode: true })));
    bodies.forEach((body, i) => {
      const to = NUMBERS[i]!;
      placed.set(to, body);
      expect(body).toMatchObject({ status: 'queued', to_number: to, from_number: FROM_NUMBER, test_mode: true });
      expect(body.session_id).toMatch(/^ses_[a-z0-9]{20}$/);
      expect(body.created_at).toMatch(ISO_MS);
      expect(Math.abs(Date.parse(body.created_at) - started)).toBeLessThan(30_000);
    });
    expect(new Set(bodies.map((b) => b.session_id)).size).toBe(NUMBERS.length);
  });

  it('answers status queued even when the scripted outcome is due almost at once (…104 fails after 10 ms)', async () => {
    // POST /v1/calls answers as soon as the call is queued: the session's status is queued.
    const racer = await createTenant(h.call, h.svc.adminToken, 'Racer Co');
    const bodies = await Promise.all(
      Array.from({ length: 20 }, () => placeCall(h.call, racer.api_key, '+14155550104', { testMode: true })),
    );
    expect(bodies.map((b) => b.status)).toEqual(bodies.map(() => 'queued'));
  });

  it('reaches the exact catalog sequence for every number (commit order of GET /v1/sessions/{id}/events)', async () => {
    await eventually(
      async () => {
        for (const to of NUMBERS) {
          if (histories.has(to)) continue;
          const events = await sessionEvents(h.call, tenant.api_key, placed.get(to)!.session_id);
          const want = SCENARIOS[to]!.types;
          if (events.length < want.length) throw new Error(`${to}: ${events.map((e) => e.type).join(', ')}`);
          histories.set(to, events);
        }
        return true;
      },
      30_000,
      100,
    );
    for (const to of NUMBERS) {
      expect({ to, types: histories.get(to)!.map((e) => e.type) }).toEqual({ to, types: SCENARIOS[to]!.types });
    }
  });

  it('gives every event a proper envelope and a payload that validates against the catalog', () => {
    for (const to of NUMBERS) {
      const events = histories.get(to)!;
      let previous = 0;
      for (const e of events) {
        // Key order is not asserted: the API serves the envelope from jsonb (see the report), the webhook
        // body has the fixed order id, type, tenant_id, created_at, data.
        expect(Object.keys(e).sort()).toEqual(['created_at', 'data', 'id', 'tenant_id', 'type']);
        expect(e.id).toMatch(UUID_V7);
        expect(e.tenant_id).toBe(tenant.tenant_id);
        expect(e.created_at).toMatch(ISO_MS);
        expect(isCatalogType(e.type)).toBe(true);
        expect({ to, type: e.type, errors: validatePayload(e.type, e.data) }).toEqual({ to, type: e.type, errors: [] });
        expect(sessionIdOf(e)).toBe(placed.get(to)!.session_id);
        // Commit order and emission time agree.
        expect(Date.parse(e.created_at)).toBeGreaterThanOrEqual(previous);
        previous = Date.parse(e.created_at);
      }
      expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    }
  });

  it('session.created carries the legs, the default voice and status queued', () => {
    for (const to of NUMBERS) {
      const created = byType(histories.get(to)!, 'session.created')!;
      expect(created.data).toEqual({
        session_id: placed.get(to)!.session_id,
        to_number: to,
        from_number: FROM_NUMBER,
        campaign_id: null,
        contact_id: null,
        voice_id: 'voice_default',
        status: 'queued',
      });
    }
  });

  it('session.ended / session.failed: status, reason, duration, cost 0, started_at, nulls, transcript and functions', () => {
    for (const to of NUMBERS) {
      const s = SCENARIOS[to]!;
      const events = histories.get(to)!;
      const outcome = events.find((e) => TERMINAL_TYPES.has(e.type))!;
      const started = byType(events, 'session.started');
      const d = outcome.data;
      expect({ to, type: outcome.type }).toEqual({
        to,
        type: s.status === 'completed' ? 'session.ended' : 'session.failed',
      });
      expect(d).toMatchObject({
        session_id: placed.get(to)!.session_id,
        client_reference_id: null,
        campaign_id: null,
        contact_id: null,
        from_number: FROM_NUMBER,
        to_number: to,
        phone_number: to,
        email: null,
        first_name: null,
        last_name: null,
        status: s.status,
        end_reason: s.end_reason,
        duration_seconds: s.duration,
        actual_cost_cents: 0,
      });
      expect(d.ended_at).toMatch(ISO_MS);
      if (s.connected) {
        expect(started).toBeDefined();
        expect(d.started_at).toBe(started!.data.started_at);
        expect(Date.parse(d.ended_at as string)).toBeGreaterThanOrEqual(Date.parse(d.started_at as string));
        const transcript = d.transcript as { role: string; content?: string; t?: number }[];
        expect(transcript.length).toBeGreaterThan(0);
        for (const entry of transcript) {
          expect(['agent', 'user']).toContain(entry.role);
          expect(Object.keys(entry).every((k) => ['role', 'content', 't'].includes(k))).toBe(true);
          // No empty turn: a turn that is only a tool call is not kept (its call is in function_invocations).
          expect(typeof entry.content).toBe('string');
          expect(entry.content!.trim()).not.toBe('');
          expect(typeof entry.t).toBe('number');
        }
        // t is seconds from session start, so non-decreasing.
        const ts = transcript.map((e) => e.t!);
        expect([...ts].sort((a, b) => a - b)).toEqual(ts);
        expect(d.transcript_url).toBe(`${baseUrl()}/v1/sessions/${placed.get(to)!.session_id}/transcript.json`);
      } else {
        expect(started).toBeUndefined();
        expect(d.started_at ?? null).toBeNull();
        expect(d.transcript).toEqual([]);
        expect(d.transcript_url ?? null).toBeNull();
        expect(d.function_invocations).toEqual([]);
      }
    }
    // The documented agent function calls.
    const fns = (to: string) => histories.get(to)!.find((e) => TERMINAL_TYPES.has(e.type))!.data.function_invocations;
    expect(fns('+14155550100')).toEqual([{ name: 'find_open_slots', status: 'succeeded', duration_ms: 840 }]);
    expect(fns('+14155550109')).toEqual([{ name: 'find_open_slots', status: 'succeeded', duration_ms: 840 }]);
    expect(fns('+14155550108')).toEqual([{ name: 'check_inventory', status: 'succeeded', duration_ms: 9200 }]);
    // The script's tool-only turn (at 7 s, around find_open_slots) left no entry: every turn has words.
    const transcript100 = histories.get('+14155550100')!.find((e) => e.type === 'session.ended')!.data
      .transcript as Record<string, unknown>[];
    expect(transcript100.map((e) => e.t)).not.toContain(7);
    expect(transcript100.every((e) => typeof e.content === 'string' && e.content !== '')).toBe(true);
  });

  it('transcript_url serves {session_id, transcript} equal to the event transcript', async () => {
    for (const to of NUMBERS.filter((n) => SCENARIOS[n]!.connected)) {
      const outcome = histories.get(to)!.find((e) => TERMINAL_TYPES.has(e.type))!;
      const url = outcome.data.transcript_url as string;
      expect(url.startsWith(baseUrl())).toBe(true);
      const res = await api('GET', url.slice(baseUrl().length));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ session_id: placed.get(to)!.session_id, transcript: outcome.data.transcript });
    }
    // A session without a transcript still has the document, empty.
    const res = await api('GET', `/v1/sessions/${placed.get('+14155550101')!.session_id}/transcript.json`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ session_id: placed.get('+14155550101')!.session_id, transcript: [] });
  });

  it('recording_completed comes after session.ended and serves a real dual-channel WAV of the call length', async () => {
    for (const to of NUMBERS.filter((n) => SCENARIOS[n]!.recorded)) {
      const events = histories.get(to)!;
      const endedAt = events.findIndex((e) => e.type === 'session.ended');
      const recAt = events.findIndex((e) => e.type === 'session.recording_completed');
      expect(recAt).toBeGreaterThan(endedAt);
      const ended = events[endedAt]!.data;
      const rec = events[recAt]!.data;
      expect(rec).toMatchObject({
        session_id: placed.get(to)!.session_id,
        campaign_id: null,
        contact_id: null,
        from_number: FROM_NUMBER,
        to_number: to,
        phone_number: to,
        email: null,
        first_name: null,
        last_name: null,
        status: 'completed',
        channels: 'dual',
        started_at: ended.started_at,
        ended_at: ended.ended_at,
        duration_seconds: ended.duration_seconds,
      });
      expect(rec.recording_id).toMatch(/^rec_[a-z0-9]+$/);
      // An expiring signed link (recording-links.e2e-spec.ts checks the signature and the refusals).
      expect(rec.recording_url).toMatch(
        new RegExp(`^${baseUrl()}/recordings/${rec.recording_id as string}\\.wav\\?expires=\\d+&signature=[\\w-]{43}$`),
      );
      expect(Date.parse(events[recAt]!.created_at)).toBeGreaterThanOrEqual(Date.parse(events[endedAt]!.created_at));
      if (to === '+14155550106') continue; // purged by now: checked below
      const res = await fetch(rec.recording_url as string);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^audio\/(wav|x-wav|wave)/);
      const buf = Buffer.from(await res.arrayBuffer());
      const wav = readWavHeader(buf);
      expect(wav).toMatchObject({ riff: 'RIFF', wave: 'WAVE', format: 1, channels: 2, bitsPerSample: 16 });
      expect(wav.seconds).toBe(ended.duration_seconds);
      expect(buf.length).toBe(44 + wav.dataSize);
      expect(Number(res.headers.get('content-length'))).toBe(buf.length);
    }
  });

  it('transfer (…105): session.transfer_initiated between started and ended, with the transfer number', () => {
    const events = histories.get('+14155550105')!;
    const types = events.map((e) => e.type);
    const i = types.indexOf('session.transfer_initiated');
    expect(i).toBeGreaterThan(types.indexOf('session.started'));
    expect(i).toBeLessThan(types.indexOf('session.ended'));
    const d = events[i]!.data;
    expect(d).toEqual({
      session_id: placed.get('+14155550105')!.session_id,
      to_number: '+14155550105',
      from_number: FROM_NUMBER,
      transfer_number: '+14155550199',
      transferred_at: expect.stringMatching(ISO_MS),
    });
    const started = Date.parse(byType(events, 'session.started')!.data.started_at as string);
    const ended = Date.parse(byType(events, 'session.ended')!.data.ended_at as string);
    expect(Date.parse(d.transferred_at as string)).toBeGreaterThanOrEqual(started);
    expect(Date.parse(d.transferred_at as string)).toBeLessThanOrEqual(ended);
  });

  it('function timeout (…108): function.timeout with its fields, then the call continues and completes', () => {
    const events = histories.get('+14155550108')!;
    expect(byType(events, 'function.timeout')!.data).toEqual({
      session_id: placed.get('+14155550108')!.session_id,
      function_id: 'fn_check_inventory',
      name: 'check_inventory',
      timeout_ms: 5000,
    });
    const ended = byType(events, 'session.ended')!.data;
    expect(ended).toMatchObject({ status: 'completed', end_reason: 'completed' });
    // The conversation continued after the timeout: turns later than it exist.
    expect((ended.transcript as { content?: string }[]).some((t) => t.content === 'Good news, it is in stock.')).toBe(
      true,
    );
  });

  it('consent refused (…107): consent_refused then ended, and never a recording', async () => {
    const id = placed.get('+14155550107')!.session_id;
    const events = histories.get('+14155550107')!;
    expect(byType(events, 'session.consent_refused')!.data).toEqual({
      session_id: id,
      refused_at: expect.stringMatching(ISO_MS),
    });
    // Recordings of the other calls have long arrived; this one stays without any.
    await consistently(
      async () => {
        const now = await sessionEvents(h.call, tenant.api_key, id);
        expect(now.map((e) => e.type)).toEqual(SCENARIOS['+14155550107']!.types);
      },
      500,
      100,
    );
    const session = await api('GET', `/v1/sessions/${id}`);
    expect(session.body).toMatchObject({ status: 'completed', end_reason: 'consent_refused' });
    expect(session.body.recording ?? null).toBeNull();
    expect(
      receiver.requests
        .map(envelopeOf)
        .filter((e) => sessionIdOf(e) === id && e.type === 'session.recording_completed'),
    ).toEqual([]);
  });

  it('opt-out (…106): opt_out_detected, the number on the DNC list (source opt_out), pending purge ≈ +2 s, then purged and 404', async () => {
    const id = placed.get('+14155550106')!.session_id;
    const events = histories.get('+14155550106')!;
    const detected = byType(events, 'session.opt_out_detected')!;
    expect(detected.data).toEqual({
      session_id: id,
      phone_number: '+14155550106',
      detected_at: expect.stringMatching(ISO_MS),
    });

    const dnc = await api('GET', '/v1/dnc');
    expect(dnc.status).toBe(200);
    expect(dnc.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ phone_number: '+14155550106', source: 'opt_out', session_id: id }),
      ]),
    );

    const rec = byType(events, 'session.recording_completed')!;
    const pending = byType(events, 'session.opt_out_recording_pending_purge')!;
    const purged = byType(events, 'session.opt_out_recording_purged')!;
    expect(pending.data).toEqual({
      session_id: id,
      recording_id: rec.data.recording_id,
      purge_after: expect.stringMatching(ISO_MS),
    });
    const purgeAfter = Date.parse(pending.data.purge_after as string);
    // purge_after is the moment of flagging plus the 2 s grace.
    expect(Math.abs(purgeAfter - (Date.parse(pending.created_at) + GRACE_MS))).toBeLessThan(1000);
    expect(purged.data).toEqual({
      session_id: id,
      recording_id: rec.data.recording_id,
      purged_at: expect.stringMatching(ISO_MS),
    });
    expect(Date.parse(purged.data.purged_at as string)).toBeGreaterThanOrEqual(purgeAfter);

    const res = await fetch(rec.data.recording_url as string);
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { type: string } };
    expect(body.error.type).toBe('not_found');
    const session = await api('GET', `/v1/sessions/${id}`);
    expect(session.body).toMatchObject({ status: 'completed', end_reason: 'opt_out' });
  });

  it('the receiver got exactly the same events, byte-for-byte the API envelopes, every delivery signed and verifiable', async () => {
    const expected = new Map<string, Envelope>();
    for (const to of NUMBERS) for (const e of histories.get(to)!) expected.set(e.id, e);
    await eventually(
      () => {
        const got = new Set(receiver.requests.map((r) => header(r.headers, 'x-webhook-id')));
        for (const id of expected.keys())
          if (!got.has(id)) throw new Error(`not delivered yet: ${expected.get(id)!.type} ${id}`);
        return true;
      },
      20_000,
      100,
    );

    const sessionIds = new Set([...placed.values()].map((b) => b.session_id));
    for (const req of receiver.requests) {
      const verified = verifyWebhook({ secret: endpoint.secret, headers: req.headers, rawBody: req.rawBody });
      expect(verified.ok).toBe(true);
      expect(req.method).toBe('POST');
      expect(header(req.headers, 'content-type')).toMatch(/^application\/json/);
      const envelope = envelopeOf(req);
      expect(header(req.headers, 'x-webhook-id')).toBe(envelope.id);
      expect(header(req.headers, 'x-webhook-event')).toBe(envelope.type);
      expect({ type: envelope.type, errors: validatePayload(envelope.type, envelope.data) }).toEqual({
        type: envelope.type,
        errors: [],
      });
      const sid = sessionIdOf(envelope);
      if (sid && sessionIds.has(sid)) {
        expect(expected.get(envelope.id)).toEqual(envelope);
      }
    }
    // Per session: the receiver's set equals the stored set.
    for (const to of NUMBERS) {
      const id = placed.get(to)!.session_id;
      const received = new Set(
        receiver.requests
          .map(envelopeOf)
          .filter((e) => sessionIdOf(e) === id)
          .map((e) => e.id),
      );
      expect({ to, ids: [...received].sort() }).toEqual({
        to,
        ids: histories
          .get(to)!
          .map((e) => e.id)
          .sort(),
      });
    }
  });

  it('GET /v1/events lists the same envelopes in the same relative order as the session streams', async () => {
    const all = await allEvents(h.call, tenant.api_key);
    for (const to of NUMBERS) {
      const id = placed.get(to)!.session_id;
      expect(all.filter((e) => sessionIdOf(e) === id)).toEqual(histories.get(to));
    }
  });

  it('GET /v1/sessions/{id} reads the final session back', async () => {
    for (const to of NUMBERS) {
      const s = SCENARIOS[to]!;
      const res = await api('GET', `/v1/sessions/${placed.get(to)!.session_id}`);
      expect(res.status).toBe(200);
      const outcome = histories.get(to)!.find((e) => TERMINAL_TYPES.has(e.type))!.data;
      expect(res.body).toMatchObject({
        session_id: placed.get(to)!.session_id,
        client_reference_id: null,
        to_number: to,
        from_number: FROM_NUMBER,
        phone_number: to,
        voice_id: 'voice_default',
        status: s.status,
        end_reason: s.end_reason,
        test_mode: true,
        created_at: placed.get(to)!.created_at,
        started_at: outcome.started_at ?? null,
        ended_at: outcome.ended_at,
        duration_seconds: s.duration,
        actual_cost_cents: 0,
        transcript: outcome.transcript,
        transcript_url: outcome.transcript_url ?? null,
        function_invocations: outcome.function_invocations,
      });
    }
  });
  it('agent disposition (…109) and transfer (…105) are kept on the session; no session.disposition_set for a direct call', async () => {
    const s109 = await api('GET', `/v1/sessions/${placed.get('+14155550109')!.session_id}`);
    expect(s109.body.agent_disposition).toEqual({
      code: 'appointment_booked',
      note: 'Thursday 3 pm cleaning',
      given_at: expect.stringMatching(ISO_MS),
    });
    expect(histories.get('+14155550109')!.some((e) => e.type === 'session.disposition_set')).toBe(false);
    const s105 = await api('GET', `/v1/sessions/${placed.get('+14155550105')!.session_id}`);
    expect(s105.body.transfer_number).toBe('+14155550199');
    const s100 = await api('GET', `/v1/sessions/${placed.get('+14155550100')!.session_id}`);
    const rec = byType(histories.get('+14155550100')!, 'session.recording_completed')!.data;
    // The session carries a fresh signed link to the same recording, and it works.
    expect(s100.body.recording).toEqual({
      recording_id: rec.recording_id,
      status: 'available',
      recording_url: expect.stringContaining(`/recordings/${rec.recording_id as string}.wav?expires=`),
    });
    const file = await fetch(s100.body.recording.recording_url as string);
    expect(file.status).toBe(200);
    expect(readWavHeader(Buffer.from(await file.arrayBuffer())).channels).toBe(2);
    const s106 = await api('GET', `/v1/sessions/${placed.get('+14155550106')!.session_id}`);
    expect(s106.body.recording).toMatchObject({ status: 'purged', recording_url: null });
  });
});

describe('GET /v1/sessions', () => {
  const ids = () => new Set([...placed.values()].map((b) => b.session_id));
  const idOf = (to: string) => placed.get(to)!.session_id;

  it('filters by status', async () => {
    const list = async (status: string) => {
      const res = await api('GET', `/v1/sessions?status=${status}&limit=100`);
      expect(res.status).toBe(200);
      return (res.body.data as SessionBody[])
        .map((s) => s.session_id)
        .filter((id) => ids().has(id))
        .sort();
    };
    expect(await list('completed')).toEqual(
      ['+14155550100', '+14155550105', '+14155550106', '+14155550107', '+14155550108', '+14155550109'].map(idOf).sort(),
    );
    expect(await list('no_answer')).toEqual([idOf('+14155550101')]);
    expect(await list('busy')).toEqual([idOf('+14155550102')]);
    expect(await list('voicemail')).toEqual([idOf('+14155550103')]);
    expect(await list('failed')).toEqual([idOf('+14155550104')]);
    expect(await list('queued')).toEqual([]);
    expect(await list('in_progress')).toEqual([]);
    const all = await api('GET', '/v1/sessions?status=busy');
    expect((all.body.data as SessionBody[]).every((s) => s.status === 'busy')).toBe(true);
  });

  it('pages with limit and starting_after, newest first, without gaps or duplicates', async () => {
    const seen: SessionBody[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const res = await api('GET', `/v1/sessions?limit=3${cursor ? `&starting_after=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      const data = res.body.data as SessionBody[];
      expect(data.length).toBeLessThanOrEqual(3);
      seen.push(...data);
      if (!res.body.has_more) break;
      expect(data.length).toBe(3);
      cursor = data[data.length - 1]!.session_id;
    }
    expect(seen.map((s) => s.session_id).sort()).toEqual([...ids()].sort());
    const times = seen.map((s) => Date.parse(s.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const one = await api('GET', '/v1/sessions?limit=1');
    expect(one.body).toMatchObject({ has_more: true });
    expect(one.body.data).toHaveLength(1);
    const everything = await api('GET', '/v1/sessions?limit=100');
    expect(everything.body.has_more).toBe(false);
    expect(everything.body.data).toHaveLength(NUMBERS.length);
  });

  it('rejects a bad status, limit or cursor with the error body', async () => {
    for (const q of ['status=bogus', 'limit=0', 'limit=101', 'limit=abc', 'limit=2.5']) {
      const res = await api('GET', `/v1/sessions?${q}`);
      expect({ q, status: res.status }).toEqual({ q, status: 400 });
      expect(res.body.error).toMatchObject({
        type: 'invalid_request',
        message: expect.any(String),
        request_id: expect.any(String),
      });
      expect(res.body.error.param).toBe(q.split('=')[0]);
    }
    const res = await api('GET', '/v1/sessions?starting_after=ses_doesnotexist0000000000');
    expect(res.status).toBe(404);
    expect(res.body.error.type).toBe('not_found');
  });

  it('needs the bearer credential', async () => {
    const res = await h.call('GET', '/v1/sessions');
    expect(res.status).toBe(401);
    expect(res.body.error.type).toBe('authentication');
  });
});

describe('tenant isolation', () => {
  it("another tenant's session id is a 404 everywhere, and their list is empty", async () => {
    const id = placed.get('+14155550100')!.session_id;
    for (const path of [
      `/v1/sessions/${id}`,
      `/v1/sessions/${id}/transcript.json`,
      `/v1/sessions/${id}/events`,
      `/v1/sessions/${id}/recording`,
    ]) {
      const res = await api('GET', path, other.api_key);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.body.error).toMatchObject({ type: 'not_found', request_id: expect.any(String) });
    }
    const list = await api('GET', '/v1/sessions', other.api_key);
    expect(list.body).toEqual({ data: [], has_more: false });
    const events = await api('GET', '/v1/events', other.api_key);
    expect(events.body).toEqual({ data: [], has_more: false });
    const unknown = await api('GET', '/v1/sessions/ses_doesnotexist0000000000');
    expect(unknown.status).toBe(404);
  });
});

describe('opt-out recording during its grace window', () => {
  it('serves the recording while pending purge, then answers 404 once purged', async () => {
    const body = await placeCall(h.call, tenant.api_key, '+14155550106', { testMode: true });
    const pending = await eventually(
      () => {
        const req = receiver.requests.find((r) => {
          const e = envelopeOf(r);
          return e.type === 'session.opt_out_recording_pending_purge' && e.data.session_id === body.session_id;
        });
        if (!req) throw new Error('no pending_purge yet');
        return req;
      },
      20_000,
      10,
    );
    const flaggedAt = pending.receivedAt;
    const envelope = envelopeOf(pending);
    const purgeAfter = Date.parse(envelope.data.purge_after as string);
    expect(Math.abs(purgeAfter - (flaggedAt + GRACE_MS))).toBeLessThan(1000);
    const events = await sessionEvents(h.call, tenant.api_key, body.session_id);
    const url = byType(events, 'session.recording_completed')!.data.recording_url as string;
    if (Date.now() < purgeAfter - 300) {
      const during = await fetch(url);
      expect(during.status).toBe(200);
      expect(readWavHeader(Buffer.from(await during.arrayBuffer())).channels).toBe(2);
    }
    await eventually(
      async () => {
        const after = await fetch(url);
        await after.arrayBuffer();
        expect(after.status).toBe(404);
      },
      15_000,
      100,
    );
    const final = await eventually(
      async () => {
        const evs = await sessionEvents(h.call, tenant.api_key, body.session_id);
        if (!byType(evs, 'session.opt_out_recording_purged')) throw new Error('not purged yet');
        return evs;
      },
      15_000,
      100,
    );
    expect(
      Date.parse(byType(final, 'session.opt_out_recording_purged')!.data.purged_at as string),
    ).toBeGreaterThanOrEqual(purgeAfter);
    // The DNC entry stays single (the number was already listed by the first opt-out).
    const dnc = await api('GET', '/v1/dnc');
    expect((dnc.body.data as { phone_number: string }[]).filter((r) => r.phone_number === '+14155550106')).toHaveLength(
      1,
    );
  });
});

describe('a number outside the test pool table', () => {
  it('plays the default script: answered, 45 s, completed, recorded', async () => {
    const body = await placeCall(h.call, tenant.api_key, '+442071838750', { testMode: true });
    const events = await eventually(
      async () => {
        const evs = await sessionEvents(h.call, tenant.api_key, body.session_id);
        expect(evs.map((e) => e.type)).toEqual(SCENARIOS['+14155550100']!.types);
        return evs;
      },
      20_000,
      100,
    );
    expect(byType(events, 'session.ended')!.data).toMatchObject({
      to_number: '+442071838750',
      status: 'completed',
      duration_seconds: 45,
      actual_cost_cents: 0,
    });
  });
});

describe('production calls without MEDIA_GATEWAY_URL', () => {
  it('play on the simulator and are billed ceil(duration/60) × 10 cents', async () => {
    const cases: [string, number, number][] = [
      ['+14155550100', 45, 10],
      ['+14155550105', 60, 10],
      ['+14155550102', 0, 0],
    ];
    const bodies = await Promise.all(cases.map(([to]) => placeCall(h.call, tenant.api_key, to, { testMode: false })));
    for (const b of bodies) expect(b).toMatchObject({ status: 'queued', test_mode: false });
    // test_mode omitted means a production call.
    const implicit = await placeCall(h.call, tenant.api_key, '+14155550108');
    expect(implicit.test_mode).toBe(false);
    const all: [SessionBody, number, number][] = [
      ...bodies.map((b, i) => [b, cases[i]![1], cases[i]![2]] as [SessionBody, number, number]),
      [implicit, 30, 10],
    ];
    for (const [body, duration, cents] of all) {
      const outcome = await eventually(
        async () => {
          const events = await sessionEvents(h.call, tenant.api_key, body.session_id);
          const o = events.find((e) => TERMINAL_TYPES.has(e.type));
          if (!o) throw new Error(`${body.to_number}: no outcome yet`);
          return o;
        },
        20_000,
        100,
      );
      expect({
        to: body.to_number,
        duration: outcome.data.duration_seconds,
        cost: outcome.data.actual_cost_cents,
      }).toEqual({
        to: body.to_number,
        duration,
        cost: cents,
      });
      expect(validatePayload(outcome.type, outcome.data)).toEqual([]);
      const session = await api('GET', `/v1/sessions/${body.session_id}`);
      expect(session.body).toMatchObject({ test_mode: false, duration_seconds: duration, actual_cost_cents: cents });
    }
  });
});
