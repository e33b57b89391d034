/** The rooms context's settings (rooms.config.ts), read with the platform's through loadConfig. */
import { ConfigError, loadConfig, settingsOf } from '../config/config';
import { roomsSettings } from './rooms.config';

const roomsOf = (env: Record<string, string>) => settingsOf(loadConfig(env, [roomsSettings]), roomsSettings);

describe('loadConfig: rooms', () => {
  const problems = (env: Record<string, string>): string[] => {
    try {
      loadConfig(env, [roomsSettings]);
      return [];
    } catch (err) {
      return (err as ConfigError).problems;
    }
  };

  it('unset: a derived link key, the default ICE hosts, rooms of an hour', () => {
    expect(roomsOf({})).toMatchObject({
      roomUrlSecret: null,
      roomIceHosts: null,
      roomDefaultTtlMs: 3_600_000,
      mediaAllowPrivateAddresses: false,
    });
  });

  it('reads a link key, ICE host addresses (IPv4 and IPv6) and a default lifetime', () => {
    expect(
      roomsOf({ ROOM_URL_SECRET: 'k'.repeat(32), ROOM_ICE_HOSTS: '127.0.0.1, ::1', ROOM_DEFAULT_TTL: '15m' }),
    ).toMatchObject({ roomUrlSecret: 'k'.repeat(32), roomIceHosts: ['127.0.0.1', '::1'], roomDefaultTtlMs: 900_000 });
  });

  it('reads MEDIA_ALLOW_PRIVATE_ADDRESSES as a boolean', () => {
    expect(roomsOf({ MEDIA_ALLOW_PRIVATE_ADDRESSES: 'true' }).mediaAllowPrivateAddresses).toBe(true);
    expect(roomsOf({ MEDIA_ALLOW_PRIVATE_ADDRESSES: 'no' }).mediaAllowPrivateAddresses).toBe(false);
  });

  it('refuses a short key, a host that is not an IP address, and a lifetime past 7 days', () => {
    expect(problems({ ROOM_URL_SECRET: 'short' })).toEqual([
      'ROOM_URL_SECRET must be at least 32 characters (for example: openssl rand -base64 32)',
    ]);
    expect(problems({ ROOM_ICE_HOSTS: '127.0.0.1,rooms.example' })).toEqual([
      'ROOM_ICE_HOSTS must be a comma-separated list of IP addresses (got "127.0.0.1,rooms.example")',
    ]);
    expect(problems({ ROOM_DEFAULT_TTL: '8d' })).toEqual([
      'ROOM_DEFAULT_TTL must be a duration from 1s to 7d (got "8d")',
    ]);
  });
});
