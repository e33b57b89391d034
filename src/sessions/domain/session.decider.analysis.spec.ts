/**
 * Given/when/then on the session decider: the post-call analysis (docs/conversations-api.md,
 * "Post-call analysis"; decision 193). A call whose agent has an `analysis` plan, that was answered
 * and has a transcript, ends with `session.analysis_requested` after its terminal event, whatever its
 * final status; `session.analysis_completed` is stored once, with what the plan did not ask for null.
 * Every catalog event it emits is checked against the catalog schema.
 */
import { fold } from '../../kernel/decider';
import {
  answered,
  applied,
  at,
  ctx,
  emitted,
  ended,
  expectCatalogValid,
  failed,
  placed,
  SESSION_ID,
  signal,
  spec,
  step,
  TRANSCRIPT_URL,
  turn,
} from '../../../test/support/session-decider-fixtures';
import type { AgentConfig, SessionEvent } from './session.decider';
import { sessionDecider } from './session.decider';
import { analysisSkip, type SetAnalysis } from './session.analysis';

const SCHEMA = { type: 'object', properties: { booked: { type: 'boolean' } }, required: ['booked'] };
const FULL_PLAN: AgentConfig = {
  prompt: 'Book a cleaning.',
  analysis: { summary: true, structured_data: SCHEMA, success_criteria: 'A cleaning was booked.' },
};
const USER_TURN = { role: 'user' as const, content: 'Thursday at 3 works, book it.', t: 1 };

/** Placed with `agentConfig`, answered at 4 s, one user turn (unless `silent`): the history before the end. */
function liveCall(agentConfig: AgentConfig, opts: { silent?: boolean } = {}): SessionEvent[] {
  const history = step(placed({ agentConfig }), signal(1, { kind: 'answered' }, 4), answered(1, 4));
  return opts.silent ? history : step(history, signal(2, { kind: 'turn', ...USER_TURN }, 5), turn(2, USER_TURN));
}

const requested: SessionEvent = { type: 'session.analysis_requested', data: { session_id: SESSION_ID } };
const hangUp = signal(3, { kind: 'hangup', status: 'completed', end_reason: 'completed', duration_seconds: 10 }, 14);
const endedAfterTurn = ended({
  end_reason: 'completed',
  started_at: at(4),
  ended_at: at(14),
  duration_seconds: 10,
  actual_cost_cents: 0,
  transcript: [USER_TURN],
  transcript_url: TRANSCRIPT_URL,
});

/** A completed call of this agent, ended with the analysis requested. */
const completedCall = (agentConfig: AgentConfig = FULL_PLAN): SessionEvent[] =>
  step(liveCall(agentConfig), hangUp, [endedAfterTurn, requested, applied(3, 'hangup')]);

const setAnalysis = (over: Partial<SetAnalysis['analysis']> = {}): SetAnalysis => ({
  type: 'set_analysis',
  analysis: { summary: 'Booked for Thursday at 3.', structured_data: { booked: true }, success: true, ...over },
});

const completed = (analysis: SetAnalysis['analysis']): SessionEvent => ({
  type: 'session.analysis_completed',
  data: { session_id: SESSION_ID, analysis },
});

function live(history: readonly SessionEvent[]) {
  const state = fold(sessionDecider, history);
  if (state.status === 'none') throw new Error('no session');
  return state;
}

