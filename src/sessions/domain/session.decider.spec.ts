/**
 * Given/when/then on the pure session decider: no I/O, no clock. Every catalog event it emits is
 * checked against the catalog schema (validatePayload).
 */
import { EventCatalog } from '../../catalog/event-catalog';
import { sessionEvents } from '../sessions.events';
import { fold } from '../../kernel/decider';
import { DomainError } from '../../kernel/result';
import type { MediaSignal } from './media-signal';
import {
  PlaceCall,
  SessionCommand,
  sessionDecider,
  SessionEvent,
  SessionState,
  SignalContext,
} from './session.decider';
import { scriptFor, TEST_NUMBERS } from './test-pool.scenarios';

// The context's own fragment holds every catalog type the decider emits.
const { isCatalogType, validatePayload } = EventCatalog.from([sessionEvents]);

const SESSION_ID = 'ses_0123456789abcdefghij';
const TO = '+14155550100';
const FROM = '+14155550000';
const T0 = Date.parse('2026-03-02T17:00:00.000Z');
const TRANSCRIPT_URL = `https://api.example/v1/sessions/${SESSION_ID}/transcript.json`;
const GRACE_MS = 7 * 24 * 3600 * 1000;
const RATE = 10;

/** Every catalog event any test below saw; validated at the end and in each test. */
const emitted: SessionEvent[] = [];

function at(seconds: number): string {
  return new Date(T0 + seconds * 1000).toISOString();
}

function ctx(seconds: number, over: Partial<SignalContext> = {}): SignalContext {
  return {
    at: at(seconds),
    transcriptUrl: TRANSCRIPT_URL,
    recordingUrl: (id) => `https://api.example/recordings/${id}.wav`,
    centsPerStartedMinute: RATE,
    purgeGraceMs: GRACE_MS,
    ...over,
  };
}

function placeCommand(over: Partial<PlaceCall> = {}): PlaceCall {
  return {
    type: 'place',
    sessionId: SESSION_ID,
    to: TO,
    from: FROM,
    agentConfig: { prompt: 'Be helpful.' },
    testMode: true,
    ...over,
  };
}

function expectCatalogValid(events: readonly SessionEvent[]): void {
  for (const e of events) {
    if (!isCatalogType(e.type)) continue;
    expect({ type: e.type, errors: validatePayload(e.type, e.data) }).toEqual({ type: e.type, errors: [] });
  }
}

/** A tiny harness: `given` past events, `when` a command, `then` the decided events. */
class Scenario {
  private history: SessionEvent[] = [];

  given(...events: SessionEvent[]): this {
    this.history.push(...events);
    return this;
  }

  state(): SessionState {
    return fold(sessionDecider, this.history);
  }

  /** Decides and appends the result to the history, like the command executor does. */
  when(command: SessionCommand): SessionEvent[] {
    const decided = [...sessionDecider.decide(command, this.state())];
    this.history.push(...decided);
    emitted.push(...decided);
    expectCatalogValid(decided);
    return decided;
  }

  signal(seq: number, signal: MediaSignal, seconds: number, over: Partial<SignalContext> = {}): SessionEvent[] {
    return this.when({ type: 'signal', seq, signal, ...ctx(seconds, over) });
  }

  events(): SessionEvent[] {
    return this.history;
  }
}

const placed = (over: Partial<PlaceCall> = {}): Scenario => {
  const s = new Scenario();
  s.when(placeCommand(over));
  return s;
};

const catalogTypes = (events: readonly SessionEvent[]): string[] =>
  events.filter((e) => isCatalogType(e.type)).map((e) => e.type);
const find = <T extends SessionEvent['type']>(events: readonly SessionEvent[], type: T) =>
  events.find((e) => e.type === type) as Extract<SessionEvent, { type: T }> | undefined;

