import type { Clock } from '../../kernel/clock';
import { RoomLinks } from './room-links';

const NOW = Date.parse('2026-03-02T17:00:00.000Z');
const clock = (ms: number): Clock => ({ now: () => new Date(ms) });
const key = Buffer.alloc(32, 7);
const ROOM = 'room_0123456789abcdefghij';

describe('room links', () => {
  const links = new RoomLinks(key, { roomsUrl: 'https://rooms.example', clock: clock(NOW) });
  const expiresAt = new Date(NOW + 3_600_000);

  it('are {rooms_url}/{room_id}?token=<expiry ms>.<signature>, valid until the expiry', () => {
    const url = links.url(ROOM, expiresAt);
    expect(url).toMatch(
      new RegExp(`^https://rooms\\.example/${ROOM}\\?token=${expiresAt.getTime()}\\.[A-Za-z0-9_-]{43}$`),
    );
    const token = new URL(url).searchParams.get('token');
    expect(links.check(ROOM, token)).toBe('valid');
    const later = new RoomLinks(key, { roomsUrl: 'https://rooms.example', clock: clock(expiresAt.getTime()) });
    expect(later.check(ROOM, token)).toBe('expired');
  });

  it('refuse a token of another room, a moved expiry, another key or anything malformed, before the expiry is read', () => {
    const token = links.token(ROOM, expiresAt);
    const [expiry, signature] = token.split('.') as [string, string];
    expect(links.check('room_aaaaaaaaaaaaaaaaaaaa', token)).toBe('invalid');
    expect(links.check(ROOM, `${Number(expiry) + 1}.${signature}`)).toBe('invalid');
    expect(links.check(ROOM, `1.${signature}`)).toBe('invalid'); // long expired, but forged: invalid, not expired
    const other = new RoomLinks(Buffer.alloc(32, 8), { roomsUrl: 'https://rooms.example', clock: clock(NOW) });
    expect(other.check(ROOM, token)).toBe('invalid');
    for (const bad of [
      undefined,
      null,
      42,
      ['a'],
      '',
      token + 'x',
      token.replace('.', ''),
      `${expiry}.${signature.slice(1)}`,
    ])
      expect(links.check(ROOM, bad)).toBe('invalid');
  });

  it('checks a link handed out before (its format and key derivation do not change)', () => {
    const secret = Buffer.from('a link secret of at least 32 bytes, for tests', 'utf8');
    const at = new RoomLinks(secret, { roomsUrl: 'https://rooms.example', clock: clock(NOW) });
    const handedOut = '1772474400123.87NcI_vpSMEBEYeoamWZ6kEcmQNWIyfVEdHDWeQdxpo';
    expect(at.token(ROOM, new Date('2026-03-02T18:00:00.123Z'))).toBe(handedOut);
    expect(at.check(ROOM, handedOut)).toBe('valid');
  });

  it('need a key of at least 32 bytes', () => {
    expect(() => new RoomLinks(Buffer.alloc(16), { roomsUrl: 'x', clock: clock(NOW) })).toThrow(RangeError);
  });
});
