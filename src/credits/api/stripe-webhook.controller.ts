import { Controller, HttpCode, Inject, Logger, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeEndpoint, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../kernel/http/api-error';
import { DomainError } from '../../kernel/result';
import { ChangeLedger } from '../application/ledger.commands';
import { PAYMENT_PROCESSOR, type PaymentProcessor, type PaymentReport } from '../domain/payment-processor';
import type { StripeNotification, StripePaymentProcessor } from '../infra/stripe-payment-processor';
import { rawBodyOf } from '../../kernel/http/raw-body';

/**
 * Where Stripe reports the outcome of top-ups' PaymentIntents (docs/credits.md, "Stripe"). Only with
 * PAYMENT_PROCESSOR=stripe; a 404 otherwise. A bad signature is a 400; an event that is not about a
 * known top-up is answered 200 and logged (Stripe would retry anything else for days); the ledger
 * applies each event once, by its id, so a redelivery changes nothing. Its body skips the generic JSON
 * checks (json-body.ts): what Stripe signed is read as Stripe sent it.
 */
@ApiTags('payments')
@Controller('payments/v1/stripe')
export class StripeWebhookController {
  private readonly logger = new Logger('StripeWebhook');

  constructor(
    private readonly commands: CommandBus,
    @Inject(PAYMENT_PROCESSOR) private readonly processor: PaymentProcessor | null,
  ) {}

  @Post('webhook')
  @HttpCode(200)
  @ApiExcludeEndpoint()
  // The raw body (up to 2 MiB), unchecked by the generic JSON checks: the signature is checked on it
  // first, then the library parses it (JSON.parse). A signed event is never refused for its content.
  @RouteConfig({ signedJson: true })
  async receive(@Req() request: FastifyRequest): Promise<{ received: true }> {
    const stripe = this.processor;
    if (!isStripe(stripe)) throw ApiError.notFound('route');
    const signature = request.headers['stripe-signature'];
    if (typeof signature !== 'string' || signature === '') {
      throw ApiError.invalid('Missing Stripe-Signature header.', 'stripe-signature');
    }
    const rawBody = rawBodyOf(request);
    let notification: StripeNotification;
    try {
      notification = stripe.read(rawBody, signature);
    } catch {
      // The library's verification failed (or the signed body is not an event): nothing was read.
      throw ApiError.invalid(
        'Stripe-Signature does not verify this body with STRIPE_WEBHOOK_SECRET.',
        'stripe-signature',
      );
    }
    if ('ignored' in notification) {
      this.logger.log(`Stripe event ${notification.eventId} ignored: ${notification.ignored}`);
      return { received: true };
    }
    await this.apply(notification.report);
    return { received: true };
  }

  private async apply(report: PaymentReport): Promise<void> {
    const { eventId, intentId, amountCents, currency, topupId, tenantId } = report;
    const paid = { eventId, intentId, amountCents, currency };
    try {
      await this.commands.execute(
        new ChangeLedger(
          tenantId,
          report.outcome === 'succeeded'
            ? { type: 'settle_topup', topupId, report: paid }
            : { type: 'fail_topup', topupId, reason: report.reason, report: paid },
        ),
      );
    } catch (err) {
      if (!(err instanceof DomainError)) throw err; // the database: a 5xx, and Stripe sends it again
      this.logger.warn(
        `Stripe event ${eventId} (${report.outcome}, payment ${intentId}) ignored: no top-up ${topupId} of tenant ${tenantId} made that payment`,
      );
    }
  }
}

/** The configured processor is Stripe's (known by its name: the class, and the `stripe` library, load only when configured). */
function isStripe(processor: PaymentProcessor | null): processor is StripePaymentProcessor {
  return processor?.name === 'stripe';
}