describe('session decider: place', () => {
  it('place → session.placed (internal) and session.created (queued)', () => {
    const events = new Scenario().when(placeCommand({ agentConfig: { prompt: 'Hi', voice_id: 'voice_ava' } }));
    expect(events.map((e) => e.type)).toEqual(['session.placed', 'session.created']);
    expect(events[1]!.data).toEqual({
      session_id: SESSION_ID,
      to_number: TO,
      from_number: FROM,
      campaign_id: null,
      contact_id: null,
      voice_id: 'voice_ava',
      status: 'queued',
    });
    expect(events[0]!.data).toMatchObject({
      test_mode: true,
      agent_config: { prompt: 'Hi', voice_id: 'voice_ava' },
      client_reference_id: null,
    });
  });

  it('uses voice_default when the agent config names no voice, and carries campaign/contact ids', () => {
    const events = new Scenario().when(
      placeCommand({ campaignId: 'cmp_1', contactId: 'con_1', clientReferenceId: 'ref-1' }),
    );
    expect(find(events, 'session.created')!.data).toMatchObject({
      voice_id: 'voice_default',
      campaign_id: 'cmp_1',
      contact_id: 'con_1',
    });
    expect(find(events, 'session.placed')!.data.client_reference_id).toBe('ref-1');
  });

  it('a second place on the same stream decides nothing', () => {
    const s = placed();
    expect(s.when(placeCommand())).toEqual([]);
    expect(s.when(placeCommand({ to: '+14155550101' }))).toEqual([]);
  });

  it('the state after placement is queued with nothing recorded', () => {
    const state = placed().state();
    expect(state).toMatchObject({
      status: 'queued',
      sessionId: SESSION_ID,
      to: TO,
      from: FROM,
      testMode: true,
      startedAt: null,
      seq: 0,
    });
  });

  it('any other command on a session that does not exist is not_found', () => {
    const s = new Scenario();
    expect(() => s.signal(1, { kind: 'answered' }, 1)).toThrow(DomainError);
    expect(() => s.when({ type: 'watchdog', ...ctx(1) })).toThrow(expect.objectContaining({ code: 'not_found' }));
    expect(() => s.when({ type: 'purge_recording', at: at(1) })).toThrow(
      expect.objectContaining({ code: 'not_found' }),
    );
  });
});

