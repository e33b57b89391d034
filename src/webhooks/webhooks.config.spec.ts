/** The webhooks context's settings (webhooks.config.ts), read with the platform's through loadConfig. */
import { ConfigError, loadConfig, settingsOf } from '../config/config';
import { webhooksSettings } from './webhooks.config';

const webhooksOf = (env: Record<string, string>) => settingsOf(loadConfig(env, [webhooksSettings]), webhooksSettings);

describe('loadConfig: WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT', () => {
  it('defaults to 32', () => {
    expect(webhooksOf({}).maxInFlightPerEndpoint).toBe(32);
  });

  it.each([
    ['1', 1],
    ['32', 32],
    ['128', 128],
    [' 16 ', 16],
  ])('accepts %j', (value, expected) => {
    expect(webhooksOf({ WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: value }).maxInFlightPerEndpoint).toBe(expected);
  });

  it.each(['0', '129', '-1', '2.5', 'eight', '1e3'])('refuses %j, naming the variable and the range', (value) => {
    let error: unknown;
    try {
      loadConfig({ WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: value }, [webhooksSettings]);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      `WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT must be an integer between 1 and 128 (got "${value}")`,
    ]);
  });
});

describe('loadConfig: WEBHOOK_DNS_TIMEOUT_MS', () => {
  it('defaults to 2000 and refuses more than 20000', () => {
    expect(webhooksOf({}).dnsTimeoutMs).toBe(2000);
    expect(() => loadConfig({ WEBHOOK_DNS_TIMEOUT_MS: '60000' }, [webhooksSettings])).toThrow(ConfigError);
    try {
      loadConfig({ WEBHOOK_DNS_TIMEOUT_MS: '60000' }, [webhooksSettings]);
    } catch (err) {
      expect((err as ConfigError).problems).toEqual([
        'WEBHOOK_DNS_TIMEOUT_MS must be an integer between 1 and 20000 (got "60000")',
      ]);
    }
  });
});
