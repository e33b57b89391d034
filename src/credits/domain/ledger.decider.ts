/**
 * A tenant's prepaid ledger, one stream per tenant (`credits-<tenant id>`): operator grants, call
 * debits, top-ups and the warning threshold. The balance, the threshold and the two warnings are
 * derived from it:
 *
 * - `credits.low_balance` when a change takes the balance from at or above the threshold to below it
 *   (once per drop: armed again once the balance is back at or above the threshold); a threshold of
 *   0, every new tenant's, warns of nothing: `credits.depleted` says it;
 * - `credits.depleted` when a change takes the balance from above zero to zero or below (once until
 *   it is above zero again). While depleted, production calls and campaign dispatches wait;
 * - `credits.topup_succeeded` in the same append as the settled top-up's balance change.
 *
 * Every debit names its session: a session is debited at most once, whoever asks again. A payment
 * processor's report settles or fails a top-up at most once per report (its event id), only for the
 * payment the top-up created, and only for the amount and currency asked.
 */
import type { Decider, DomainEvent } from '../../kernel/decider';
import { defineEdge } from '../../kernel/event-edge';
import { DomainError, notFound } from '../../kernel/result';
import { streamName } from '../../kernel/stream-name';
import type { CreditsDepletedData, CreditsLowBalanceData, CreditsTopupSucceededData } from '../credits.events';

export const CURRENCY = 'USD';

export type TopupStatus = 'pending' | 'succeeded' | 'failed';

export interface Topup {
  readonly topupId: string;
  readonly amountCents: number;
  readonly intentId: string;
  readonly status: TopupStatus;
}

export type LedgerEvent =
  | DomainEvent<'credits.granted', { amount_cents: number; balance_cents: number }>
  | DomainEvent<
      'credits.debited',
      { session_id: string; amount_cents: number; duration_seconds: number; balance_cents: number }
    >
  | DomainEvent<
      'credits.topup_requested',
      { topup_id: string; amount_cents: number; processor_payment_intent_id: string }
    >
  | DomainEvent<
      'credits.topup_settled',
      { topup_id: string; amount_cents: number; balance_cents: number; processor_event_id?: string }
    >
  | DomainEvent<'credits.topup_failed', { topup_id: string; reason: string; processor_event_id?: string }>
  | DomainEvent<'credits.threshold_changed', { threshold_cents: number }>
  | DomainEvent<'credits.replenished', { balance_cents: number }>
  | DomainEvent<'credits.low_balance', CreditsLowBalanceData>
  | DomainEvent<'credits.depleted', CreditsDepletedData>
  | DomainEvent<'credits.topup_succeeded', CreditsTopupSucceededData>;

export const LEDGER_EVENT_TYPES: readonly LedgerEvent['type'][] = [
  'credits.granted',
  'credits.debited',
  'credits.topup_requested',
  'credits.topup_settled',
  'credits.topup_failed',
  'credits.threshold_changed',
  'credits.replenished',
  'credits.low_balance',
  'credits.depleted',
  'credits.topup_succeeded',
];

export type LedgerCommand =
  | { type: 'grant'; amountCents: number; at: string }
  | { type: 'debit'; sessionId: string; amountCents: number; durationSeconds: number; at: string }
  | { type: 'request_topup'; topupId: string; amountCents: number; intentId: string }
  | { type: 'settle_topup'; topupId: string; at: string; report?: ProcessorReport }
  | { type: 'fail_topup'; topupId: string; reason: string; report?: ProcessorReport }
  | { type: 'set_threshold'; thresholdCents: number };

/** A payment processor's notification about a top-up's payment (absent: the test processor's own settlement). */
export interface ProcessorReport {
  readonly eventId: string;
  readonly intentId: string;
  readonly amountCents: number;
  readonly currency: string;
}

export interface LedgerState {
  readonly balanceCents: number;
  readonly thresholdCents: number;
  /** A drop below the threshold warns only while armed. */
  readonly lowArmed: boolean;
  readonly depleted: boolean;
  readonly debited: ReadonlySet<string>;
  readonly topups: ReadonlyMap<string, Topup>;
  /** The processor's notifications that settled or failed a top-up: one delivered again decides nothing. */
  readonly processorEvents: ReadonlySet<string>;
}

export const ledgerStream = streamName('credits');

/** Largest amount one grant, top-up or threshold may name: 100 million dollars. */
export const MAX_AMOUNT_CENTS = 10_000_000_000;