describe('session decider: a completed call', () => {
  function completedCall(testMode: boolean, duration: number) {
    const s = placed({ testMode });
    const started = s.signal(1, { kind: 'answered' }, 4);
    const turn1 = s.signal(2, { kind: 'turn', role: 'agent', content: 'Hello there.', t: 0.5 }, 4.5);
    const toolOnly = s.signal(3, { kind: 'turn', role: 'agent', t: 7 }, 11);
    const fn = s.signal(
      4,
      { kind: 'function_invoked', name: 'find_open_slots', status: 'succeeded', duration_ms: 840 },
      12,
    );
    const turn2 = s.signal(5, { kind: 'turn', role: 'user', content: 'Thursday works.', t: 13 }, 17);
    const ended = s.signal(
      6,
      { kind: 'hangup', status: 'completed', end_reason: 'completed', duration_seconds: duration },
      4 + duration,
    );
    return { s, started, turn1, toolOnly, fn, turn2, ended };
  }

  it('emits session.started, the transcript and function invocation (internal), then session.ended with the exact payload', () => {
    const { s, started, turn1, toolOnly, fn, turn2, ended } = completedCall(true, 45);
    expect(started).toEqual([
      { type: 'session.started', data: { session_id: SESSION_ID, started_at: at(4) } },
      { type: 'session.signal_applied', data: { seq: 1, kind: 'answered' } },
    ]);
    expect(turn1[0]).toEqual({
      type: 'session.transcript_appended',
      data: { entry: { role: 'agent', content: 'Hello there.', t: 0.5 } },
    });
    // A turn that is only a tool call has no content key at all.
    expect(toolOnly[0]).toEqual({ type: 'session.transcript_appended', data: { entry: { role: 'agent', t: 7 } } });
    expect(fn[0]).toEqual({
      type: 'session.function_invoked',
      data: { invocation: { name: 'find_open_slots', status: 'succeeded', duration_ms: 840 } },
    });
    expect(turn2[0]!.type).toBe('session.transcript_appended');
    expect(ended.map((e) => e.type)).toEqual(['session.ended', 'session.signal_applied']);
    expect(ended[0]!.data).toEqual({
      session_id: SESSION_ID,
      client_reference_id: null,
      campaign_id: null,
      contact_id: null,
      from_number: FROM,
      to_number: TO,
      phone_number: TO,
      email: null,
      first_name: null,
      last_name: null,
      end_reason: 'completed',
      ended_at: at(49),
      duration_seconds: 45,
      actual_cost_cents: 0,
      transcript: [
        { role: 'agent', content: 'Hello there.', t: 0.5 },
        { role: 'agent', t: 7 },
        { role: 'user', content: 'Thursday works.', t: 13 },
      ],
      transcript_url: TRANSCRIPT_URL,
      function_invocations: [{ name: 'find_open_slots', status: 'succeeded', duration_ms: 840 }],
      status: 'completed',
      started_at: at(4),
    });
    expect(catalogTypes(s.events())).toEqual(['session.created', 'session.started', 'session.ended']);
    expect(s.state()).toMatchObject({ status: 'completed', durationSeconds: 45, endedAt: at(49) });
  });

  it.each([
    [45, 10],
    [1, 10],
    [60, 10],
    [61, 20],
    [120, 20],
    [121, 30],
    [3600, 600],
  ])('a production call of %i s costs ceil(minutes) × rate = %i cents', (duration, cents) => {
    const { ended } = completedCall(false, duration);
    expect(ended[0]!.data).toMatchObject({ duration_seconds: duration, actual_cost_cents: cents });
  });

  it('a test-mode call costs 0 whatever its length', () => {
    expect(completedCall(true, 3600).ended[0]!.data).toMatchObject({ duration_seconds: 3600, actual_cost_cents: 0 });
  });

  it('uses the configured rate per started minute', () => {
    const s = placed({ testMode: false });
    s.signal(1, { kind: 'answered' }, 0);
    const ended = s.signal(
      2,
      { kind: 'hangup', status: 'completed', end_reason: 'completed', duration_seconds: 90 },
      90,
      { centsPerStartedMinute: 7 },
    );
    expect(ended[0]!.data).toMatchObject({ actual_cost_cents: 14 });
  });

  it('without a reported duration, the duration is ended_at − started_at (rounded seconds)', () => {
    const s = placed({ testMode: false });
    s.signal(1, { kind: 'answered' }, 10);
    const ended = s.signal(2, { kind: 'hangup', status: 'completed', end_reason: 'completed' }, 10 + 75.4);
    expect(ended[0]!.data).toMatchObject({
      duration_seconds: 75,
      actual_cost_cents: 20,
      started_at: at(10),
      ended_at: at(85.4),
    });
  });

  it('transcript_url is null when the transcript is empty', () => {
    const s = placed();
    s.signal(1, { kind: 'answered' }, 1);
    const ended = s.signal(2, { kind: 'hangup', status: 'completed', end_reason: 'completed', duration_seconds: 3 }, 4);
    expect(ended[0]!.data).toMatchObject({
      transcript: [],
      transcript_url: null,
      function_invocations: [],
      status: 'completed',
    });
  });

  it('a second hangup after the end decides no further outcome', () => {
    const { s } = completedCall(true, 45);
    const again = s.signal(7, { kind: 'hangup', status: 'failed', end_reason: 'carrier_error' }, 60);
    expect(catalogTypes(again)).toEqual([]);
    expect(s.state()).toMatchObject({ status: 'completed' });
  });

  it('signals after the end add nothing to the outcome', () => {
    const { s } = completedCall(true, 45);
    const late = [
      ...s.signal(7, { kind: 'turn', role: 'user', content: 'late', t: 60 }, 60),
      ...s.signal(8, { kind: 'transfer', transfer_number: '+14155550199' }, 61),
      ...s.signal(9, { kind: 'opt_out' }, 62),
      ...s.signal(10, { kind: 'answered' }, 63),
    ];
    expect(late.filter((e) => e.type !== 'session.signal_applied')).toEqual([]);
  });
});

