import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1';
export const SECRET_KEY_FILE = 'webhook-secret.key';

/**
 * Encryption at rest for values we must read back (webhook signing secrets): AES-256-GCM,
 * a fresh 96-bit IV per seal, sealed form `v1:<b64 iv>:<b64 tag>:<b64 ciphertext>`.
 * The version prefix leaves room for key rotation later.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== KEY_BYTES) throw new RangeError(`SecretBox key must be ${KEY_BYTES} bytes, got ${key.length}`);
    this.key = Buffer.from(key);
  }

  seal(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv.toString('base64'), tag.toString('base64'), ciphertext.toString('base64')].join(':');
  }

  /** Throws when the value is malformed, was sealed with another key, or was tampered with. */
  open(sealed: string): string {
    const parts = sealed.split(':');
    if (parts.length !== 4 || parts[0] !== VERSION) throw new Error('SecretBox: unrecognised sealed value');
    const iv = decodeBase64(parts[1] ?? '');
    const tag = decodeBase64(parts[2] ?? '');
    const ciphertext = decodeBase64(parts[3] ?? '');
    if (iv === null || tag === null || ciphertext === null || iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
      throw new Error('SecretBox: malformed sealed value');
    }
    const decipher = createDecipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    } catch {
      throw new Error('SecretBox: sealed value failed authentication (wrong key or tampered)');
    }
  }
}

/**
 * The configured key (base64 of 32 bytes) or, when none is configured, the one kept in
 * `<dataDir>/webhook-secret.key`, created on first start with mode 0600 so a restart can still
 * open the secrets sealed before it.
 */
export function loadOrCreateKey(opts: { configuredKeyBase64: string | null; dataDir: string }): Buffer {
  if (opts.configuredKeyBase64 !== null) return parseKey(opts.configuredKeyBase64, 'the configured webhook secret key');

  mkdirSync(opts.dataDir, { recursive: true });
  const path = join(opts.dataDir, SECRET_KEY_FILE);
  const existing = readIfExists(path);
  if (existing !== null) return parseKey(existing, path);

  const key = randomBytes(KEY_BYTES);
  try {
    writeFileSync(path, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
    return key;
  } catch (err) {
    // Another process created it first: use theirs, so both agree on one key.
    if (isErrno(err, 'EEXIST')) return parseKey(readFileSync(path, 'utf8'), path);
    throw err;
  }
}

function parseKey(text: string, source: string): Buffer {
  const key = decodeBase64(text.trim());
  if (key === null || key.length !== KEY_BYTES) {
    throw new Error(`${source} must be base64 of exactly ${KEY_BYTES} bytes`);
  }
  return key;
}

function readIfExists(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return null;
    throw err;
  }
}

function decodeBase64(text: string): Buffer | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  return Buffer.from(text, 'base64');
}

// Duck-typed: errors raised by node:fs are not `instanceof Error` inside Jest's sandbox.
function isErrno(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}
