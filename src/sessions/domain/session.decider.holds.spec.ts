/**
 * A production call held by a dispatch hold (a depleted balance) says why it waits: `hold` and
 * `release` record it on the session (`session.dispatch_held`, `session.dispatch_released`), the
 * reason clears once the call goes out, starts or ends, and a call still held when its watchdog fires
 * ends with the hold's reason instead of a bare timeout.
 */
import { fold } from '../../kernel/decider';
import {
  answered,
  at,
  checkedSessionDecider,
  ctx,
  emitted,
  expectCatalogValid,
  failed,
  placeCommand,
  placed,
  SESSION_ID,
  signal,
  spec,
} from '../../../test/support/session-decider-fixtures';
import type { Live, SessionEvent } from './session.decider';

afterAll(() => expectCatalogValid(emitted));

const REASON = 'insufficient_credits';
const held: SessionEvent = { type: 'session.dispatch_held', data: { session_id: SESSION_ID, reason: REASON } };
const releasedEvent: SessionEvent = { type: 'session.dispatch_released', data: { session_id: SESSION_ID } };
const production = placed({ testMode: false });
const holdOf = (history: readonly SessionEvent[]) => (fold(checkedSessionDecider, history) as Live).holdReason;

describe('session decider: a held call says why it waits', () => {
  it('a production call placed while held is stored held, in the same decision', () => {
    spec
      .given([])
      .when(placeCommand({ testMode: false, holdReason: REASON }))
      .then([...production, held]);
    expect(holdOf([...production, held])).toBe(REASON);
  });

  it('a test call is never held, whatever the placement was told', () => {
    spec
      .given([])
      .when(placeCommand({ testMode: true, holdReason: REASON }))
      .then(placed({ testMode: true }));
  });

  it('a queued call found held is marked once; a released one is cleared once', () => {
    spec.given(production).when({ type: 'hold', reason: REASON }).then(held);
    spec
      .given([...production, held])
      .when({ type: 'hold', reason: REASON })
      .thenNothingHappened();
    spec
      .given([...production, held])
      .when({ type: 'release' })
      .then(releasedEvent);
    spec.given(production).when({ type: 'release' }).thenNothingHappened();
    expect(holdOf([...production, held, releasedEvent])).toBeNull();
  });

  it('a call that started or ended is neither held nor released, and its reason is cleared', () => {
    const started = [...production, held, ...answered(1, 4)];
    expect(holdOf(started)).toBeNull();
    spec.given(started).when({ type: 'hold', reason: REASON }).thenNothingHappened();
    spec.given(started).when({ type: 'release' }).thenNothingHappened();
  });

  it('a call still held when its watchdog fires ends failed with the hold reason', () => {
    spec
      .given([...production, held])
      .when({ type: 'watchdog', ...ctx(3630) })
      .then(failed({ status: 'failed', end_reason: REASON, ended_at: at(3630) }));
    expect(holdOf([...production, held, failed({ status: 'failed', end_reason: REASON, ended_at: at(3630) })])).toBe(
      null,
    );
  });

  it('a call that is not held still ends with watchdog_timeout', () => {
    spec
      .given(production)
      .when({ type: 'watchdog', ...ctx(3630) })
      .then(failed({ status: 'failed', end_reason: 'watchdog_timeout', ended_at: at(3630) }));
    // A released call that then hangs is a timeout again.
    spec
      .given([...production, held, releasedEvent])
      .when(signal(1, { kind: 'hangup', status: 'no_answer', end_reason: 'no_answer' }, 40))
      .then([
        failed({ status: 'no_answer', end_reason: 'no_answer', ended_at: at(40) }),
        { type: 'session.signal_applied', data: { seq: 1, kind: 'hangup' } },
      ]);
  });
});
