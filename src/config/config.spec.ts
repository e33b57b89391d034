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

describe('loadConfig: LLM_URL, LLM_API_KEY, LLM_MODEL', () => {
  const problems = (env: Record<string, string>): string[] => {
    try {
      loadConfig(env);
      return [];
    } catch (err) {
      return (err as ConfigError).problems;
    }
  };

  it('unset: the built-in evaluator (all null)', () => {
    expect(loadConfig({})).toMatchObject({ llmUrl: null, llmApiKey: null, llmModel: null });
  });

  it('reads the three, without a trailing slash on the URL', () => {
    expect(
      loadConfig({ LLM_URL: 'http://127.0.0.1:11434/v1/', LLM_API_KEY: ' sk-1 ', LLM_MODEL: 'llama3.1:8b' }),
    ).toMatchObject({ llmUrl: 'http://127.0.0.1:11434/v1', llmApiKey: 'sk-1', llmModel: 'llama3.1:8b' });
    expect(loadConfig({ LLM_URL: 'https://api.openai.com/v1', LLM_MODEL: 'gpt-4o-mini' }).llmApiKey).toBeNull();
  });

  it('refuses a URL that is not http(s), and LLM_URL without LLM_MODEL', () => {
    expect(problems({ LLM_URL: 'ftp://models.example/v1', LLM_MODEL: 'm' })).toEqual([
      'LLM_URL must use http: or https: (got "ftp:")',
    ]);
    expect(problems({ LLM_URL: 'not a url', LLM_MODEL: 'm' })).toEqual(['LLM_URL must be a URL (got "not a url")']);
    expect(problems({ LLM_URL: 'http://127.0.0.1:8000/v1' })).toEqual([
      'LLM_MODEL is required when LLM_URL is set (the model the server is to use)',
    ]);
  });
});
