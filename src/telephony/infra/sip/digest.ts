/**
 * HTTP digest authentication as SIP uses it (RFC 3261 section 22, RFC 2617 / RFC 7616): the answer to
 * a 401 `WWW-Authenticate` or a 407 `Proxy-Authenticate` challenge, SHA-256 (RFC 8760) or MD5, with
 * `qop="auth"` when the challenge offers it and without (the RFC 2069 form) when it does not. A server
 * may offer several challenges (RFC 8760 lists SHA-256 first): `strongestChallenge` picks the one we
 * answer; none we support is an `UnsupportedDigest`, which fails that call, never the process.
 */
import { createHash, randomBytes } from 'node:crypto';

export interface DigestChallenge {
  realm: string;
  nonce: string;
  opaque?: string;
  algorithm?: string;
  qop?: string;
}

/** Parses `Digest realm="x", nonce="y", qop="auth,auth-int"`; null when not a digest challenge. */
export function parseChallenge(value: string): DigestChallenge | null {
  const match = /^\s*Digest\s+(.*)$/is.exec(value);
  if (!match) return null;
  const params: Record<string, string> = {};
  const re = /([a-zA-Z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]+))/g;
  for (let m = re.exec(match[1] ?? ''); m; m = re.exec(match[1] ?? '')) {
    params[(m[1] ?? '').toLowerCase()] = m[2] ?? m[3] ?? '';
  }
  if (params.realm === undefined || params.nonce === undefined) return null;
  return {
    realm: params.realm,
    nonce: params.nonce,
    ...(params.opaque !== undefined ? { opaque: params.opaque } : {}),
    ...(params.algorithm !== undefined ? { algorithm: params.algorithm } : {}),
    ...(params.qop !== undefined ? { qop: params.qop } : {}),
  };
}

/** The algorithms we answer, strongest first (the `-sess` variants are not supported). */
const HASHES: Record<string, string> = { 'SHA-256': 'sha256', MD5: 'md5' };
const STRENGTH = ['SHA-256', 'MD5'];

export class UnsupportedDigest extends Error {}

const algorithmOf = (challenge: DigestChallenge): string => (challenge.algorithm ?? 'MD5').toUpperCase();

/** The strongest challenge we support among those offered, or null when there is none. */
export function strongestChallenge(values: readonly string[]): DigestChallenge | null {
  const supported = values
    .map(parseChallenge)
    .filter((c): c is DigestChallenge => c !== null && HASHES[algorithmOf(c)] !== undefined);
  supported.sort((a, b) => STRENGTH.indexOf(algorithmOf(a)) - STRENGTH.indexOf(algorithmOf(b)));
  return supported[0] ?? null;
}

export interface DigestAnswer {
  method: string;
  uri: string;
  username: string;
  password: string;
  /** The nonce count for this nonce (1 for the first use); only sent with qop. */
  nonceCount?: number;
  /** Fixed in tests; random otherwise. */
  cnonce?: string;
}

/** The `Authorization` / `Proxy-Authorization` value answering `challenge`. */
export function digestAuthorization(challenge: DigestChallenge, answer: DigestAnswer): string {
  const algorithm = algorithmOf(challenge);
  const hashName = HASHES[algorithm];
  if (hashName === undefined) throw new UnsupportedDigest(`Unsupported digest algorithm ${algorithm.slice(0, 40)}.`);
  const md5 = (text: string): string => createHash(hashName).update(text).digest('hex');
  const ha1 = md5(`${answer.username}:${challenge.realm}:${answer.password}`);
  const ha2 = md5(`${answer.method}:${answer.uri}`);
  const offersAuth = (challenge.qop ?? '')
    .split(',')
    .map((q) => q.trim().toLowerCase())
    .includes('auth');
  const fields = [
    `username="${answer.username}"`,
    `realm="${challenge.realm}"`,
    `nonce="${challenge.nonce}"`,
    `uri="${answer.uri}"`,
  ];
  if (offersAuth) {
    const nc = (answer.nonceCount ?? 1).toString(16).padStart(8, '0');
    const cnonce = answer.cnonce ?? randomBytes(8).toString('hex');
    const response = md5(`${ha1}:${challenge.nonce}:${nc}:${cnonce}:auth:${ha2}`);
    fields.push(`response="${response}"`, 'qop=auth', `nc=${nc}`, `cnonce="${cnonce}"`);
  } else {
    fields.push(`response="${md5(`${ha1}:${challenge.nonce}:${ha2}`)}"`);
  }
  fields.push(`algorithm=${algorithm}`);
  if (challenge.opaque !== undefined) fields.push(`opaque="${challenge.opaque}"`);
  return `Digest ${fields.join(', ')}`;
}