describe('session decider: calls that never connect', () => {
  it.each([
    ['no_answer', 'no_answer'],
    ['busy', 'busy'],
    ['voicemail', 'voicemail'],
    ['failed', 'carrier_error'],
  ] as const)('%s before answer → session.failed with duration 0, cost 0, started_at null', (status, endReason) => {
    for (const testMode of [true, false]) {
      const s = placed({ testMode });
      const events = s.signal(1, { kind: 'hangup', status, end_reason: endReason, duration_seconds: 30 }, 30);
      expect(events.map((e) => e.type)).toEqual(['session.failed', 'session.signal_applied']);
      expect(events[0]!.data).toEqual({
        session_id: SESSION_ID,
        client_reference_id: null,
        campaign_id: null,
        contact_id: null,
        from_number: FROM,
        to_number: TO,
        phone_number: TO,
        email: null,
        first_name: null,
        last_name: null,
        end_reason: endReason,
        ended_at: at(30),
        duration_seconds: 0,
        actual_cost_cents: 0,
        transcript: [],
        transcript_url: null,
        function_invocations: [],
        status,
        started_at: null,
      });
      expect(s.state()).toMatchObject({ status });
    }
  });

  it('a "completed" hangup for a call that never started is reported as session.failed (status failed)', () => {
    const s = placed();
    const events = s.signal(1, { kind: 'hangup', status: 'completed', end_reason: 'completed' }, 5);
    expect(events[0]).toMatchObject({
      type: 'session.failed',
      data: { status: 'failed', started_at: null, duration_seconds: 0 },
    });
  });

  it('a failure after answer keeps started_at and the measured duration', () => {
    const s = placed({ testMode: false });
    s.signal(1, { kind: 'answered' }, 2);
    s.signal(2, { kind: 'turn', role: 'agent', content: 'Hello?', t: 0.2 }, 2.2);
    const events = s.signal(3, { kind: 'hangup', status: 'failed', end_reason: 'media_error' }, 32);
    expect(events[0]).toMatchObject({
      type: 'session.failed',
      data: {
        status: 'failed',
        started_at: at(2),
        duration_seconds: 30,
        actual_cost_cents: 10,
        transcript_url: TRANSCRIPT_URL,
      },
    });
  });
});