/** Its stored events read back (event-edge.ts): each type's required fields. */
export const ledgerEdge = defineEdge<LedgerEvent>({
  'credits.granted': { amount_cents: true, balance_cents: true },
  'credits.debited': { session_id: true, amount_cents: true, duration_seconds: true, balance_cents: true },
  'credits.topup_requested': { topup_id: true, amount_cents: true, processor_payment_intent_id: true },
  'credits.topup_settled': { topup_id: true, amount_cents: true, balance_cents: true },
  'credits.topup_failed': { topup_id: true, reason: true },
  'credits.threshold_changed': { threshold_cents: true },
  'credits.replenished': { balance_cents: true },
  'credits.low_balance': { balance_cents: true, threshold_cents: true, currency: true },
  'credits.depleted': { balance_cents: true, depleted_at: true, currency: true },
  'credits.topup_succeeded': {
    amount_cents: true,
    new_balance_cents: true,
    currency: true,
    processor_payment_intent_id: true,
  },
});

export const ledgerDecider: Decider<LedgerCommand, LedgerState, LedgerEvent> = {
  edge: ledgerEdge,
  // A new tenant starts at a balance of 0 and a threshold of 0 (docs/credits.md): not depleted until a change takes it there.
  initialState: () => ({
    balanceCents: 0,
    thresholdCents: 0,
    lowArmed: true,
    depleted: false,
    debited: new Set(),
    topups: new Map(),
    processorEvents: new Set(),
  }),
  evolve,
  decide,
};

/** The state with a new balance: the low-balance warning is armed again once the balance is at or above the threshold. */
const withBalance = (state: LedgerState, balance: number): LedgerState => ({
  ...state,
  balanceCents: balance,
  lowArmed: state.lowArmed || balance >= state.thresholdCents,
});

