/**
 * Given/when/then on the pure session decider: no I/O, no clock. Every catalog event it emits is
 * checked against the catalog schema (test/support/session-decider-fixtures.ts). This file: placing a
 * call, signal sequence numbers, mid-call events and the watchdog. Outcomes, recordings and the test-pool
 * scripts are in session.decider.{outcomes,recordings,scripts}.spec.ts.
 */
import { fold } from '../../kernel/decider';
import {
  answered,
  applied,
  at,
  catalogTypes,
  ctx,
  emitted,
  ended,
  eventMatching,
  expectCatalogValid,
  failed,
  FROM,
  placeCommand,
  placed,
  SESSION_ID,
  signal,
  spec,
  step,
  TO,
  turn,
} from '../../../test/support/session-decider-fixtures';
import type { MediaSignal } from './media-signal';
import { sessionDecider, sessionEdge, SessionEvent } from './session.decider';

describe('session decider: place', () => {
  it('place → session.placed (internal) and session.created (queued)', () => {
    spec
      .given([])
      .when(placeCommand({ agentConfig: { prompt: 'Hi', voice_id: 'voice_ava' } }))
      .then([
        {
          type: 'session.placed',
          data: {
            session_id: SESSION_ID,
            to_number: TO,
            from_number: FROM,
            campaign_id: null,
            contact_id: null,
            agent_config: { prompt: 'Hi', voice_id: 'voice_ava' },
            voice_id: 'voice_ava',
            test_mode: true,
            client_reference_id: null,
            direction: 'outbound',
            email: null,
            first_name: null,
            last_name: null,
          },
        },
        {
          type: 'session.created',
          data: {
            session_id: SESSION_ID,
            to_number: TO,
            from_number: FROM,
            campaign_id: null,
            contact_id: null,
            voice_id: 'voice_ava',
            status: 'queued',
          },
        },
      ]);
  });

  it('uses voice_default when the agent config names no voice, and carries campaign/contact ids', () => {
    spec
      .given([])
      .when(placeCommand({ campaignId: 'cmp_1', contactId: 'con_1', clientReferenceId: 'ref-1' }))
      .then([
        {
          type: 'session.placed',
          data: {
            session_id: SESSION_ID,
            to_number: TO,
            from_number: FROM,
            campaign_id: 'cmp_1',
            contact_id: 'con_1',
            agent_config: { prompt: 'Be helpful.' },
            voice_id: 'voice_default',
            test_mode: true,
            client_reference_id: 'ref-1',
            direction: 'outbound',
            email: null,
            first_name: null,
            last_name: null,
          },
        },
        {
          type: 'session.created',
          data: {
            session_id: SESSION_ID,
            to_number: TO,
            from_number: FROM,
            campaign_id: 'cmp_1',
            contact_id: 'con_1',
            voice_id: 'voice_default',
            status: 'queued',
          },
        },
      ]);
  });

  it("a campaign call keeps the contact's identity in session.placed", () => {
    const contact = { email: 'ada@example.com', first_name: 'Ada', last_name: null };
    spec
      .given([])
      .when(placeCommand({ campaignId: 'cmp_1', contactId: 'con_1', contact }))
      .then(placed({ campaignId: 'cmp_1', contactId: 'con_1', contact }));
    expect(fold(sessionDecider, placed({ contact }))).toMatchObject({ contact });
  });

  it('a session.placed stored before contacts existed (no email, first_name, last_name) reads them as null', () => {
    const [first, created] = placed();
    const {
      email: _e,
      first_name: _f,
      last_name: _l,
      ...older
    } = (first as Extract<SessionEvent, { type: 'session.placed' }>).data;
    const history: SessionEvent[] = [sessionEdge.decode({ type: 'session.placed', data: older }), created!];
    expect(fold(sessionDecider, history)).toMatchObject({
      contact: { email: null, first_name: null, last_name: null },
    });
  });

  it('a second place on the same stream decides nothing', () => {
    spec.given(placed()).when(placeCommand()).thenNothingHappened();
    spec
      .given(placed())
      .when(placeCommand({ toNumber: '+14155550101' }))
      .thenNothingHappened();
  });

  it('the state after placement is queued with nothing recorded', () => {
    spec.given([]).when(placeCommand()).then(placed());
    expect(fold(sessionDecider, placed())).toMatchObject({
      status: 'queued',
      sessionId: SESSION_ID,
      toNumber: TO,
      fromNumber: FROM,
      testMode: true,
      startedAt: null,
      seq: 0,
    });
  });

  it('any other command on a session that does not exist is not_found', () => {
    spec
      .given([])
      .when(signal(1, { kind: 'answered' }, 1))
      .thenThrows('not_found');
    spec
      .given([])
      .when({ type: 'watchdog', ...ctx(1) })
      .thenThrows('not_found');
    spec
      .given([])
      .when({ type: 'purge_recording', at: at(1) })
      .thenThrows('not_found');
  });
});

