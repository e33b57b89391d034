/** The conversations context's settings: the engines' endpoints, and the dialogue model another context reads. */
import { ConfigError, loadConfig, settingsOf } from '../config/config';
import { conversationsSettings, dialogueModel } from './conversations.config';

const load = (env: Record<string, string>) => loadConfig(env, [conversationsSettings]);
const settingsFor = (env: Record<string, string>) => settingsOf(load(env), conversationsSettings);
const problems = (env: Record<string, string>): string[] => {
  try {
    load(env);
    return [];
  } catch (err) {
    return (err as ConfigError).problems;
  }
};

describe('loadConfig: the engines (STT_*, TTS_*, LLM_*)', () => {
  it('unset: the embedded engines and the built-in dialogue', () => {
    expect(settingsFor({})).toMatchObject({ stt: null, tts: null, llm: null, otlpEndpoint: null });
    expect(dialogueModel(load({}))).toBeNull();
  });

  it('reads each endpoint, without a trailing slash, with the default speech models', () => {
    expect(
      settingsFor({
        STT_URL: 'https://api.groq.com/openai/',
        STT_API_KEY: ' gsk-1 ',
        TTS_URL: 'http://127.0.0.1:8880',
        LLM_URL: 'http://127.0.0.1:11434/v1/',
        LLM_MODEL: 'llama3.1:8b',
      }),
    ).toMatchObject({
      stt: { url: 'https://api.groq.com/openai', apiKey: 'gsk-1', model: 'whisper-1' },
      tts: { url: 'http://127.0.0.1:8880', apiKey: null, model: 'tts-1' },
      llm: { url: 'http://127.0.0.1:11434/v1', apiKey: null, model: 'llama3.1:8b' },
    });
  });

  it('gives the dialogue model to other contexts with its /v1 (decision 106), a query string kept', () => {
    const model = (url: string) => dialogueModel(load({ LLM_URL: url, LLM_API_KEY: 'sk-1', LLM_MODEL: 'm' }));
    expect(model('https://api.openai.com')).toEqual({ url: 'https://api.openai.com/v1', apiKey: 'sk-1', model: 'm' });
    expect(model('https://api.openai.com/v1/')?.url).toBe('https://api.openai.com/v1');
    expect(model('https://models.example/openai?api-version=2024-10-21')?.url).toBe(
      'https://models.example/openai/v1?api-version=2024-10-21',
    );
  });

  it('refuses a URL that is not http(s), and LLM_URL without LLM_MODEL', () => {
    expect(problems({ LLM_URL: 'ftp://models.example/v1', LLM_MODEL: 'm' })).toEqual([
      'LLM_URL must use http: or https: (got "ftp:")',
    ]);
    expect(problems({ STT_URL: 'not a url' })).toEqual(['STT_URL must be a URL (got "not a url")']);
    expect(problems({ LLM_URL: 'http://127.0.0.1:8000/v1' })).toEqual([
      'LLM_MODEL is required when LLM_URL is set (the model the server is to use)',
    ]);
  });
});

describe('loadConfig: the capacity (MAX_CONVERSATIONS, CAPACITY_HEADROOM)', () => {
  it('unset: the cap derived from the cores (null here), the headroom measured', () => {
    expect(settingsFor({})).toMatchObject({ maxConversations: null, capacityHeadroom: 'measured' });
  });

  it('reads them, with the drain and the recognisers loaded at start', () => {
    expect(settingsFor({})).toMatchObject({ drainTimeoutMs: 600_000, recognizerPool: null });
    expect(
      settingsFor({ MAX_CONVERSATIONS: '12', CAPACITY_HEADROOM: 'off', DRAIN_TIMEOUT: '90s', RECOGNIZER_POOL: '0' }),
    ).toMatchObject({ maxConversations: 12, capacityHeadroom: 'off', drainTimeoutMs: 90_000, recognizerPool: 0 });
    expect(problems({ DRAIN_TIMEOUT: '2h' }).join()).toMatch(/DRAIN_TIMEOUT/);
    expect(problems({ RECOGNIZER_POOL: '33' }).join()).toMatch(/RECOGNIZER_POOL/);
  });

  it('refuses a cap out of range and an unknown headroom mode', () => {
    expect(problems({ MAX_CONVERSATIONS: '0' }).join()).toMatch(/MAX_CONVERSATIONS/);
    expect(problems({ MAX_CONVERSATIONS: 'many' }).join()).toMatch(/MAX_CONVERSATIONS/);
    expect(problems({ CAPACITY_HEADROOM: 'sometimes' })).toEqual([
      'CAPACITY_HEADROOM must be measured or off (got "sometimes")',
    ]);
  });
});