describe('session decider: signal sequence numbers', () => {
  it('a repeated seq is a no-op, and so is an older one', () => {
    const s = placed();
    expect(s.signal(1, { kind: 'answered' }, 1).length).toBe(2);
    s.signal(2, { kind: 'turn', role: 'agent', content: 'Hi', t: 0 }, 1.1);
    expect(s.signal(2, { kind: 'turn', role: 'agent', content: 'Hi', t: 0 }, 1.2)).toEqual([]);
    expect(s.signal(1, { kind: 'answered' }, 1.3)).toEqual([]);
    expect(s.signal(2, { kind: 'hangup', status: 'completed', end_reason: 'completed' }, 1.4)).toEqual([]);
    expect(s.state()).toMatchObject({
      status: 'in_progress',
      seq: 2,
      transcript: [{ role: 'agent', content: 'Hi', t: 0 }],
    });
  });

  it('records every applied seq, so a replayed history gives the same answer', () => {
    const s = placed();
    s.signal(5, { kind: 'answered' }, 1);
    const replayed = fold(sessionDecider, s.events());
    expect(replayed).toMatchObject({ seq: 5 });
    expect(
      sessionDecider.decide({ type: 'signal', seq: 5, signal: { kind: 'answered' }, ...ctx(2) }, replayed),
    ).toEqual([]);
  });

  it('answered twice (new seq) starts the session once', () => {
    const s = placed();
    s.signal(1, { kind: 'answered' }, 1);
    expect(catalogTypes(s.signal(2, { kind: 'answered' }, 2))).toEqual([]);
  });

  it('mid-call signals before answer are ignored', () => {
    const s = placed();
    const early = [
      ...s.signal(1, { kind: 'turn', role: 'agent', content: 'x', t: 0 }, 0),
      ...s.signal(2, { kind: 'function_invoked', name: 'f', status: 'succeeded', duration_ms: 1 }, 0),
      ...s.signal(3, { kind: 'transfer', transfer_number: '+14155550199' }, 0),
      ...s.signal(4, { kind: 'opt_out' }, 0),
      ...s.signal(5, { kind: 'consent_refused' }, 0),
      ...s.signal(6, { kind: 'function_timeout', function_id: 'fn', name: 'f', timeout_ms: 5 }, 0),
    ];
    expect(early.every((e) => e.type === 'session.signal_applied')).toBe(true);
  });
});

describe('session decider: mid-call events', () => {
  function live(testMode = true): Scenario {
    const s = placed({ testMode });
    s.signal(1, { kind: 'answered' }, 4);
    return s;
  }

  it('transfer → session.transfer_initiated with both legs and the transfer number', () => {
    const events = live().signal(2, { kind: 'transfer', transfer_number: '+14155550199' }, 13);
    expect(events[0]).toEqual({
      type: 'session.transfer_initiated',
      data: {
        session_id: SESSION_ID,
        to_number: TO,
        from_number: FROM,
        transfer_number: '+14155550199',
        transferred_at: at(13),
      },
    });
  });

  it('the session stays in_progress after a transfer and can still end', () => {
    const s = live();
    s.signal(2, { kind: 'transfer', transfer_number: '+14155550199' }, 13);
    expect(s.state()).toMatchObject({ status: 'in_progress' });
    const ended = s.signal(
      3,
      { kind: 'hangup', status: 'completed', end_reason: 'transferred', duration_seconds: 60 },
      64,
    );
    expect(ended[0]).toMatchObject({ type: 'session.ended', data: { end_reason: 'transferred', status: 'completed' } });
  });

  it('function timeout → function.timeout with session_id, function_id, name, timeout_ms', () => {
    const events = live().signal(
      2,
      { kind: 'function_timeout', function_id: 'fn_check_inventory', name: 'check_inventory', timeout_ms: 5000 },
      16,
    );
    expect(events[0]).toEqual({
      type: 'function.timeout',
      data: { session_id: SESSION_ID, function_id: 'fn_check_inventory', name: 'check_inventory', timeout_ms: 5000 },
    });
  });

  it('opt-out → session.opt_out_detected once, with the called number', () => {
    const s = live();
    const first = s.signal(2, { kind: 'opt_out' }, 10.5);
    expect(first[0]).toEqual({
      type: 'session.opt_out_detected',
      data: { session_id: SESSION_ID, phone_number: TO, detected_at: at(10.5) },
    });
    expect(catalogTypes(s.signal(3, { kind: 'opt_out' }, 11))).toEqual([]);
  });

  it('consent refused → session.consent_refused once', () => {
    const s = live();
    expect(s.signal(2, { kind: 'consent_refused' }, 7.5)[0]).toEqual({
      type: 'session.consent_refused',
      data: { session_id: SESSION_ID, refused_at: at(7.5) },
    });
    expect(catalogTypes(s.signal(3, { kind: 'consent_refused' }, 8))).toEqual([]);
  });

  it('an agent disposition is kept as an internal event', () => {
    const events = live().signal(2, { kind: 'agent_disposition', code: 'appointment_booked', note: 'Thursday' }, 20);
    expect(events[0]).toEqual({
      type: 'session.agent_disposition_given',
      data: { code: 'appointment_booked', note: 'Thursday', at: at(20) },
    });
  });
});

