/**
 * The answer-rate window on an injected clock: every time below is given, none is read. T0 is an
 * arbitrary instant; calls end at T0 + offsets.
 */
import { DeciderSpecification } from '../../../test/support/decider-specification';
import { EventCatalog } from '../../catalog/event-catalog';
import { numberEvents } from '../numbers.events';
import { fold } from '../../kernel/decider';
import {
  ANSWER_RATE,
  answerRateDecider,
  type AnswerRateCommand,
  type AnswerRateEvent,
  type EndedCall,
  nextAgeOut,
  shownRate,
  windowStats,
} from './answer-rate';

const spec = DeciderSpecification.for(answerRateDecider);
const NUMBER = '+14155550142';
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
const HOUR = 3_600_000;
const DAY = ANSWER_RATE.windowMs;
const iso = (ms: number) => new Date(ms).toISOString();

let seq = 0;
const call = (atMs: number, answered: boolean): EndedCall => ({
  session_id: `ses_${String(++seq).padStart(4, '0')}`,
  ended_at: iso(atMs),
  answered,
});
const ended = (c: EndedCall): AnswerRateEvent => ({ type: 'answer_rate.call_ended', data: c });
const record = (c: EndedCall, atMs = Date.parse(c.ended_at), minCalls = 10): AnswerRateCommand => ({
  type: 'record_call',
  call: c,
  phoneNumber: NUMBER,
  at: iso(atMs),
  minCalls,
});
const evaluate = (atMs: number, minCalls = 10): AnswerRateCommand => ({
  type: 'evaluate',
  phoneNumber: NUMBER,
  at: iso(atMs),
  minCalls,
});
const degraded = (rate: number, atMs: number): AnswerRateEvent => ({
  type: 'number.answer_rate_degraded',
  data: { phone_number: NUMBER, answer_rate: rate, window_start: iso(atMs - DAY), window_end: iso(atMs) },
});
const rearmed = (atMs: number, rate: number | null): AnswerRateEvent => ({
  type: 'answer_rate.rearmed',
  data: { rearmed_at: iso(atMs), answer_rate: rate },
});

/** Records the calls one by one as the decider would decide them, returning the whole history. */
function history(calls: readonly EndedCall[], minCalls = 10): AnswerRateEvent[] {
  const events: AnswerRateEvent[] = [];
  for (const c of calls)
    events.push(...answerRateDecider.decide(record(c, undefined, minCalls), fold(answerRateDecider, events)));
  return events;
}

const minutes = (n: number) => n * 60_000;

