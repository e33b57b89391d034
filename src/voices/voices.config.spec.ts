/** The voices context's settings (voices.config.ts), read with the platform's through loadConfig. */
import { availableParallelism } from 'node:os';
import { ConfigError, loadConfig, settingsOf } from '../config/config';
import { voicesSettings } from './voices.config';

const voicesOf = (env: Record<string, string>) => settingsOf(loadConfig(env, [voicesSettings]), voicesSettings);

describe('loadConfig: voice clone bounds and quotas', () => {
  const problems = (env: Record<string, string>): string[] => {
    try {
      loadConfig(env, [voicesSettings]);
      return [];
    } catch (err) {
      return (err as ConfigError).problems;
    }
  };

  it('defaults: 10 minutes a sample, 30 a voice, 30 s a decode, 25 voices and 1024 MB a tenant', () => {
    const voices = voicesOf({});
    expect(voices).toMatchObject({
      decodeTimeoutMs: 30_000,
      sampleMaxMs: 600_000,
      totalMaxMs: 1_800_000,
      clonesPerTenant: 25,
      storageBytesPerTenant: 1024 * 1024 * 1024,
    });
    expect(voices.decodeWorkers).toBeGreaterThanOrEqual(1);
    expect(voices.decodeWorkers).toBeLessThanOrEqual(Math.max(1, availableParallelism()));
  });

  it('reads them', () => {
    const env = {
      VOICE_DECODE_WORKERS: '1',
      VOICE_DECODE_TIMEOUT: '200ms',
      VOICE_SAMPLE_MAX_DURATION: '2m',
      VOICE_TOTAL_MAX_DURATION: '5m',
      VOICE_CLONES_PER_TENANT: '4',
      VOICE_STORAGE_MB_PER_TENANT: '30',
    };
    expect(voicesOf(env)).toEqual({
      decodeWorkers: 1,
      decodeTimeoutMs: 200,
      sampleMaxMs: 120_000,
      totalMaxMs: 300_000,
      clonesPerTenant: 4,
      storageBytesPerTenant: 30 * 1024 * 1024,
      uploadsInFlight: 8,
    });
  });

  it('refuses more workers than cores, a sample bound under 30 s, a quota of 0', () => {
    const found = problems({
      VOICE_DECODE_WORKERS: String(availableParallelism() + 1),
      VOICE_SAMPLE_MAX_DURATION: '10s',
      VOICE_CLONES_PER_TENANT: '0',
    });
    expect(found).toHaveLength(3);
    expect(found.join('\n')).toMatch(/VOICE_DECODE_WORKERS must be an integer between 1 and/);
    expect(found.join('\n')).toMatch(/VOICE_SAMPLE_MAX_DURATION must be a duration from 30s to 4h \(got "10s"\)/);
    expect(found.join('\n')).toMatch(/VOICE_CLONES_PER_TENANT must be an integer between 1 and 1000000/);
  });
});
