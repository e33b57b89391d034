/**
 * Given/when/then on the session decider: the recording of a call, its purge after an opt-out, and no
 * recording once consent was refused. Every catalog event it emits is checked against the catalog schema.
 */
import { fold } from '../../kernel/decider';
import {
  answered,
  applied,
  at,
  catalogTypes,
  emitted,
  ended,
  expectCatalogValid,
  GRACE_MS,
  placed,
  recordingCompleted,
  SESSION_ID,
  signal,
  spec,
  step,
  T0,
  TO,
} from '../../../test/support/session-decider-fixtures';
import { sessionDecider, SessionEvent } from './session.decider';

describe('session decider: recordings, opt-out purge and consent', () => {
  const recordingReady = {
    kind: 'recording_ready',
    recording_id: 'rec_abcdefghij0123456789',
    duration_seconds: 12,
    channels: 'dual',
  } as const;

  /** A call answered at 4 s and ended at 16 s, each step given/when/then. */
  function endedCall(opts: { optOut?: boolean; consentRefused?: boolean; testMode?: boolean } = {}): SessionEvent[] {
    let history = step(placed({ testMode: opts.testMode ?? true }), signal(1, { kind: 'answered' }, 4), answered(1, 4));
    if (opts.optOut) {
      history = step(history, signal(2, { kind: 'opt_out' }, 10.5), [
        {
          type: 'session.opt_out_detected',
          data: { session_id: SESSION_ID, phone_number: TO, detected_at: at(10.5) },
        },
        applied(2, 'opt_out'),
      ]);
    }
    if (opts.consentRefused) {
      history = step(history, signal(3, { kind: 'consent_refused' }, 7.5), [
        { type: 'session.consent_refused', data: { session_id: SESSION_ID, refused_at: at(7.5) } },
        applied(3, 'consent_refused'),
      ]);
    }
    return step(
      history,
      signal(4, { kind: 'hangup', status: 'completed', end_reason: 'completed', duration_seconds: 12 }, 16),
      [
        ended({ end_reason: 'completed', started_at: at(4), ended_at: at(16), duration_seconds: 12 }),
        applied(4, 'hangup'),
      ],
    );
  }

  const recorded = recordingCompleted(4, 16);
  /** The grace after the recording was ready at 41 s. */
  const purgeAfter = new Date(T0 + 41_000 + GRACE_MS).toISOString();
  const pendingPurge = (after: string): SessionEvent => ({
    type: 'session.opt_out_recording_pending_purge',
    data: { session_id: SESSION_ID, recording_id: 'rec_abcdefghij0123456789', purge_after: after },
  });

  it('recording_ready after the end → session.recording_completed with the full payload', () => {
    spec
      .given(endedCall())
      .when(signal(5, recordingReady, 41))
      .then([recorded, applied(5, 'recording_ready')]);
  });

  it('recording_ready before the end, or a second one, decides no recording', () => {
    spec
      .given([...placed(), ...answered(1, 4)])
      .when(signal(2, recordingReady, 5))
      .then([applied(2, 'recording_ready')]);
    spec
      .given([...endedCall(), recorded, applied(5, 'recording_ready')])
      .when(signal(6, { ...recordingReady, recording_id: 'rec_zzzzzzzzzz0123456789' }, 42))
      .then([applied(6, 'recording_ready')]);
  });

  it('opt-out + recording_ready → recording_completed and pending_purge with purge_after = at + grace', () => {
    spec
      .given(endedCall({ optOut: true }))
      .when(signal(5, recordingReady, 41))
      .then([recorded, pendingPurge(purgeAfter), applied(5, 'recording_ready')]);
    spec
      .given(endedCall({ optOut: true }))
      .when(signal(5, recordingReady, 41, { purgeGraceMs: 2000 }))
      .then([recorded, pendingPurge(at(43)), applied(5, 'recording_ready')]);
  });

  it('purge → session.opt_out_recording_purged once', () => {
    const history = step(
      [...endedCall({ optOut: true }), recorded, pendingPurge(purgeAfter), applied(5, 'recording_ready')],
      { type: 'purge_recording', at: at(41 + 7 * 86400) },
      [
        {
          type: 'session.opt_out_recording_purged',
          data: { session_id: SESSION_ID, recording_id: 'rec_abcdefghij0123456789', purged_at: at(41 + 7 * 86400) },
        },
      ],
    );
    spec
      .given(history)
      .when({ type: 'purge_recording', at: at(41 + 7 * 86400 + 1) })
      .thenNothingHappened();
    expect(fold(sessionDecider, history)).toMatchObject({
      recording: { id: 'rec_abcdefghij0123456789', state: 'purged' },
    });
  });

  it('purge of a recording that is not pending purge (no opt-out, or no recording) → nothing', () => {
    spec
      .given(endedCall())
      .when({ type: 'purge_recording', at: at(50) })
      .thenNothingHappened();
    spec
      .given([...endedCall(), recorded, applied(5, 'recording_ready')])
      .when({ type: 'purge_recording', at: at(50) })
      .thenNothingHappened();
  });

  it('consent refused → no recording', () => {
    const history = step(endedCall({ consentRefused: true }), signal(5, recordingReady, 41), [
      applied(5, 'recording_ready'),
    ]);
    expect(fold(sessionDecider, history)).toMatchObject({ recording: null });
  });
});

afterAll(() => {
  // Belt and braces: everything any test above decided is a valid catalog payload.
  expect(catalogTypes(emitted).length).toBeGreaterThan(20);
  expectCatalogValid(emitted);
});
