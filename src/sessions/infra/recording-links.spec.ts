import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig as loadPlatform, settingsOf } from '../../config/config';
import { sessionsSettings } from '../sessions.config';

const loadConfig = (env: Record<string, string>) => loadPlatform(env, [sessionsSettings]);
import { ManualClock } from '../../kernel/clock';
import { RecordingLinks } from './recording-links';

const BASE = 'https://api.example.com/recordings';
const DAY = 86_400_000;
const key = (fill: number) => Buffer.alloc(32, fill);

function parts(url: string) {
  const u = new URL(url);
  return {
    path: `${u.origin}${u.pathname}`,
    expires: u.searchParams.get('expires') ?? undefined,
    signature: u.searchParams.get('signature') ?? undefined,
  };
}

describe('RecordingLinks', () => {
  const clock = new ManualClock(new Date('2026-03-02T10:00:00.000Z'));
  const links = new RecordingLinks(key(1), { recordingsUrl: BASE, ttlMs: 7 * DAY, clock });
  const id = 'rec_abcdefghij0123456789';

  it('makes a link under {recordings_url} that expires after the TTL and checks as valid', () => {
    const { url, expiresAt } = links.link(id);
    const p = parts(url);
    expect(p.path).toBe(`${BASE}/${id}.wav`);
    expect(expiresAt.toISOString()).toBe('2026-03-09T10:00:00.000Z');
    expect(p.expires).toBe(String(expiresAt.getTime() / 1000));
    expect(p.signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(links.check(id, p.expires, p.signature)).toBe('valid');
  });

  it('refuses a link without a signature or expiry, or with malformed ones', () => {
    const p = parts(links.link(id).url);
    expect(links.check(id, undefined, undefined)).toBe('invalid');
    expect(links.check(id, p.expires, undefined)).toBe('invalid');
    expect(links.check(id, undefined, p.signature)).toBe('invalid');
    expect(links.check(id, [p.expires], [p.signature])).toBe('invalid');
    expect(links.check(id, `${p.expires}.0`, p.signature)).toBe('invalid');
    expect(links.check(id, p.expires, `${p.signature}=`)).toBe('invalid');
    expect(links.check(id, p.expires, '')).toBe('invalid');
  });

  it('refuses a tampered signature, a moved expiry and a signature borrowed from another recording', () => {
    const p = parts(links.link(id).url);
    const sig = p.signature!;
    const flipped = `${sig.slice(0, 10)}${sig[10] === 'A' ? 'B' : 'A'}${sig.slice(11)}`;
    expect(links.check(id, p.expires, flipped)).toBe('invalid');
    expect(links.check(id, String(Number(p.expires) + 86_400), sig)).toBe('invalid');
    expect(links.check('rec_abcdefghij0123456780', p.expires, sig)).toBe('invalid');
    const otherKey = new RecordingLinks(key(2), { recordingsUrl: BASE, ttlMs: 7 * DAY, clock });
    expect(otherKey.check(id, p.expires, sig)).toBe('invalid');
  });

  it('a genuine link is expired once its time has come; a forged one stays invalid', () => {
    const local = new ManualClock(new Date('2026-03-02T10:00:00.000Z'));
    const short = new RecordingLinks(key(1), { recordingsUrl: BASE, ttlMs: 60_000, clock: local });
    const p = parts(short.link(id).url);
    local.advance(59_999);
    expect(short.check(id, p.expires, p.signature)).toBe('valid');
    local.advance(1);
    expect(short.check(id, p.expires, p.signature)).toBe('expired');
    expect(short.check(id, p.expires, 'A'.repeat(43))).toBe('invalid');
    expect(short.check(id, '1', 'A'.repeat(43))).toBe('invalid');
    // A fresh link works again.
    const renewed = parts(short.link(id).url);
    expect(short.check(id, renewed.expires, renewed.signature)).toBe('valid');
  });

  it('checks a link handed out before (its format and key derivation do not change)', () => {
    const secret = Buffer.from('a link secret of at least 32 bytes, for tests', 'utf8');
    const then = new ManualClock(new Date('2026-03-02T17:00:00.000Z'));
    const at = new RecordingLinks(secret, { recordingsUrl: BASE, ttlMs: 7 * DAY + 1, clock: then });
    const handedOut = `${BASE}/${id}.wav?expires=1773075601&signature=Zn4r7mu3IIzuETyEyFMX1h3gPiplA17XQHVDi0axNew`;
    expect(at.link(id)).toEqual({ url: handedOut, expiresAt: new Date(1773075601_000) });
    const p = parts(handedOut);
    expect(at.check(id, p.expires, p.signature)).toBe('valid');
  });

  it('names a session recording with a keyed hash: stable, not the session id, unknown without the key', () => {
    const sessionId = 'ses_0123456789abcdefghij';
    const recordingId = links.recordingIdFor(sessionId);
    expect(recordingId).toMatch(/^rec_[a-z0-9]{24}$/);
    expect(recordingId).not.toContain('0123456789abcdefghij');
    expect(links.recordingIdFor(sessionId)).toBe(recordingId);
    expect(links.recordingIdFor('ses_0123456789abcdefghik')).not.toBe(recordingId);
    const otherKey = new RecordingLinks(key(2), { recordingsUrl: BASE, ttlMs: DAY, clock });
    expect(otherKey.recordingIdFor(sessionId)).not.toBe(recordingId);
  });

  describe('its key, from configuration', () => {
    let dataDir: string;
    beforeEach(() => {
      dataDir = mkdtempSync(join(tmpdir(), 'recording-links-'));
    });
    afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

    it('is derived from the webhook secret key in DATA_DIR when RECORDING_URL_SECRET is unset: instances sharing it agree', () => {
      const a = RecordingLinks.fromConfig(loadConfig({ DATA_DIR: dataDir }), clock);
      const b = RecordingLinks.fromConfig(loadConfig({ DATA_DIR: dataDir }), clock);
      const p = parts(a.link(id).url);
      expect(p.path).toBe(`http://127.0.0.1:3000/recordings/${id}.wav`);
      expect(b.check(id, p.expires, p.signature)).toBe('valid');
      const elsewhere = mkdtempSync(join(tmpdir(), 'recording-links-'));
      try {
        const c = RecordingLinks.fromConfig(loadConfig({ DATA_DIR: elsewhere }), clock);
        expect(c.check(id, p.expires, p.signature)).toBe('invalid');
      } finally {
        rmSync(elsewhere, { recursive: true, force: true });
      }
    });

    it('is RECORDING_URL_SECRET when set, with RECORDING_URL_TTL and RECORDINGS_URL', () => {
      const env = {
        DATA_DIR: dataDir,
        RECORDING_URL_SECRET: 'x'.repeat(32),
        RECORDING_URL_TTL: '1h',
        RECORDINGS_URL: 'https://files.example.com/r/',
      };
      const a = RecordingLinks.fromConfig(loadConfig(env), clock);
      const { url, expiresAt } = a.link(id);
      expect(parts(url).path).toBe(`https://files.example.com/r/${id}.wav`);
      expect(expiresAt.getTime() - clock.now().getTime()).toBe(3_600_000);
      const derived = RecordingLinks.fromConfig(loadConfig({ DATA_DIR: dataDir }), clock);
      const p = parts(url);
      expect(derived.check(id, p.expires, p.signature)).toBe('invalid');
      expect(RecordingLinks.fromConfig(loadConfig(env), clock).check(id, p.expires, p.signature)).toBe('valid');
    });

    it('refuses a short secret and a TTL out of range', () => {
      const problems = (env: Record<string, string>): string[] => {
        try {
          loadConfig({ DATA_DIR: dataDir, ...env });
          return [];
        } catch (err) {
          return (err as ConfigError).problems;
        }
      };
      expect(problems({ RECORDING_URL_SECRET: 'short' })).toEqual([
        'RECORDING_URL_SECRET must be at least 32 characters (for example: openssl rand -base64 32)',
      ]);
      expect(problems({ RECORDING_URL_TTL: '500ms' })).toEqual([
        'RECORDING_URL_TTL must be a duration from 1s to 366d (got "500ms")',
      ]);
      expect(problems({ RECORDING_URL_TTL: 'soon' })).toHaveLength(1);
      const defaults = loadConfig({ DATA_DIR: dataDir });
      expect(settingsOf(defaults, sessionsSettings)).toMatchObject({
        recordingUrlSecret: null,
        recordingUrlTtlMs: 7 * DAY,
      });
    });
  });
});
