/** The credits context's part of the event catalog: credits.*. */
import { defineEvents } from '../catalog/event-fragment';
import { type Field, field, integer, object, text, timestamp } from '../catalog/payload-schema';

export interface CreditsLowBalanceData {
  balance_cents: number;
  threshold_cents: number;
  currency: string;
}

export interface CreditsDepletedData {
  balance_cents: number;
  depleted_at: string;
  currency: string;
}

export interface CreditsTopupSucceededData {
  amount_cents: number;
  new_balance_cents: number;
  currency: string;
  processor_payment_intent_id: string;
}

// A balance can go below zero when a finished call is billed, so balances have no minimum.
const balance = (note: string): Field<number> => integer(note, {});
const currency = (): Field<string> =>
  field({ type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217 code, e.g. USD.' });

const creditsLowBalance = object<CreditsLowBalanceData>({
  balance_cents: balance('Balance in cents.'),
  threshold_cents: integer('Warning threshold in cents.'),
  currency: currency(),
});

const creditsDepleted = object<CreditsDepletedData>({
  balance_cents: balance('Balance in cents: 0 or below.'),
  depleted_at: timestamp(),
  currency: currency(),
});

const creditsTopupSucceeded = object<CreditsTopupSucceededData>({
  amount_cents: integer('Amount added, in cents.', { minimum: 1 }),
  new_balance_cents: balance('Balance after the top-up, in cents.'),
  currency: currency(),
  processor_payment_intent_id: text(),
});

export type CreditsPayloads = {
  'credits.low_balance': CreditsLowBalanceData;
  'credits.depleted': CreditsDepletedData;
  'credits.topup_succeeded': CreditsTopupSucceededData;
};

export const creditsEvents = defineEvents<CreditsPayloads>({
  groups: { credits: 'Credits events' },
  events: {
    'credits.low_balance': {
      description: "The balance fell below the tenant's warning threshold (once per drop, not on every later call).",
      payload: creditsLowBalance,
      example: { balance_cents: 480, threshold_cents: 500, currency: 'USD' },
    },
    'credits.depleted': {
      description: 'The balance reached zero; new dispatches wait until a top-up settles, running calls finish.',
      payload: creditsDepleted,
      example: { balance_cents: 0, depleted_at: '2026-03-02T21:47:03.118Z', currency: 'USD' },
    },
    'credits.topup_succeeded': {
      description: 'A top-up settled with the payment processor; fires after the balance change is committed.',
      payload: creditsTopupSucceeded,
      example: {
        amount_cents: 5000,
        new_balance_cents: 5000,
        currency: 'USD',
        processor_payment_intent_id: 'pi_3PqL8m2eZvKYlo2C1x9a7b5c',
      },
    },
  },
});
