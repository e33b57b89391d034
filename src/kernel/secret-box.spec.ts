import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateKey, SecretBox, SECRET_KEY_FILE } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

  it('round-trips, including empty and multi-byte text', () => {
    for (const text of [secret, '', 'Zoë 🎧', 'x'.repeat(10_000)]) expect(box.open(box.seal(text))).toBe(text);
  });

  it('produces v1:<iv>:<tag>:<ciphertext> in base64, without the plaintext', () => {
    const sealed = box.seal(secret);
    const [version, iv, tag, ciphertext, ...rest] = sealed.split(':');
    expect(version).toBe('v1');
    expect(rest).toEqual([]);
    expect(Buffer.from(iv ?? '', 'base64')).toHaveLength(12);
    expect(Buffer.from(tag ?? '', 'base64')).toHaveLength(16);
    expect(Buffer.from(ciphertext ?? '', 'base64')).toHaveLength(Buffer.byteLength(secret));
    expect(sealed).not.toContain('MfKQ9r8G');
  });

  it('uses a fresh IV every time', () => {
    const a = box.seal(secret);
    const b = box.seal(secret);
    expect(a).not.toBe(b);
    expect(a.split(':')[1]).not.toBe(b.split(':')[1]);
  });

  it('refuses a value sealed with another key', () => {
    const other = new SecretBox(randomBytes(32));
    expect(() => other.open(box.seal(secret))).toThrow(/failed authentication/);
  });

  function flipFirstByte(b64: string): string {
    const bytes = Buffer.from(b64, 'base64');
    bytes[0] = (bytes[0] ?? 0) ^ 0x01;
    return bytes.toString('base64');
  }

  it.each([1, 2, 3])('refuses a value whose part %i was tampered with', (index) => {
    const parts = box.seal(secret).split(':');
    parts[index] = flipFirstByte(parts[index] ?? '');
    expect(() => box.open(parts.join(':'))).toThrow(/SecretBox/);
  });

  it('refuses a truncated ciphertext', () => {
    const parts = box.seal(secret).split(':');
    parts[3] = Buffer.from(parts[3] ?? '', 'base64')
      .subarray(1)
      .toString('base64');
    expect(() => box.open(parts.join(':'))).toThrow(/failed authentication/);
  });

  it.each(['', 'plain', 'v2:a:b:c', 'v1:a:b', 'v1:!!!!:AAAA:AAAA', 'v1:AAAA:AAAA:AAAA', secret])(
    'refuses the malformed value %p',
    (value) => {
      expect(() => box.open(value)).toThrow(/SecretBox/);
    },
  );

  it('requires a 32-byte key and keeps its own copy of it', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow(RangeError);
    const key = randomBytes(32);
    const own = new SecretBox(key);
    const sealed = own.seal(secret);
    key.fill(0);
    expect(own.open(sealed)).toBe(secret);
  });
});

describe('loadOrCreateKey', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'secret-box-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('uses the configured key and touches no file', () => {
    const key = randomBytes(32);
    const dataDir = join(dir, 'data');
    expect(loadOrCreateKey({ configuredKeyBase64: key.toString('base64'), dataDir }).equals(key)).toBe(true);
    expect(() => statSync(dataDir)).toThrow();
  });

  it('rejects a configured key that is not base64 of 32 bytes', () => {
    expect(() => loadOrCreateKey({ configuredKeyBase64: randomBytes(16).toString('base64'), dataDir: dir })).toThrow(
      /32 bytes/,
    );
    expect(() => loadOrCreateKey({ configuredKeyBase64: 'not base64!', dataDir: dir })).toThrow(/32 bytes/);
  });

  it('creates the data dir and a 0600 key file, then reads the same key back', () => {
    const dataDir = join(dir, 'nested', 'data');
    const first = loadOrCreateKey({ configuredKeyBase64: null, dataDir });
    expect(first).toHaveLength(32);
    const path = join(dataDir, SECRET_KEY_FILE);
    expect(Buffer.from(readFileSync(path, 'utf8').trim(), 'base64').equals(first)).toBe(true);
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(loadOrCreateKey({ configuredKeyBase64: null, dataDir }).equals(first)).toBe(true);
  });

  it('opens after a restart what was sealed before it', () => {
    const sealed = new SecretBox(loadOrCreateKey({ configuredKeyBase64: null, dataDir: dir })).seal('whsec_abc');
    expect(new SecretBox(loadOrCreateKey({ configuredKeyBase64: null, dataDir: dir })).open(sealed)).toBe('whsec_abc');
  });

  it('reads an existing key file, tolerating surrounding whitespace', () => {
    const key = randomBytes(32);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, SECRET_KEY_FILE), `  ${key.toString('base64')}\n\n`);
    expect(loadOrCreateKey({ configuredKeyBase64: null, dataDir: dir }).equals(key)).toBe(true);
  });

  it('refuses a corrupt key file rather than replacing it (that would orphan every sealed secret)', () => {
    writeFileSync(join(dir, SECRET_KEY_FILE), 'garbage');
    expect(() => loadOrCreateKey({ configuredKeyBase64: null, dataDir: dir })).toThrow(/32 bytes/);
    expect(readFileSync(join(dir, SECRET_KEY_FILE), 'utf8')).toBe('garbage');
  });
});
