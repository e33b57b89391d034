import { ConfigError, loadConfig } from './config';

describe('loadConfig: WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT', () => {
  it('defaults to 32', () => {
    expect(loadConfig({}).webhookMaxInFlightPerEndpoint).toBe(32);
  });

  it.each([
    ['1', 1],
    ['32', 32],
    ['128', 128],
    [' 16 ', 16],
  ])('accepts %j', (value, expected) => {
    expect(loadConfig({ WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: value }).webhookMaxInFlightPerEndpoint).toBe(expected);
  });

  it.each(['0', '129', '-1', '2.5', 'eight', '1e3'])('refuses %j, naming the variable and the range', (value) => {
    let error: unknown;
    try {
      loadConfig({ WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: value });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      `WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT must be an integer between 1 and 128 (got "${value}")`,
    ]);
  });
});