describe('session decider: signal sequence numbers', () => {
  it('a repeated seq is a no-op, and so is an older one', () => {
    let history = step(placed(), signal(1, { kind: 'answered' }, 1), answered(1, 1));
    history = step(
      history,
      signal(2, { kind: 'turn', role: 'agent', content: 'Hi', t: 0 }, 1.1),
      turn(2, { role: 'agent', content: 'Hi', t: 0 }),
    );
    spec
      .given(history)
      .when(signal(2, { kind: 'turn', role: 'agent', content: 'Hi', t: 0 }, 1.2))
      .thenNothingHappened();
    spec
      .given(history)
      .when(signal(1, { kind: 'answered' }, 1.3))
      .thenNothingHappened();
    spec
      .given(history)
      .when(signal(2, { kind: 'hangup', status: 'completed', end_reason: 'completed' }, 1.4))
      .thenNothingHappened();
    expect(fold(sessionDecider, history)).toMatchObject({
      status: 'in_progress',
      seq: 2,
      transcript: [{ role: 'agent', content: 'Hi', t: 0 }],
    });
  });

  it('records every applied seq, so a replayed history gives the same answer', () => {
    const history = step(placed(), signal(5, { kind: 'answered' }, 1), answered(5, 1));
    expect(fold(sessionDecider, history)).toMatchObject({ seq: 5 });
    spec
      .given(history)
      .when(signal(5, { kind: 'answered' }, 2))
      .thenNothingHappened();
  });

  it('answered twice (new seq) starts the session once', () => {
    spec
      .given([...placed(), ...answered(1, 1)])
      .when(signal(2, { kind: 'answered' }, 2))
      .then([applied(2, 'answered')]);
  });

  it('mid-call signals before answer are ignored', () => {
    const early: MediaSignal[] = [
      { kind: 'turn', role: 'agent', content: 'x', t: 0 },
      { kind: 'function_invoked', name: 'f', status: 'succeeded', duration_ms: 1 },
      { kind: 'transfer', transfer_number: '+14155550199' },
      { kind: 'opt_out' },
      { kind: 'consent_refused' },
      { kind: 'function_timeout', function_id: 'fn', name: 'f', timeout_ms: 5 },
    ];
    let history = placed();
    for (const [i, media] of early.entries()) {
      history = step(history, signal(i + 1, media, 0), [applied(i + 1, media.kind)]);
    }
  });
});

