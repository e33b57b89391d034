/** The sessions context's settings (sessions.config.ts), read with the platform's through loadConfig. */
import { ConfigError, loadConfig, settingsOf } from '../config/config';
import { sessionsSettings } from './sessions.config';

const sessionsOf = (env: Record<string, string>) => settingsOf(loadConfig(env, [sessionsSettings]), sessionsSettings);

describe('loadConfig: LLM_URL, LLM_API_KEY, LLM_MODEL', () => {
  const problems = (env: Record<string, string>): string[] => {
    try {
      loadConfig(env, [sessionsSettings]);
      return [];
    } catch (err) {
      return (err as ConfigError).problems;
    }
  };

  it('unset: the built-in evaluator (all null)', () => {
    expect(sessionsOf({})).toMatchObject({ llmUrl: null, llmApiKey: null, llmModel: null });
  });

  it('reads the three, without a trailing slash on the URL', () => {
    expect(
      sessionsOf({ LLM_URL: 'http://127.0.0.1:11434/v1/', LLM_API_KEY: ' sk-1 ', LLM_MODEL: 'llama3.1:8b' }),
    ).toMatchObject({ llmUrl: 'http://127.0.0.1:11434/v1', llmApiKey: 'sk-1', llmModel: 'llama3.1:8b' });
    expect(sessionsOf({ LLM_URL: 'https://api.openai.com/v1', LLM_MODEL: 'gpt-4o-mini' }).llmApiKey).toBeNull();
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
