/**
 * The payment processor behind top-ups (docs/credits.md, "Payment processors"). A top-up is first a
 * payment created with the processor (its id is the top-up's `processor_payment_intent_id`); the
 * processor then reports the outcome, and that report settles or fails the top-up in the ledger
 * (`settle_topup` / `fail_topup`, each at most once per top-up).
 *
 * - The built-in test processor (infra/test-payment-processor.ts) reports success itself, after
 *   TOPUP_SETTLE_DELAY, through a durable timer.
 * - A card processor's adapter (Stripe's PaymentIntents, say) creates the intent here with the
 *   top-up id as its idempotency key and metadata, and reports through its signed webhook: a route
 *   that verifies the signature, maps `payment_intent.succeeded` / `payment_intent.payment_failed`
 *   to `settle_topup` / `fail_topup` by the intent's top-up id, and answers 2xx once stored. Neither
 *   the decider nor the API changes.
 */
export interface PaymentRequest {
  readonly tenantId: string;
  readonly topupId: string;
  readonly amountCents: number;
  readonly currency: string;
}

export interface PaymentProcessor {
  /** `test` for the built-in one, which settles by itself (`settlesAfterMs`). */
  readonly name: string;
  /** Creates the payment; the same top-up id gives the same intent (a retried request creates one). */
  createIntent(request: PaymentRequest): Promise<{ intentId: string }>;
  /** How long after the request the processor settles by itself; null when it reports by webhook. */
  readonly settlesAfterMs: number | null;
}

export const PAYMENT_PROCESSOR = Symbol('PAYMENT_PROCESSOR');
