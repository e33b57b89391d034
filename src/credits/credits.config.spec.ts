/** The credits context's settings (credits.config.ts), read with the platform's through loadConfig. */
import { ConfigError, loadConfig, settingsOf } from '../config/config';
import { creditsSettings, paymentProcessorSetting } from './credits.config';

/** The payment settings as the credits module reads them: the processor, Stripe's keys, the platform's SIP trunk. */
const paymentsOf = (env: Record<string, string>) => {
  const config = loadConfig(env, [creditsSettings]);
  return {
    paymentProcessor: paymentProcessorSetting(config),
    stripe: settingsOf(config, creditsSettings).stripe,
    sipTrunkUri: config.sipTrunkUri,
    topupSettleDelayMs: settingsOf(config, creditsSettings).topupSettleDelayMs,
  };
};

describe('loadConfig: PAYMENT_PROCESSOR (decision 53)', () => {
  const problems = (env: Record<string, string>): string[] => {
    try {
      loadConfig(env, [creditsSettings]);
      return [];
    } catch (err) {
      return (err as ConfigError).problems;
    }
  };
  const GATEWAY = { MEDIA_GATEWAY_URL: 'https://gw.example.com', MEDIA_GATEWAY_SECRET: `whsec_${'A'.repeat(32)}` };
  const STRIPE = { STRIPE_SECRET_KEY: 'sk_test_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_abc123' };

  it('unset, without production telephony: the test processor', () => {
    expect(paymentsOf({})).toMatchObject({ paymentProcessor: 'test', stripe: null, sipTrunkUri: null });
  });

  it('unset, with MEDIA_GATEWAY_URL or SIP_TRUNK_URI: none (top-ups are refused)', () => {
    expect(paymentsOf(GATEWAY).paymentProcessor).toBeNull();
    const sip = paymentsOf({ SIP_TRUNK_URI: 'sip:trunk.example.com;transport=tls' });
    expect([sip.paymentProcessor, sip.sipTrunkUri]).toEqual([null, 'sip:trunk.example.com;transport=tls']);
  });

  it('stripe with its two secrets, against api.stripe.com unless STRIPE_API_URL says otherwise', () => {
    expect(paymentsOf({ ...GATEWAY, PAYMENT_PROCESSOR: 'stripe', ...STRIPE })).toMatchObject({
      paymentProcessor: 'stripe',
      stripe: { secretKey: 'sk_test_abc123', webhookSecret: 'whsec_abc123', apiUrl: 'https://api.stripe.com' },
    });
    expect(
      paymentsOf({ PAYMENT_PROCESSOR: 'stripe', ...STRIPE, STRIPE_API_URL: 'http://127.0.0.1:12111/' }).stripe?.apiUrl,
    ).toBe('http://127.0.0.1:12111');
  });

  it('test chosen explicitly stays test, even with production telephony', () => {
    expect(paymentsOf({ ...GATEWAY, PAYMENT_PROCESSOR: 'test' }).paymentProcessor).toBe('test');
  });

  it('refuses another processor, and stripe without its secrets, without echoing a key', () => {
    expect(problems({ PAYMENT_PROCESSOR: 'paypal' })).toEqual([
      'PAYMENT_PROCESSOR must be test or stripe (got "paypal")',
    ]);
    const refused = problems({ PAYMENT_PROCESSOR: 'stripe', STRIPE_SECRET_KEY: 'pk_live_secretish' });
    expect(refused).toHaveLength(2);
    expect(refused.join('\n')).toMatch(/STRIPE_SECRET_KEY must be set .*STRIPE_WEBHOOK_SECRET must be set/s);
    expect(refused.join('\n')).not.toContain('pk_live_secretish');
  });
});

describe('loadConfig: TOPUP_SETTLE_DELAY', () => {
  it('defaults to 2 s and reads a duration', () => {
    expect(paymentsOf({}).topupSettleDelayMs).toBe(2000);
    expect(paymentsOf({ TOPUP_SETTLE_DELAY: '500ms' }).topupSettleDelayMs).toBe(500);
  });
});