describe('answer-rate window', () => {
  it('10 answered then 3 missed: one alert at the 13th call, 10/13 floored to 0.7692, over the last 24 hours', () => {
    const answered = Array.from({ length: 10 }, (_, i) => call(T0 + minutes(i), true));
    const missed = [call(T0 + minutes(10), false), call(T0 + minutes(11), false)];
    const last = call(T0 + minutes(12), false);
    spec
      .given(history([...answered, ...missed]))
      .when(record(last))
      .then([ended(last), degraded(0.7692, T0 + minutes(12))]);
    expect(shownRate(10 / 13)).toBe(0.7692);
  });

  it('minimum sample: 9 unanswered calls say nothing; the 10th fires', () => {
    const nine = Array.from({ length: 9 }, (_, i) => call(T0 + minutes(i), false));
    const events = history(nine);
    expect(events.filter((e) => e.type === 'number.answer_rate_degraded')).toEqual([]);
    const tenth = call(T0 + minutes(9), false);
    spec
      .given(events)
      .when(record(tenth))
      .then([ended(tenth), degraded(0, T0 + minutes(9))]);
  });

  it('the minimum is configurable (ANSWER_RATE_MIN_CALLS)', () => {
    const first = call(T0, false);
    spec
      .given([])
      .when(record(first, undefined, 1))
      .then([ended(first), degraded(0, T0)]);
  });

  it('once per drop: more unanswered calls after the alert fire nothing', () => {
    const calls = Array.from({ length: 10 }, (_, i) => call(T0 + minutes(i), false));
    const more = call(T0 + minutes(20), false);
    spec
      .given(history(calls))
      .when(record(more))
      .then([ended(more)]);
  });

  it('re-arms when answered calls bring the rate back to 0.80, and the next drop fires again', () => {
    // 10 answered, 3 missed: alert (10/13). Then 2 answered: 12/15 = 0.8, re-armed.
    const calls = [
      ...Array.from({ length: 10 }, (_, i) => call(T0 + minutes(i), true)),
      ...Array.from({ length: 3 }, (_, i) => call(T0 + minutes(10 + i), false)),
      call(T0 + minutes(13), true),
    ];
    const back = call(T0 + minutes(14), true);
    const events = history(calls);
    expect(events.filter((e) => e.type === 'number.answer_rate_degraded')).toHaveLength(1);
    spec
      .given(events)
      .when(record(back))
      .then([ended(back), rearmed(T0 + minutes(14), 0.8)]);
    // 12/16 = 0.75: a new drop, a new alert.
    const drop = call(T0 + minutes(15), false);
    spec
      .given([...events, ended(back), rearmed(T0 + minutes(14), 0.8)])
      .when(record(drop))
      .then([ended(drop), degraded(0.75, T0 + minutes(15))]);
  });

  it('ageing out: answered calls leaving the window can make the rate drop (the timer evaluates)', () => {
    // T0: 5 answered. T0+12h: 11 answered, 3 missed → 16/19 = 0.84, no alert.
    const early = Array.from({ length: 5 }, (_, i) => call(T0 + i, true));
    const later = [
      ...Array.from({ length: 11 }, (_, i) => call(T0 + 12 * HOUR + i, true)),
      ...Array.from({ length: 3 }, (_, i) => call(T0 + 12 * HOUR + 100 + i, false)),
    ];
    const events = history([...early, ...later]);
    expect(events.some((e) => e.type === 'number.answer_rate_degraded')).toBe(false);
    const state = fold(answerRateDecider, events);
    // The timer is due when the oldest call leaves the window: T0 + 24 h (+1 ms).
    const due = nextAgeOut(state.calls, new Date(T0 + 12 * HOUR + 200));
    expect(due?.toISOString()).toBe(iso(T0 + DAY + 1));
    // Just before, all 19 still count; once the first five are out, 11/14 = 0.7857.
    spec
      .given(events)
      .when(evaluate(T0 + DAY - 1))
      .thenNothingHappened();
    spec
      .given(events)
      .when(evaluate(T0 + DAY + 5))
      .then([degraded(0.7857, T0 + DAY + 5)]);
  });

  it('ageing out: once every call of the drop has left the window, the alert is armed again', () => {
    const calls = Array.from({ length: 10 }, (_, i) => call(T0 + i, false));
    const events = history(calls);
    spec
      .given(events)
      .when(evaluate(T0 + DAY - 1))
      .thenNothingHappened();
    spec
      .given(events)
      .when(evaluate(T0 + DAY + 10))
      .then([rearmed(T0 + DAY + 10, null)]);
    expect(nextAgeOut(fold(answerRateDecider, events).calls, new Date(T0 + DAY + 10))).toBeNull();
  });

  it('a call ended a whole window ago counts in no window; a call recorded twice counts once', () => {
    const old = call(T0, false);
    spec
      .given([])
      .when(record(old, T0 + DAY + 1))
      .thenNothingHappened();
    const c = call(T0, true);
    spec
      .given([ended(c)])
      .when(record(c))
      .thenNothingHappened();
  });

  it('keeps only calls recent enough to be in a later window', () => {
    const old = call(T0, true);
    const recent = call(T0 + DAY + HOUR, true);
    expect(fold(answerRateDecider, [ended(old), ended(recent)]).calls).toEqual([recent]);
  });

  it('windowStats counts the calls that ended in (at − 24 h, at]', () => {
    const calls = [call(T0 - DAY, false), call(T0 - DAY + 1, true), call(T0, false), call(T0 + 1, false)];
    expect(windowStats(calls, new Date(T0))).toEqual({
      calls: 2,
      answered: 1,
      rate: 0.5,
      windowStart: iso(T0 - DAY),
      windowEnd: iso(T0),
    });
    expect(windowStats([], new Date(T0)).rate).toBeNull();
  });

  it('number.answer_rate_degraded matches the catalog schema', () => {
    const catalog = EventCatalog.from([numberEvents]);
    const event = degraded(0.7692, T0);
    expect(catalog.validatePayload(event.type, event.data)).toEqual([]);
  });
});
