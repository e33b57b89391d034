/**
 * The payment processor behind top-ups (docs/credits.md, "Payment processors"). A top-up is first a
 * payment created with the processor (its id is the top-up's `processor_payment_intent_id`); the
 * processor then reports the outcome, and that report settles or fails the top-up in the ledger
 * (`settle_topup` / `fail_topup`, each at most once per top-up).
 *
 * - The built-in test processor (infra/test-payment-processor.ts) reports success itself, after
 *   TOPUP_SETTLE_DELAY, through a durable timer.
 * - Stripe (infra/stripe-payment-processor.ts) creates a PaymentIntent with an idempotency key made
 *   from the top-up id, and reports through its signed webhook (api/stripe-webhook.controller.ts),
 *   as a `PaymentReport` per event.
 * - None (PAYMENT_PROCESSOR unset while production telephony is configured): the provider is null
 *   and a top-up is refused with `409 payments_not_configured`; only operator grants add credit.
 */
export interface PaymentRequest {
  readonly tenantId: string;
  readonly topupId: string;
  readonly amountCents: number;
  readonly currency: string;
}

export interface PaymentProcessor {
  /** `test` for the built-in one, which settles by itself (`settlesAfterMs`). */
  readonly name: 'test' | 'stripe';
  /** Creates the payment; the same top-up id gives the same intent (a retried request creates one). */
  createIntent(request: PaymentRequest): Promise<{ intentId: string }>;
  /** How long after the request the processor settles by itself; null when it reports by webhook. */
  readonly settlesAfterMs: number | null;
}

/** What a processor reported of one payment, read from its signed notification. */
export interface PaymentReport {
  /** The processor's id of the notification: the same one delivered again changes nothing. */
  readonly eventId: string;
  readonly outcome: 'succeeded' | 'failed';
  readonly intentId: string;
  /** Named by the payment's metadata, as the top-up set it. */
  readonly tenantId: string;
  readonly topupId: string;
  /** What the processor says was paid (succeeded) or asked (failed), in cents of `currency`. */
  readonly amountCents: number;
  /** ISO 4217, upper case. */
  readonly currency: string;
  /** Why it failed (the processor's decline code or message), for `failed`. */
  readonly reason: string;
}

/** The processor in use, or null when none is configured (top-ups are refused). */
export const PAYMENT_PROCESSOR = Symbol('PAYMENT_PROCESSOR');

/** The processor could not create the payment now (down, or refused the request); nothing was recorded. */
export class PaymentProcessorUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentProcessorUnavailable';
  }
}

/** No payment processor is configured (production telephony without PAYMENT_PROCESSOR): top-ups are refused. */
export class PaymentsNotConfigured extends Error {
  constructor() {
    super('Top-ups are not available: this platform has no payment processor configured. Ask the operator for credit.');
    this.name = 'PaymentsNotConfigured';
  }
}