describe('session decider: watchdog', () => {
  it('on a queued session → session.failed with end_reason watchdog_timeout and no duration', () => {
    const s = placed({ testMode: false });
    const events = s.when({ type: 'watchdog', ...ctx(3630) });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'session.failed',
      data: {
        status: 'failed',
        end_reason: 'watchdog_timeout',
        duration_seconds: 0,
        actual_cost_cents: 0,
        started_at: null,
        ended_at: at(3630),
      },
    });
  });

  it('on an in-progress session → session.failed watchdog_timeout, measured from started_at', () => {
    const s = placed();
    s.signal(1, { kind: 'answered' }, 30);
    const events = s.when({ type: 'watchdog', ...ctx(3630) });
    expect(events[0]).toMatchObject({
      type: 'session.failed',
      data: {
        status: 'failed',
        end_reason: 'watchdog_timeout',
        started_at: at(30),
        duration_seconds: 3600,
        actual_cost_cents: 0,
      },
    });
    expect(s.state()).toMatchObject({ status: 'failed' });
  });

  it('on a terminal session → nothing', () => {
    for (const hangup of [
      { kind: 'hangup', status: 'busy', end_reason: 'busy' },
      { kind: 'hangup', status: 'no_answer', end_reason: 'no_answer' },
    ] as const) {
      const s = placed();
      s.signal(1, hangup, 2);
      expect(s.when({ type: 'watchdog', ...ctx(3630) })).toEqual([]);
    }
    const done = placed();
    done.signal(1, { kind: 'answered' }, 1);
    done.signal(2, { kind: 'hangup', status: 'completed', end_reason: 'completed', duration_seconds: 5 }, 6);
    expect(done.when({ type: 'watchdog', ...ctx(3630) })).toEqual([]);
    // And twice in a row only once.
    const twice = placed();
    expect(twice.when({ type: 'watchdog', ...ctx(3630) })).toHaveLength(1);
    expect(twice.when({ type: 'watchdog', ...ctx(3631) })).toEqual([]);
  });
});

