import { ConfigError, loadConfig, settingsOf } from '../config/config';
import { telephonySettings } from './telephony.config';
import { telephonyWanted, watchdogWanted } from './telephony.module';

const telephonyOf = (env: Record<string, string>) =>
  settingsOf(loadConfig(env, [telephonySettings]), telephonySettings);

describe('telephony settings', () => {
  it('has the documented defaults', () => {
    expect(telephonyOf({})).toEqual({
      listenHost: '0.0.0.0',
      listenPort: 5060,
      listenSet: false,
      publicHost: null,
      rtpPorts: { first: 40000, last: 40999 },
      username: null,
      password: null,
      ringTimeoutMs: 30_000,
      cps: 1,
      maxCalls: 100,
      tenantMaxCalls: 20,
      sipAllowedSources: null,
      rtpAllowedSources: null,
      mediaProcess: 'inline',
      mediaLeaseMs: 15_000,
    });
  });

  it('reads every variable', () => {
    expect(
      telephonyOf({
        SIP_LISTEN: '127.0.0.1:0',
        SIP_PUBLIC_HOST: '203.0.113.7',
        RTP_PORTS: '20000-20099',
        SIP_USERNAME: 'agent',
        SIP_PASSWORD: 's3cret',
        SIP_RING_TIMEOUT: '45s',
        SIP_CPS: '5',
        SIP_MAX_CALLS: '30',
        TENANT_MAX_CALLS: '5',
        SIP_ALLOWED_SOURCES: '192.0.2.10, 198.51.100.0/24',
        RTP_ALLOWED_SOURCES: '203.0.113.0/24',
        SIP_MEDIA_PROCESS: 'external',
        SIP_MEDIA_LEASE: '30s',
      }),
    ).toEqual({
      listenHost: '127.0.0.1',
      listenPort: 0,
      listenSet: true,
      publicHost: '203.0.113.7',
      rtpPorts: { first: 20000, last: 20099 },
      username: 'agent',
      password: 's3cret',
      ringTimeoutMs: 45_000,
      cps: 5,
      maxCalls: 30,
      tenantMaxCalls: 5,
      sipAllowedSources: '192.0.2.10, 198.51.100.0/24',
      rtpAllowedSources: '203.0.113.0/24',
      mediaProcess: 'external',
      mediaLeaseMs: 30_000,
    });
  });

  it('names every bad variable at once', () => {
    const load = () =>
      telephonyOf({
        SIP_LISTEN: 'example.com:5060',
        SIP_PUBLIC_HOST: 'example.com',
        RTP_PORTS: '5-1',
        SIP_USERNAME: 'agent',
        SIP_RING_TIMEOUT: '1h',
        SIP_CPS: '0',
        SIP_MAX_CALLS: 'many',
        TENANT_MAX_CALLS: '0',
        SIP_ALLOWED_SOURCES: '10.0.0.1, trunk.example.com',
        RTP_ALLOWED_SOURCES: '10.0.0.0/33',
        SIP_MEDIA_PROCESS: 'remote',
        SIP_MEDIA_LEASE: '1s',
      });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(
      /SIP_LISTEN[\s\S]*SIP_PUBLIC_HOST[\s\S]*RTP_PORTS[\s\S]*SIP_USERNAME and SIP_PASSWORD[\s\S]*SIP_RING_TIMEOUT/,
    );
    expect(load).toThrow(/SIP_CPS must be an integer between 1 and 1000/);
    expect(load).toThrow(/SIP_MAX_CALLS must be an integer/);
    expect(load).toThrow(/TENANT_MAX_CALLS must be an integer/);
    expect(load).toThrow(/SIP_ALLOWED_SOURCES must list IP addresses[^\n]*trunk\.example\.com/);
    expect(load).toThrow(/RTP_ALLOWED_SOURCES must list IP addresses[^\n]*10\.0\.0\.0\/33/);
    expect(load).toThrow(/SIP_MEDIA_PROCESS must be inline or external/);
    expect(load).toThrow(/SIP_MEDIA_LEASE must be a duration from 3s to 5m/);
  });

  it('wants the user agent only with a trunk or SIP_LISTEN set (inert by default)', () => {
    const wanted = (env: Record<string, string>) => telephonyWanted(loadConfig(env, [telephonySettings]));
    expect(wanted({})).toBe(false);
    expect(wanted({ SIP_TRUNK_URI: 'sip:trunk.example.com' })).toBe(true);
    expect(wanted({ SIP_LISTEN: '127.0.0.1:5070', SIP_ALLOWED_SOURCES: '127.0.0.1' })).toBe(true);
  });

  it('refuses SIP_LISTEN with neither a trunk nor SIP_ALLOWED_SOURCES, naming both', () => {
    const load = () => telephonyOf({ SIP_LISTEN: '0.0.0.0:5060' });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/SIP_LISTEN is set with neither SIP_TRUNK_URI nor SIP_ALLOWED_SOURCES/);
    expect(() => telephonyOf({ SIP_LISTEN: '0.0.0.0:5060', SIP_TRUNK_URI: 'sip:trunk.example.com' })).not.toThrow();
  });

  it('does not run the user agent on an API instance next to media processes (SIP_MEDIA_PROCESS=external)', () => {
    const config = (env: Record<string, string>) => loadConfig(env, [telephonySettings]);
    const external = {
      SIP_TRUNK_URI: 'sip:trunk.example.com',
      SIP_LISTEN: '127.0.0.1:5070',
      SIP_MEDIA_PROCESS: 'external',
    };
    expect(telephonyWanted(config(external))).toBe(false);
    expect(watchdogWanted(config(external))).toBe(true);
    expect(watchdogWanted(config({}))).toBe(false);
    expect(watchdogWanted(config({ SIP_LISTEN: '127.0.0.1:5070', SIP_ALLOWED_SOURCES: '127.0.0.1' }))).toBe(true);
  });
});
