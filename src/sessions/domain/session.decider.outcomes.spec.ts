/**
 * Given/when/then on the session decider: how a call ends (session.ended or session.failed), its
 * duration and its cost. Every catalog event it emits is checked against the catalog schema.
 */
import { fold } from '../../kernel/decider';
import {
  answered,
  applied,
  at,
  catalogTypes,
  emitted,
  eventMatching,
  expectCatalogValid,
  FROM,
  placed,
  SESSION_ID,
  signal,
  spec,
  step,
  TO,
  TRANSCRIPT_URL,
  turn,
} from '../../../test/support/session-decider-fixtures';
import { sessionDecider, type Live, SessionEvent } from './session.decider';

describe('session decider: a completed call', () => {
  /** Answered at 4 s, two turns, a tool-only turn and a function call: each step given/when/then. */
  function conversation(testMode: boolean): SessionEvent[] {
    let history = step(placed({ testMode }), signal(1, { kind: 'answered' }, 4), [
      { type: 'session.started', data: { session_id: SESSION_ID, started_at: at(4) } },
      applied(1, 'answered'),
    ]);
    history = step(history, signal(2, { kind: 'turn', role: 'agent', content: 'Hello there.', t: 0.5 }, 4.5), [
      { type: 'session.transcript_appended', data: { entry: { role: 'agent', content: 'Hello there.', t: 0.5 } } },
      applied(2, 'turn'),
    ]);
    // A turn that is only a tool call (no words) is not kept: no empty turn in the transcript.
    history = step(history, signal(3, { kind: 'turn', role: 'agent', t: 7 }, 11), [applied(3, 'turn')]);
    history = step(
      history,
      signal(4, { kind: 'function_invoked', name: 'find_open_slots', status: 'succeeded', duration_ms: 840 }, 12),
      [
        {
          type: 'session.function_invoked',
          data: { invocation: { name: 'find_open_slots', status: 'succeeded', duration_ms: 840 } },
        },
        applied(4, 'function_invoked'),
      ],
    );
    return step(
      history,
      signal(5, { kind: 'turn', role: 'user', content: 'Thursday works.', t: 13 }, 17),
      turn(5, { role: 'user', content: 'Thursday works.', t: 13 }),
    );
  }

  const hangup = (duration: number) =>
    signal(
      6,
      { kind: 'hangup', status: 'completed', end_reason: 'completed', duration_seconds: duration },
      4 + duration,
    );

  const completed: SessionEvent = {
    type: 'session.ended',
    data: {
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
        { role: 'user', content: 'Thursday works.', t: 13 },
      ],
      transcript_url: TRANSCRIPT_URL,
      function_invocations: [{ name: 'find_open_slots', status: 'succeeded', duration_ms: 840 }],
      status: 'completed',
      started_at: at(4),
    },
  };

  it('keeps no turn without words: none for a tool-only turn, none for a blank one', () => {
    const live = conversation(true);
    spec
      .given(live)
      .when(signal(6, { kind: 'turn', role: 'agent', content: ' \n ', t: 14 }, 18))
      .then([applied(6, 'turn')]);
    const transcript = (fold(sessionDecider, live) as Live).transcript;
    expect(transcript.every((entry) => typeof entry.content === 'string' && entry.content.trim() !== '')).toBe(true);
  });

  it('emits session.started, the transcript and function invocation (internal), then session.ended with the exact payload', () => {
    const history = step(conversation(true), hangup(45), [completed, applied(6, 'hangup')]);
    expect(catalogTypes(history)).toEqual(['session.created', 'session.started', 'session.ended']);
    expect(fold(sessionDecider, history)).toMatchObject({ status: 'completed', durationSeconds: 45, endedAt: at(49) });
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
    spec
      .given(conversation(false))
      .when(hangup(duration))
      .then([
        eventMatching('session.ended', { duration_seconds: duration, actual_cost_cents: cents }),
        applied(6, 'hangup'),
      ]);
  });

  it('a test-mode call costs 0 whatever its length', () => {
    spec
      .given(conversation(true))
      .when(hangup(3600))
      .then([eventMatching('session.ended', { duration_seconds: 3600, actual_cost_cents: 0 }), applied(6, 'hangup')]);
  });

  it('uses the configured rate per started minute', () => {
    spec
      .given([...placed({ testMode: false }), ...answered(1, 0)])
      .when(
        signal(2, { kind: 'hangup', status: 'completed', end_reason: 'completed', duration_seconds: 90 }, 90, {
          centsPerStartedMinute: 7,
        }),
      )
      .then([eventMatching('session.ended', { actual_cost_cents: 14 }), applied(2, 'hangup')]);
  });

  it('without a reported duration, the duration is ended_at − started_at (rounded seconds)', () => {
    spec
      .given([...placed({ testMode: false }), ...answered(1, 10)])
      .when(signal(2, { kind: 'hangup', status: 'completed', end_reason: 'completed' }, 10 + 75.4))
      .then([
        eventMatching('session.ended', {
          duration_seconds: 75,
          actual_cost_cents: 20,
          started_at: at(10),
          ended_at: at(85.4),
        }),
        applied(2, 'hangup'),
      ]);
  });

  it('transcript_url is null when the transcript is empty', () => {
    spec
      .given([...placed(), ...answered(1, 1)])
      .when(signal(2, { kind: 'hangup', status: 'completed', end_reason: 'completed', duration_seconds: 3 }, 4))
      .then([
        eventMatching('session.ended', {
          transcript: [],
          transcript_url: null,
          function_invocations: [],
          status: 'completed',
        }),
        applied(2, 'hangup'),
      ]);
  });

  it('a second hangup after the end decides no further outcome', () => {
    const history = step(
      [...conversation(true), completed, applied(6, 'hangup')],
      signal(7, { kind: 'hangup', status: 'failed', end_reason: 'carrier_error' }, 60),
      [applied(7, 'hangup')],
    );
    expect(fold(sessionDecider, history)).toMatchObject({ status: 'completed' });
  });

  it('signals after the end add nothing to the outcome', () => {
    let history = [...conversation(true), completed, applied(6, 'hangup')];
    history = step(history, signal(7, { kind: 'turn', role: 'user', content: 'late', t: 60 }, 60), [
      applied(7, 'turn'),
    ]);
    history = step(history, signal(8, { kind: 'transfer', transfer_number: '+14155550199' }, 61), [
      applied(8, 'transfer'),
    ]);
    history = step(history, signal(9, { kind: 'opt_out' }, 62), [applied(9, 'opt_out')]);
    step(history, signal(10, { kind: 'answered' }, 63), [applied(10, 'answered')]);
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
      const history = step(
        placed({ testMode }),
        signal(1, { kind: 'hangup', status, end_reason: endReason, duration_seconds: 30 }, 30),
        [
          {
            type: 'session.failed',
            data: {
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
            },
          },
          applied(1, 'hangup'),
        ],
      );
      expect(fold(sessionDecider, history)).toMatchObject({ status });
    }
  });

  it('a "completed" hangup for a call that never started is reported as session.failed (status failed)', () => {
    spec
      .given(placed())
      .when(signal(1, { kind: 'hangup', status: 'completed', end_reason: 'completed' }, 5))
      .then([
        eventMatching('session.failed', { status: 'failed', started_at: null, duration_seconds: 0 }),
        applied(1, 'hangup'),
      ]);
  });

  it('a failure after answer keeps started_at and the measured duration', () => {
    spec
      .given([
        ...placed({ testMode: false }),
        ...answered(1, 2),
        ...turn(2, { role: 'agent', content: 'Hello?', t: 0.2 }),
      ])
      .when(signal(3, { kind: 'hangup', status: 'failed', end_reason: 'media_error' }, 32))
      .then([
        eventMatching('session.failed', {
          status: 'failed',
          started_at: at(2),
          duration_seconds: 30,
          actual_cost_cents: 10,
          transcript_url: TRANSCRIPT_URL,
        }),
        applied(3, 'hangup'),
      ]);
  });
});

afterAll(() => {
  // Belt and braces: everything any test above decided is a valid catalog payload.
  expect(catalogTypes(emitted).length).toBeGreaterThan(25);
  expectCatalogValid(emitted);
});