describe('session decider: recordings, opt-out purge and consent', () => {
  const recordingReady = {
    kind: 'recording_ready',
    recording_id: 'rec_abcdefghij0123456789',
    duration_seconds: 12,
    channels: 'dual',
  } as const;

  function ended(opts: { optOut?: boolean; consentRefused?: boolean; testMode?: boolean } = {}): Scenario {
    const s = placed({ testMode: opts.testMode ?? true });
    s.signal(1, { kind: 'answered' }, 4);
    if (opts.optOut) s.signal(2, { kind: 'opt_out' }, 10.5);
    if (opts.consentRefused) s.signal(3, { kind: 'consent_refused' }, 7.5);
    s.signal(4, { kind: 'hangup', status: 'completed', end_reason: 'completed', duration_seconds: 12 }, 16);
    return s;
  }

  it('recording_ready after the end → session.recording_completed with the full payload', () => {
    const events = ended().signal(5, recordingReady, 41);
    expect(events.map((e) => e.type)).toEqual(['session.recording_completed', 'session.signal_applied']);
    expect(events[0]!.data).toEqual({
      session_id: SESSION_ID,
      campaign_id: null,
      contact_id: null,
      from_number: FROM,
      to_number: TO,
      phone_number: TO,
      email: null,
      first_name: null,
      last_name: null,
      recording_id: 'rec_abcdefghij0123456789',
      status: 'completed',
      channels: 'dual',
      started_at: at(4),
      ended_at: at(16),
      duration_seconds: 12,
      recording_url: 'https://api.example/recordings/rec_abcdefghij0123456789.wav',
    });
  });

  it('recording_ready before the end, or a second one, decides no recording', () => {
    const s = placed();
    s.signal(1, { kind: 'answered' }, 4);
    expect(catalogTypes(s.signal(2, recordingReady, 5))).toEqual([]);
    const done = ended();
    done.signal(5, recordingReady, 41);
    expect(catalogTypes(done.signal(6, { ...recordingReady, recording_id: 'rec_zzzzzzzzzz0123456789' }, 42))).toEqual(
      [],
    );
  });

  it('opt-out + recording_ready → recording_completed and pending_purge with purge_after = at + grace', () => {
    const s = ended({ optOut: true });
    const events = s.signal(5, recordingReady, 41);
    expect(events.map((e) => e.type)).toEqual([
      'session.recording_completed',
      'session.opt_out_recording_pending_purge',
      'session.signal_applied',
    ]);
    expect(events[1]!.data).toEqual({
      session_id: SESSION_ID,
      recording_id: 'rec_abcdefghij0123456789',
      purge_after: new Date(T0 + 41_000 + GRACE_MS).toISOString(),
    });
    const short = ended({ optOut: true }).signal(5, recordingReady, 41, { purgeGraceMs: 2000 });
    expect(short[1]!.data).toMatchObject({ purge_after: at(43) });
  });

  it('purge → session.opt_out_recording_purged once', () => {
    const s = ended({ optOut: true });
    s.signal(5, recordingReady, 41);
    const purged = s.when({ type: 'purge_recording', at: at(41 + 7 * 86400) });
    expect(purged).toEqual([
      {
        type: 'session.opt_out_recording_purged',
        data: { session_id: SESSION_ID, recording_id: 'rec_abcdefghij0123456789', purged_at: at(41 + 7 * 86400) },
      },
    ]);
    expect(s.when({ type: 'purge_recording', at: at(41 + 7 * 86400 + 1) })).toEqual([]);
    expect(s.state()).toMatchObject({ recording: { id: 'rec_abcdefghij0123456789', state: 'purged' } });
  });

  it('purge of a recording that is not pending purge (no opt-out, or no recording) → nothing', () => {
    const s = ended();
    expect(s.when({ type: 'purge_recording', at: at(50) })).toEqual([]);
    s.signal(5, recordingReady, 41);
    expect(s.when({ type: 'purge_recording', at: at(50) })).toEqual([]);
  });

  it('consent refused → no recording', () => {
    const s = ended({ consentRefused: true });
    expect(catalogTypes(s.signal(5, recordingReady, 41))).toEqual([]);
    expect(s.state()).toMatchObject({ recording: null });
  });
});

/** Plays a test-pool script through the decider (record steps become recording_ready). */
function playScript(to: string, testMode = true) {
  const s = placed({ to, testMode });
  let recordingSeq = 0;
  scriptFor(to).forEach((step, i) => {
    const seq = i + 1;
    const signal: MediaSignal =
      'signal' in step
        ? step.signal
        : {
            kind: 'recording_ready',
            recording_id: `rec_script${String(++recordingSeq).padStart(10, '0')}`,
            duration_seconds: step.record.duration_seconds,
            channels: 'dual',
          };
    s.signal(seq, signal, step.at);
  });
  return s;
}

