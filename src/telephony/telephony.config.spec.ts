import { ConfigError, loadConfig, settingsOf } from '../config/config';
import { telephonySettings } from './telephony.config';
import { telephonyWanted } from './telephony.module';

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
      });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(
      /SIP_LISTEN[\s\S]*SIP_PUBLIC_HOST[\s\S]*RTP_PORTS[\s\S]*SIP_USERNAME and SIP_PASSWORD[\s\S]*SIP_RING_TIMEOUT/,
    );
  });

  it('wants the user agent only with a trunk or SIP_LISTEN set (inert by default)', () => {
    const wanted = (env: Record<string, string>) => telephonyWanted(loadConfig(env, [telephonySettings]));
    expect(wanted({})).toBe(false);
    expect(wanted({ SIP_TRUNK_URI: 'sip:trunk.example.com' })).toBe(true);
    expect(wanted({ SIP_LISTEN: '127.0.0.1:5070' })).toBe(true);
  });
});