describe('session decider: mid-call events', () => {
  const live = (testMode = true): SessionEvent[] => [...placed({ testMode }), ...answered(1, 4)];
  const transferred: SessionEvent = {
    type: 'session.transfer_initiated',
    data: {
      session_id: SESSION_ID,
      to_number: TO,
      from_number: FROM,
      transfer_number: '+14155550199',
      transferred_at: at(13),
    },
  };

  it('transfer → session.transfer_initiated with both legs and the transfer number', () => {
    spec
      .given(live())
      .when(signal(2, { kind: 'transfer', transfer_number: '+14155550199' }, 13))
      .then([transferred, applied(2, 'transfer')]);
  });

  it('the session stays in_progress after a transfer and can still end', () => {
    const history = [...live(), transferred, applied(2, 'transfer')];
    expect(fold(sessionDecider, history)).toMatchObject({ status: 'in_progress' });
    spec
      .given(history)
      .when(signal(3, { kind: 'hangup', status: 'completed', end_reason: 'transferred', duration_seconds: 60 }, 64))
      .then([eventMatching('session.ended', { end_reason: 'transferred', status: 'completed' }), applied(3, 'hangup')]);
  });

  it('function timeout → function.timeout with session_id, function_id, name, timeout_ms', () => {
    spec
      .given(live())
      .when(
        signal(
          2,
          { kind: 'function_timeout', function_id: 'fn_check_inventory', name: 'check_inventory', timeout_ms: 5000 },
          16,
        ),
      )
      .then([
        {
          type: 'function.timeout',
          data: {
            session_id: SESSION_ID,
            function_id: 'fn_check_inventory',
            name: 'check_inventory',
            timeout_ms: 5000,
          },
        },
        applied(2, 'function_timeout'),
      ]);
  });

  it('opt-out → session.opt_out_detected once, with the called number', () => {
    const history = step(live(), signal(2, { kind: 'opt_out' }, 10.5), [
      { type: 'session.opt_out_detected', data: { session_id: SESSION_ID, phone_number: TO, detected_at: at(10.5) } },
      applied(2, 'opt_out'),
    ]);
    spec
      .given(history)
      .when(signal(3, { kind: 'opt_out' }, 11))
      .then([applied(3, 'opt_out')]);
  });

  it('consent refused → session.consent_refused once', () => {
    const history = step(live(), signal(2, { kind: 'consent_refused' }, 7.5), [
      { type: 'session.consent_refused', data: { session_id: SESSION_ID, refused_at: at(7.5) } },
      applied(2, 'consent_refused'),
    ]);
    spec
      .given(history)
      .when(signal(3, { kind: 'consent_refused' }, 8))
      .then([applied(3, 'consent_refused')]);
  });

  it('an agent disposition is kept as an internal event', () => {
    spec
      .given(live())
      .when(signal(2, { kind: 'agent_disposition', code: 'appointment_booked', note: 'Thursday' }, 20))
      .then([
        {
          type: 'session.agent_disposition_given',
          data: { code: 'appointment_booked', note: 'Thursday', at: at(20) },
        },
        applied(2, 'agent_disposition'),
      ]);
  });
});

describe('session decider: watchdog', () => {
  it('on a queued session → session.failed with end_reason watchdog_timeout and no duration', () => {
    spec
      .given(placed({ testMode: false }))
      .when({ type: 'watchdog', ...ctx(3630) })
      .then([
        failed({
          status: 'failed',
          end_reason: 'watchdog_timeout',
          duration_seconds: 0,
          actual_cost_cents: 0,
          started_at: null,
          ended_at: at(3630),
        }),
      ]);
  });

  it('on an in-progress session → session.failed watchdog_timeout, measured from started_at', () => {
    const history = step([...placed(), ...answered(1, 30)], { type: 'watchdog', ...ctx(3630) }, [
      failed({
        status: 'failed',
        end_reason: 'watchdog_timeout',
        started_at: at(30),
        ended_at: at(3630),
        duration_seconds: 3600,
        actual_cost_cents: 0,
      }),
    ]);
    expect(fold(sessionDecider, history)).toMatchObject({ status: 'failed' });
  });

  it('on a terminal session → nothing', () => {
    for (const hangup of [
      { kind: 'hangup', status: 'busy', end_reason: 'busy' },
      { kind: 'hangup', status: 'no_answer', end_reason: 'no_answer' },
    ] as const) {
      const history = step(placed(), signal(1, hangup, 2), [
        failed({ status: hangup.status, end_reason: hangup.end_reason, ended_at: at(2) }),
        applied(1, 'hangup'),
      ]);
      spec
        .given(history)
        .when({ type: 'watchdog', ...ctx(3630) })
        .thenNothingHappened();
    }
    const done = step(
      step(placed(), signal(1, { kind: 'answered' }, 1), answered(1, 1)),
      signal(2, { kind: 'hangup', status: 'completed', end_reason: 'completed', duration_seconds: 5 }, 6),
      [
        ended({ end_reason: 'completed', started_at: at(1), ended_at: at(6), duration_seconds: 5 }),
        applied(2, 'hangup'),
      ],
    );
    spec
      .given(done)
      .when({ type: 'watchdog', ...ctx(3630) })
      .thenNothingHappened();
    // And twice in a row only once.
    const twice = step(placed(), { type: 'watchdog', ...ctx(3630) }, [
      failed({ status: 'failed', end_reason: 'watchdog_timeout', ended_at: at(3630) }),
    ]);
    spec
      .given(twice)
      .when({ type: 'watchdog', ...ctx(3631) })
      .thenNothingHappened();
  });
});

afterAll(() => {
  // Belt and braces: everything any test above decided is a valid catalog payload.
  expect(catalogTypes(emitted).length).toBeGreaterThan(10);
  expectCatalogValid(emitted);
});
