import Stripe from 'stripe';
import {
  PaymentProcessorUnavailable,
  type PaymentProcessor,
  type PaymentReport,
  type PaymentRequest,
} from '../domain/payment-processor';

/** NUL and lone surrogates: text PostgreSQL cannot store (a signed event's free text may hold them). */
// eslint-disable-next-line no-control-regex -- NUL is exactly what is replaced
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export interface StripeSettings {
  readonly secretKey: string;
  readonly webhookSecret: string;
  /** https://api.stripe.com, or a stand-in (stripe-mock, a test's loopback server). */
  readonly apiUrl: string;
}

/** What a verified Stripe event means for top-ups: a report, or why it is ignored. */
export type StripeNotification = { report: PaymentReport } | { ignored: string; eventId: string };

const REASON_LIMIT = 200;

/**
 * Top-ups paid with Stripe PaymentIntents, through the official `stripe` library: one PaymentIntent
 * per top-up, created with an idempotency key made from the top-up id (a retried request or a
 * crash between the creation and the ledger's append never makes two), its metadata naming the
 * tenant and the top-up. Stripe's signed webhook reports the outcome (`read`); nothing settles by
 * itself.
 */
export class StripePaymentProcessor implements PaymentProcessor {
  readonly name = 'stripe';
  readonly settlesAfterMs = null;
  private readonly stripe: Stripe;

  constructor(private readonly settings: StripeSettings) {
    const api = new URL(settings.apiUrl);
    this.stripe = new Stripe(settings.secretKey, {
      host: api.hostname,
      port: api.port || (api.protocol === 'http:' ? 80 : 443),
      protocol: api.protocol === 'http:' ? 'http' : 'https',
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
    });
  }

  async createIntent(request: PaymentRequest): Promise<{ intentId: string }> {
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: request.amountCents,
          currency: request.currency.toLowerCase(),
          description: `Credit top-up ${request.topupId}`,
          metadata: { tenant_id: request.tenantId, topup_id: request.topupId },
        },
        { idempotencyKey: `vap-topup-${request.topupId}` },
      );
      return { intentId: intent.id };
    } catch (err) {
      // For the log (the caller answers 503): any key-like text in Stripe's message is masked.
      const e = err as { type?: string; message?: string };
      const message = (e.message ?? '').replace(/\b(sk|rk)_[A-Za-z0-9_*]+/g, '$1_…').slice(0, 300);
      throw new PaymentProcessorUnavailable(
        `Stripe refused or did not answer the PaymentIntent of ${request.topupId}: ${e.type ?? 'error'} ${message}`.trim(),
      );
    }
  }

  /**
   * Verifies `Stripe-Signature` over the raw body with `stripe.webhooks.constructEvent` (HMAC with the
   * endpoint secret, timestamp within Stripe's 5-minute tolerance) and reads the event. Throws
   * `Stripe.errors.StripeSignatureVerificationError` when the signature does not hold.
   */
  read(rawBody: string, signature: string): StripeNotification {
    const event = this.stripe.webhooks.constructEvent(rawBody, signature, this.settings.webhookSecret);
    if (event.type !== 'payment_intent.succeeded' && event.type !== 'payment_intent.payment_failed') {
      return { ignored: `event type ${event.type}`, eventId: event.id };
    }
    const intent = event.data?.object as Stripe.PaymentIntent | undefined;
    if (typeof intent !== 'object' || intent === null) return { ignored: 'event without a payment', eventId: event.id };
    const tenantId = intent.metadata?.tenant_id;
    const topupId = intent.metadata?.topup_id;
    if (!tenantId || !topupId) return { ignored: `payment ${intent.id} names no top-up`, eventId: event.id };
    const succeeded = event.type === 'payment_intent.succeeded';
    const amountCents = succeeded ? intent.amount_received : intent.amount;
    // Signed, so Stripe's; still, a shape this code does not know is ignored rather than a 5xx.
    if (typeof intent.id !== 'string' || typeof intent.currency !== 'string' || !Number.isSafeInteger(amountCents)) {
      return { ignored: `payment ${String(intent.id)} has no id, amount or currency`, eventId: event.id };
    }
    const error = intent.last_payment_error;
    const reason = (error?.decline_code ?? error?.code ?? error?.message ?? 'payment_failed').slice(0, REASON_LIMIT);
    return {
      report: {
        eventId: event.id,
        outcome: succeeded ? 'succeeded' : 'failed',
        intentId: intent.id,
        tenantId: String(tenantId),
        topupId: String(topupId),
        amountCents,
        currency: intent.currency.toUpperCase(),
        // Stored in an event: no NUL, no lone surrogate (PostgreSQL could not store them).
        reason: String(reason).replace(UNSTORABLE, '\ufffd'),
      },
    };
  }
}