describe('session decider driven by the test-pool scripts', () => {
  const expected: Record<string, string[]> = {
    [TEST_NUMBERS.completed]: ['session.created', 'session.started', 'session.ended', 'session.recording_completed'],
    [TEST_NUMBERS.noAnswer]: ['session.created', 'session.failed'],
    [TEST_NUMBERS.busy]: ['session.created', 'session.failed'],
    [TEST_NUMBERS.voicemail]: ['session.created', 'session.failed'],
    [TEST_NUMBERS.failed]: ['session.created', 'session.failed'],
    [TEST_NUMBERS.transfer]: [
      'session.created',
      'session.started',
      'session.transfer_initiated',
      'session.ended',
      'session.recording_completed',
    ],
    [TEST_NUMBERS.optOut]: [
      'session.created',
      'session.started',
      'session.opt_out_detected',
      'session.ended',
      'session.recording_completed',
      'session.opt_out_recording_pending_purge',
    ],
    [TEST_NUMBERS.consentRefused]: ['session.created', 'session.started', 'session.consent_refused', 'session.ended'],
    [TEST_NUMBERS.functionTimeout]: [
      'session.created',
      'session.started',
      'function.timeout',
      'session.ended',
      'session.recording_completed',
    ],
    [TEST_NUMBERS.agentDisposition]: [
      'session.created',
      'session.started',
      'session.ended',
      'session.recording_completed',
    ],
  };

  it.each(Object.entries(expected))('%s plays the documented scenario', (to, types) => {
    const s = playScript(to);
    expect(catalogTypes(s.events())).toEqual(types);
    expectCatalogValid(s.events());
    const outcome = s.events().find((e) => e.type === 'session.ended' || e.type === 'session.failed')!;
    expect(outcome.data).toMatchObject({ actual_cost_cents: 0, to_number: to });
  });

  it('scripts: outcome statuses and end reasons', () => {
    const outcome = (to: string) =>
      playScript(to)
        .events()
        .find((e) => e.type === 'session.ended' || e.type === 'session.failed')!.data as {
        status: string;
        end_reason: string;
        duration_seconds: number;
      };
    expect(outcome(TEST_NUMBERS.noAnswer)).toMatchObject({ status: 'no_answer', duration_seconds: 0 });
    expect(outcome(TEST_NUMBERS.busy)).toMatchObject({ status: 'busy', duration_seconds: 0 });
    expect(outcome(TEST_NUMBERS.voicemail)).toMatchObject({ status: 'voicemail', duration_seconds: 0 });
    expect(outcome(TEST_NUMBERS.failed)).toMatchObject({ status: 'failed', duration_seconds: 0 });
    expect(outcome(TEST_NUMBERS.completed)).toMatchObject({
      status: 'completed',
      end_reason: 'completed',
      duration_seconds: 45,
    });
    expect(outcome(TEST_NUMBERS.transfer)).toMatchObject({ status: 'completed', duration_seconds: 60 });
    expect(outcome(TEST_NUMBERS.consentRefused)).toMatchObject({ status: 'completed', end_reason: 'consent_refused' });
    expect(outcome('+442071838750')).toMatchObject({ status: 'completed', duration_seconds: 45 }); // any unlisted number
  });

  it('recording length equals the call length in every recorded script', () => {
    for (const to of Object.values(TEST_NUMBERS)) {
      const events = playScript(to).events();
      const rec = find(events, 'session.recording_completed');
      const end = find(events, 'session.ended');
      if (rec) expect(rec.data.duration_seconds).toBe(end!.data.duration_seconds);
    }
  });

  it('production (billed) versions of the scripts cost ceil(minutes) × rate', () => {
    const cost = (to: string) => {
      const e = playScript(to, false)
        .events()
        .find((x) => x.type === 'session.ended' || x.type === 'session.failed')!;
      return (e.data as { actual_cost_cents: number }).actual_cost_cents;
    };
    expect(cost(TEST_NUMBERS.completed)).toBe(10); // 45 s
    expect(cost(TEST_NUMBERS.transfer)).toBe(10); // 60 s
    expect(cost(TEST_NUMBERS.functionTimeout)).toBe(10); // 30 s
    expect(cost(TEST_NUMBERS.noAnswer)).toBe(0);
  });
});

afterAll(() => {
  // Belt and braces: everything any test above decided is a valid catalog payload.
  expect(emitted.filter((e) => isCatalogType(e.type)).length).toBeGreaterThan(50);
  expectCatalogValid(emitted);
});