function evolve(state: LedgerState, event: LedgerEvent): LedgerState {
  switch (event.type) {
    case 'credits.granted':
      return withBalance(state, event.data.balance_cents);
    case 'credits.debited':
      return {
        ...withBalance(state, event.data.balance_cents),
        debited: new Set(state.debited).add(event.data.session_id),
      };
    case 'credits.topup_requested':
      return {
        ...state,
        topups: new Map(state.topups).set(event.data.topup_id, {
          topupId: event.data.topup_id,
          amountCents: event.data.amount_cents,
          intentId: event.data.processor_payment_intent_id,
          status: 'pending',
        }),
      };
    case 'credits.topup_settled':
    case 'credits.topup_failed': {
      const topup = state.topups.get(event.data.topup_id);
      if (!topup) return state;
      const settled = event.type === 'credits.topup_settled';
      const eventId = event.data.processor_event_id;
      return {
        ...(settled ? withBalance(state, event.data.balance_cents) : state),
        topups: new Map(state.topups).set(topup.topupId, { ...topup, status: settled ? 'succeeded' : 'failed' }),
        processorEvents: eventId ? new Set(state.processorEvents).add(eventId) : state.processorEvents,
      };
    }
    case 'credits.threshold_changed': {
      const threshold = event.data.threshold_cents;
      return { ...state, thresholdCents: threshold, lowArmed: state.lowArmed || state.balanceCents >= threshold };
    }
    case 'credits.low_balance':
      return { ...state, lowArmed: false };
    case 'credits.depleted':
      return { ...state, depleted: true };
    case 'credits.replenished':
      return { ...state, depleted: false };
    case 'credits.topup_succeeded':
      return state;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

function decide(command: LedgerCommand, state: LedgerState): LedgerEvent[] {
  switch (command.type) {
    case 'grant': {
      checkAmount(command.amountCents, 'amount_cents', { allowNegative: true });
      const balance = state.balanceCents + command.amountCents;
      return withWarnings(
        state,
        [{ type: 'credits.granted', data: { amount_cents: command.amountCents, balance_cents: balance } }],
        balance,
        command.at,
      );
    }
    case 'debit': {
      if (state.debited.has(command.sessionId) || command.amountCents <= 0) return [];
      const balance = state.balanceCents - command.amountCents;
      return withWarnings(
        state,
        [
          {
            type: 'credits.debited',
            data: {
              session_id: command.sessionId,
              amount_cents: command.amountCents,
              duration_seconds: command.durationSeconds,
              balance_cents: balance,
            },
          },
        ],
        balance,
        command.at,
      );
    }
    case 'request_topup':
      checkAmount(command.amountCents, 'amount_cents');
      if (state.topups.has(command.topupId)) return [];
      return [
        {
          type: 'credits.topup_requested',
          data: {
            topup_id: command.topupId,
            amount_cents: command.amountCents,
            processor_payment_intent_id: command.intentId,
          },
        },
      ];
    case 'settle_topup': {
      const topup = reportedTopup(state, command.topupId, command.report);
      if (!topup) return [];
      const report = command.report;
      if (report && (report.amountCents !== topup.amountCents || report.currency !== CURRENCY)) {
        // Paid something else than asked: never credited; the top-up fails, for the operator to look into.
        if (topup.status !== 'pending') return [];
        const reason = `amount_mismatch: paid ${report.amountCents} ${report.currency}, asked ${topup.amountCents} ${CURRENCY}`;
        return [failed(topup, reason, report)];
      }
      // A settlement reported twice settles once. A failed top-up settles only on the processor's
      // word: its payment can succeed after a declined attempt (the customer tried another card).
      if (topup.status === 'succeeded' || (topup.status === 'failed' && !report)) return [];
      const balance = state.balanceCents + topup.amountCents;
      return withWarnings(
        state,
        [
          {
            type: 'credits.topup_settled',
            data: {
              topup_id: topup.topupId,
              amount_cents: topup.amountCents,
              balance_cents: balance,
              ...(report ? { processor_event_id: report.eventId } : {}),
            },
          },
          {
            type: 'credits.topup_succeeded',
            data: {
              amount_cents: topup.amountCents,
              new_balance_cents: balance,
              currency: CURRENCY,
              processor_payment_intent_id: topup.intentId,
            },
          },
        ],
        balance,
        command.at,
      );
    }
    case 'fail_topup': {
      const topup = reportedTopup(state, command.topupId, command.report);
      if (!topup || topup.status !== 'pending') return [];
      return [failed(topup, command.reason, command.report)];
    }
    case 'set_threshold': {
      checkAmount(command.thresholdCents, 'threshold_cents', { allowZero: true });
      if (command.thresholdCents === state.thresholdCents) return [];
      const changed: LedgerEvent = {
        type: 'credits.threshold_changed',
        data: { threshold_cents: command.thresholdCents },
      };
      // A threshold raised above the balance is a drop below it too; one lowered to the balance re-arms.
      const after = evolve(state, changed);
      return command.thresholdCents > 0 && after.balanceCents < command.thresholdCents && after.lowArmed
        ? [changed, lowBalance(after.balanceCents, command.thresholdCents)]
        : [changed];
    }
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

/**
 * The top-up a settlement or failure is about; null when this report was already applied. Not found
 * when the ledger has no such top-up, or when the report's payment is not the one the top-up created.
 */
function reportedTopup(state: LedgerState, topupId: string, report: ProcessorReport | undefined): Topup | null {
  const topup = state.topups.get(topupId);
  if (!topup || (report && report.intentId !== topup.intentId)) throw notFound('top-up', 'topup_id');
  return report && state.processorEvents.has(report.eventId) ? null : topup;
}

const failed = (topup: Topup, reason: string, report: ProcessorReport | undefined): LedgerEvent => ({
  type: 'credits.topup_failed',
  data: { topup_id: topup.topupId, reason, ...(report ? { processor_event_id: report.eventId } : {}) },
});

const lowBalance = (balance: number, threshold: number): LedgerEvent => ({
  type: 'credits.low_balance',
  data: { balance_cents: balance, threshold_cents: threshold, currency: CURRENCY },
});

/**
 * The change's events followed by the warnings it causes, as the balance moves from the state's to
 * `balance`: a drop below the threshold while armed, a drop to zero or below while not depleted, and
 * `credits.replenished` when a depleted balance is above zero again (dispatches resume).
 */
function withWarnings(state: LedgerState, events: LedgerEvent[], balance: number, at: string): LedgerEvent[] {
  const out = [...events];
  if (state.thresholdCents > 0 && balance < state.thresholdCents && state.lowArmed)
    out.push(lowBalance(balance, state.thresholdCents));
  if (balance <= 0 && !state.depleted)
    out.push({ type: 'credits.depleted', data: { balance_cents: balance, depleted_at: at, currency: CURRENCY } });
  if (balance > 0 && state.depleted) out.push({ type: 'credits.replenished', data: { balance_cents: balance } });
  return out;
}

function checkAmount(amount: number, param: string, opts: { allowNegative?: boolean; allowZero?: boolean } = {}): void {
  const ok =
    Number.isSafeInteger(amount) &&
    Math.abs(amount) <= MAX_AMOUNT_CENTS &&
    (amount > 0 || (opts.allowZero && amount === 0) || (opts.allowNegative && amount < 0));
  if (!ok)
    throw new DomainError(
      'invalid_request',
      `${param} must be ${opts.allowNegative ? 'a non-zero' : opts.allowZero ? 'a non-negative' : 'a positive'} integer of at most ${MAX_AMOUNT_CENTS}.`,
      param,
    );
}
