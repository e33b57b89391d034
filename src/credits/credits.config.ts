import { type AppConfig, settingsOf } from '../config/config';
import { defineSettings } from '../config/config-section';

export interface CreditsSettings {
  /** How long the built-in test payment processor takes to settle a top-up (TOPUP_SETTLE_DELAY). */
  topupSettleDelayMs: number;
  /** PAYMENT_PROCESSOR as set; null: unset, its default follows the telephony (`paymentProcessorSetting`). */
  chosenProcessor: 'test' | 'stripe' | null;
  /** Set when PAYMENT_PROCESSOR is `stripe`; `apiUrl` is api.stripe.com unless STRIPE_API_URL says otherwise. */
  stripe: { secretKey: string; webhookSecret: string; apiUrl: string } | null;
}

/** The credits context's settings (docs/configuration.md, "Payments"). */
export const creditsSettings = defineSettings<CreditsSettings>({
  title: 'Payments',
  intro:
    'Top-ups settle only through a real processor once calls cost real money ([credits.md](credits.md#payment-processors), decision 53).',
  variables: [
    {
      variable: 'PAYMENT_PROCESSOR',
      default: 'see text',
      meaning:
        '`test` (the built-in processor: settles every top-up after `TOPUP_SETTLE_DELAY`, no money moves) or `stripe`. Unset: `test` while neither `SIP_TRUNK_URI` nor `MEDIA_GATEWAY_URL` is set; with either, none: a top-up is a `409 payments_not_configured` and only operator grants add credit.',
    },
    {
      variable: 'STRIPE_SECRET_KEY',
      default: 'none; required by stripe',
      meaning:
        "Stripe secret or restricted key (`sk_…` or `rk_…`): creates the top-ups' PaymentIntents. A secret: never logged or echoed, even when refused.",
    },
    {
      variable: 'STRIPE_WEBHOOK_SECRET',
      default: 'none; required by stripe',
      meaning:
        'The signing secret (`whsec_…`) of the Stripe webhook endpoint `BASE_URL/payments/v1/stripe/webhook`, which verifies its events.',
    },
    {
      variable: 'STRIPE_API_URL',
      default: '`https://api.stripe.com`',
      meaning:
        'Where the Stripe library sends its requests (`http:` or `https:`): for `stripe-mock` or a proxy; tests point it at a loopback stand-in.',
    },
    {
      variable: 'TOPUP_SETTLE_DELAY',
      default: '`2s`',
      meaning: 'Duration: how long the built-in test payment processor takes to settle a top-up (docs/credits.md).',
    },
  ],
  parse: ({ str, url, duration, problem }) => {
    const chosen = str('PAYMENT_PROCESSOR')?.toLowerCase() ?? null;
    if (chosen !== null && chosen !== 'test' && chosen !== 'stripe') {
      problem(`PAYMENT_PROCESSOR must be test or stripe (got "${chosen}")`);
    }
    const apiUrl = url('STRIPE_API_URL', ['http:', 'https:']) ?? 'https://api.stripe.com';
    const secretKey = str('STRIPE_SECRET_KEY');
    const webhookSecret = str('STRIPE_WEBHOOK_SECRET');
    let stripe: CreditsSettings['stripe'] = null;
    if (chosen === 'stripe') {
      // Never echo a key: only its expected shape is named.
      if (secretKey === null || !/^(sk|rk)_[A-Za-z0-9_]+$/.test(secretKey)) {
        problem('STRIPE_SECRET_KEY must be set to a Stripe secret key (sk_… or rk_…) when PAYMENT_PROCESSOR=stripe');
      }
      if (webhookSecret === null || !/^whsec_[A-Za-z0-9+/=]+$/.test(webhookSecret)) {
        problem('STRIPE_WEBHOOK_SECRET must be set to the endpoint secret (whsec_…) when PAYMENT_PROCESSOR=stripe');
      }
      if (secretKey !== null && webhookSecret !== null) stripe = { secretKey, webhookSecret, apiUrl };
    }
    return {
      topupSettleDelayMs: duration('TOPUP_SETTLE_DELAY', '2s'),
      chosenProcessor: chosen === 'stripe' ? 'stripe' : chosen === 'test' ? 'test' : null,
      stripe,
    };
  },
});

/**
 * Who settles top-ups: PAYMENT_PROCESSOR, or unset, `test` only while no production telephony is
 * configured (neither SIP_TRUNK_URI nor MEDIA_GATEWAY_URL, the platform's): once calls cost real
 * money, top-ups settle only through a real processor, or not at all (decision 53). null: none.
 */
export function paymentProcessorSetting(config: AppConfig): 'test' | 'stripe' | null {
  const telephony = config.sipTrunkUri !== null || config.mediaGatewayUrl !== null;
  return settingsOf(config, creditsSettings).chosenProcessor ?? (telephony ? null : 'test');
}