describe('session decider: the end of a call its agent asked analysed', () => {
  it('a completed call: session.ended, then session.analysis_requested', () => {
    completedCall();
  });

  it('a call that failed after it was answered is analysed too (a lost media process, the watchdog)', () => {
    const lost = signal(3, { kind: 'hangup', status: 'failed', end_reason: 'media_lost', duration_seconds: 10 }, 14);
    spec
      .given(liveCall(FULL_PLAN))
      .when(lost)
      .then([
        failed({
          status: 'failed',
          end_reason: 'media_lost',
          started_at: at(4),
          ended_at: at(14),
          duration_seconds: 10,
          actual_cost_cents: 0,
          transcript: [USER_TURN],
          transcript_url: TRANSCRIPT_URL,
        }),
        requested,
        applied(3, 'hangup'),
      ]);
    spec
      .given(liveCall(FULL_PLAN))
      .when({ type: 'watchdog', ...ctx(3634) })
      .then([
        failed({
          status: 'failed',
          end_reason: 'watchdog_timeout',
          started_at: at(4),
          ended_at: at(3634),
          duration_seconds: 3630,
          actual_cost_cents: 0,
          transcript: [USER_TURN],
          transcript_url: TRANSCRIPT_URL,
        }),
        requested,
      ]);
  });

  it('none for an agent without a plan, or with a plan that asks nothing', () => {
    for (const agentConfig of [
      { prompt: 'Hi' },
      { prompt: 'Hi', analysis: {} },
      { prompt: 'Hi', analysis: { summary: false } },
    ]) {
      spec
        .given(liveCall(agentConfig))
        .when(hangUp)
        .then([{ ...endedAfterTurn }, applied(3, 'hangup')]);
      expect(analysisSkip(live(step(liveCall(agentConfig), hangUp, [endedAfterTurn, applied(3, 'hangup')])))).toBe(
        'not_asked',
      );
    }
  });

  it('none for a call that was never answered, or has no transcript', () => {
    spec
      .given(placed({ agentConfig: FULL_PLAN }))
      .when(signal(1, { kind: 'hangup', status: 'no_answer', end_reason: 'no_answer' }, 30))
      .then([failed({ status: 'no_answer', end_reason: 'no_answer', ended_at: at(30) }), applied(1, 'hangup')]);
    spec
      .given(liveCall(FULL_PLAN, { silent: true }))
      .when(hangUp)
      .then([
        ended({ end_reason: 'completed', started_at: at(4), ended_at: at(14), duration_seconds: 10 }),
        applied(3, 'hangup'),
      ]);
  });

  it('a keypad turn is a transcript: the call is analysed', () => {
    const keys = { role: 'user' as const, content: '', dtmf: '1', t: 1 };
    let history = step(placed({ agentConfig: FULL_PLAN }), signal(1, { kind: 'answered' }, 4), answered(1, 4));
    history = step(history, signal(2, { kind: 'turn', role: 'user', content: '', dtmf: '1', t: 1 }, 5), [
      { type: 'session.transcript_appended', data: { entry: keys } },
      applied(2, 'turn'),
    ]);
    spec
      .given(history)
      .when(hangUp)
      .then([
        ended({
          end_reason: 'completed',
          started_at: at(4),
          ended_at: at(14),
          duration_seconds: 10,
          transcript: [keys],
          transcript_url: TRANSCRIPT_URL,
        }),
        requested,
        applied(3, 'hangup'),
      ]);
  });

  it('the state keeps the plan from session.placed', () => {
    expect(live(liveCall(FULL_PLAN))).toMatchObject({ analysisPlan: FULL_PLAN.analysis, analysed: false });
    expect(live(liveCall({ prompt: 'Hi' }))).toMatchObject({ analysisPlan: null });
    expect(analysisSkip(live(liveCall(FULL_PLAN)))).toBe('not_ended');
    expect(analysisSkip(live(completedCall()))).toBeNull();
    // A private call (a number verification) keeps no words: never analysed.
    expect(analysisSkip({ ...live(completedCall()), private: true })).toBe('private');
  });
});

describe('session decider: session.analysis_completed', () => {
  it('stores the analysis', () => {
    spec
      .given(completedCall())
      .when(setAnalysis())
      .then(completed({ summary: 'Booked for Thursday at 3.', structured_data: { booked: true }, success: true }));
  });

  it('once: a second one (the timer run twice) decides nothing, whatever it says', () => {
    const history = [
      ...completedCall(),
      completed({ summary: 'Booked for Thursday at 3.', structured_data: { booked: true }, success: true }),
    ];
    spec.given(history).when(setAnalysis()).thenNothingHappened();
    spec
      .given(history)
      .when(setAnalysis({ summary: 'Another.', success: false }))
      .thenNothingHappened();
    expect(analysisSkip(live(history))).toBe('already_done');
    expect(live(history).analysed).toBe(true);
  });

  it('what the plan did not ask for is null, whatever the evaluator said', () => {
    spec
      .given(completedCall({ prompt: 'Hi', analysis: { summary: true } }))
      .when(setAnalysis())
      .then(completed({ summary: 'Booked for Thursday at 3.', structured_data: null, success: null }));
    spec
      .given(completedCall({ prompt: 'Hi', analysis: { success_criteria: 'Booked.' } }))
      .when(setAnalysis({ success: false }))
      .then(completed({ summary: null, structured_data: null, success: false }));
    spec
      .given(completedCall({ prompt: 'Hi', analysis: { structured_data: SCHEMA } }))
      .when(setAnalysis({ structured_data: null }))
      .then(completed({ summary: null, structured_data: null, success: null }));
  });

  it('nothing for a session that gets no analysis', () => {
    const noPlan = step(liveCall({ prompt: 'Hi' }), hangUp, [endedAfterTurn, applied(3, 'hangup')]);
    spec.given(noPlan).when(setAnalysis()).thenNothingHappened();
    const noAnswer = [
      ...placed({ agentConfig: FULL_PLAN }),
      failed({ status: 'no_answer', end_reason: 'no_answer', ended_at: at(30) }),
    ];
    spec.given(noAnswer).when(setAnalysis()).thenNothingHappened();
    expect(analysisSkip(live(noAnswer))).toBe('not_answered');
  });

  it('refused while the call is not over; not_found for a session that does not exist', () => {
    spec
      .given(placed({ agentConfig: FULL_PLAN }))
      .when(setAnalysis())
      .thenThrows({ code: 'conflict' });
    spec.given(liveCall(FULL_PLAN)).when(setAnalysis()).thenThrows({ code: 'conflict' });
    spec.given([]).when(setAnalysis()).thenThrows('not_found');
  });
});

afterAll(() => expectCatalogValid(emitted));
