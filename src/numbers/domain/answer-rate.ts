/**
 * The answer rate of an inbound number (docs/numbers.md, "The answer rate"): of its inbound
 * calls that ended in the rolling last 24 hours, the share that reached in_progress. One stream per
 * registration (`answer_rate-<phone number id>`) holds the calls' outcomes and the alert's state:
 *
 * - `number.answer_rate_degraded` fires when an evaluation finds the rate below 0.80 with at least
 *   `minCalls` (ANSWER_RATE_MIN_CALLS) calls in the window, while the alert is armed; it disarms it.
 * - The alert is armed again (`answer_rate.rearmed`, internal) when an evaluation finds the rate back at
 *   or above 0.80, or the window empty (every call of the drop has aged out).
 *
 * Evaluations happen when an inbound call's end is recorded and when the oldest call of the window ages
 * out (a durable timer at `nextAgeOut`). Every time is given by the caller: the rules are pure.
 */
import type { Decider, DomainEvent } from '../../kernel/decider';
import { defineEdge } from '../../kernel/event-edge';
import { streamName } from '../../kernel/stream-name';
import type { NumberAnswerRateDegradedData } from '../numbers.events';

export const ANSWER_RATE = {
  windowMs: 24 * 60 * 60 * 1000,
  threshold: 0.8,
} as const;

export interface EndedCall {
  readonly session_id: string;
  /** When the call ended (ISO 8601). */
  readonly ended_at: string;
  /** It reached in_progress (an agent picked up). */
  readonly answered: boolean;
}

export interface WindowStats {
  readonly calls: number;
  readonly answered: number;
  /** answered ÷ calls, or null for an empty window. */
  readonly rate: number | null;
  readonly windowStart: string;
  readonly windowEnd: string;
}

/** The calls that ended in (at − 24 h, at]. */
export function windowStats(calls: readonly EndedCall[], at: Date): WindowStats {
  const end = at.getTime();
  const start = end - ANSWER_RATE.windowMs;
  let inWindow = 0;
  let answered = 0;
  for (const call of calls) {
    const t = Date.parse(call.ended_at);
    if (t <= start || t > end) continue;
    inWindow++;
    if (call.answered) answered++;
  }
  return {
    calls: inWindow,
    answered,
    rate: inWindow === 0 ? null : answered / inWindow,
    windowStart: new Date(start).toISOString(),
    windowEnd: new Date(end).toISOString(),
  };
}

/** When the oldest call in the window at `at` leaves it (the next evaluation due to ageing), or null when it is empty. */
export function nextAgeOut(calls: readonly EndedCall[], at: Date): Date | null {
  const start = at.getTime() - ANSWER_RATE.windowMs;
  let oldest: number | null = null;
  for (const call of calls) {
    const t = Date.parse(call.ended_at);
    if (t > start && t <= at.getTime() && (oldest === null || t < oldest)) oldest = t;
  }
  return oldest === null ? null : new Date(oldest + ANSWER_RATE.windowMs + 1);
}

/** The rate shown in the event: a fraction floored to 4 decimals, so that it never reads 0.8 while below it. */
export const shownRate = (rate: number): number => Math.floor(rate * 10_000) / 10_000;

export type AnswerRateEvent =
  | DomainEvent<'answer_rate.call_ended', EndedCall>
  | DomainEvent<'number.answer_rate_degraded', NumberAnswerRateDegradedData>
  | DomainEvent<'answer_rate.rearmed', { rearmed_at: string; answer_rate: number | null }>;

export const ANSWER_RATE_EVENT_TYPES: readonly AnswerRateEvent['type'][] = [
  'answer_rate.call_ended',
  'number.answer_rate_degraded',
  'answer_rate.rearmed',
];

interface Evaluation {
  /** The number, as the alert names it. */
  phoneNumber: string;
  at: string;
  minCalls: number;
}

export type AnswerRateCommand =
  ({ type: 'record_call' } & Evaluation & { call: EndedCall }) | ({ type: 'evaluate' } & Evaluation);

export interface AnswerRateState {
  /** Calls recent enough to be in some future window (older ones are dropped as newer ones come). */
  readonly calls: readonly EndedCall[];
  readonly armed: boolean;
}

export const answerRateStream = streamName('answer_rate');

/** Its stored events read back (event-edge.ts): each type's required fields. */
export const answerRateEdge = defineEdge<AnswerRateEvent>({
  'answer_rate.call_ended': { session_id: true, ended_at: true, answered: true },
  'number.answer_rate_degraded': { phone_number: true, answer_rate: true, window_start: true, window_end: true },
  'answer_rate.rearmed': { rearmed_at: true, answer_rate: true },
});

export const answerRateDecider: Decider<AnswerRateCommand, AnswerRateState, AnswerRateEvent> = {
  edge: answerRateEdge,
  initialState: () => ({ calls: [], armed: true }),
  evolve,
  decide,
};

function evolve(state: AnswerRateState, event: AnswerRateEvent): AnswerRateState {
  switch (event.type) {
    case 'answer_rate.call_ended': {
      // Every later window ends at or after this call's end: calls a whole window older are in none.
      const horizon = Date.parse(event.data.ended_at) - ANSWER_RATE.windowMs;
      return { ...state, calls: [...state.calls.filter((c) => Date.parse(c.ended_at) > horizon), event.data] };
    }
    case 'number.answer_rate_degraded':
      return { ...state, armed: false };
    case 'answer_rate.rearmed':
      return { ...state, armed: true };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

function decide(command: AnswerRateCommand, state: AnswerRateState): AnswerRateEvent[] {
  switch (command.type) {
    case 'record_call': {
      const { call } = command;
      if (state.calls.some((c) => c.session_id === call.session_id)) return []; // recorded already
      // A call that ended a whole window ago counts in no window any more.
      if (Date.parse(call.ended_at) <= Date.parse(command.at) - ANSWER_RATE.windowMs) return [];
      const recorded: AnswerRateEvent = { type: 'answer_rate.call_ended', data: call };
      return [recorded, ...evaluate(evolve(state, recorded), command)];
    }
    case 'evaluate':
      return evaluate(state, command);
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

function evaluate(state: AnswerRateState, { phoneNumber, at, minCalls }: Evaluation): AnswerRateEvent[] {
  const stats = windowStats(state.calls, new Date(at));
  if (state.armed && stats.rate !== null && stats.calls >= minCalls && stats.rate < ANSWER_RATE.threshold)
    return [
      {
        type: 'number.answer_rate_degraded',
        data: {
          phone_number: phoneNumber,
          answer_rate: shownRate(stats.rate),
          window_start: stats.windowStart,
          window_end: stats.windowEnd,
        },
      },
    ];
  if (!state.armed && (stats.rate === null || stats.rate >= ANSWER_RATE.threshold))
    return [
      {
        type: 'answer_rate.rearmed',
        data: { rearmed_at: at, answer_rate: stats.rate === null ? null : shownRate(stats.rate) },
      },
    ];
  return [];
}
