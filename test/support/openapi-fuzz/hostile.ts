// Hostile values: strings, numbers, whole bodies, content types, path segments.

import type { Rng } from './rng';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export const LONG = (n: number, c = 'x') => c.repeat(n);

export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\t',
  '\u0000',
  'a\u0000b',
  '\u0001\u0002\u001f',
  '\u007f',
  '\u0085\u00a0',
  '\r\n',
  'line\nbreak',
  '\ud800',
  'x\udfff',
  '\udc00\ud800',
  '\ud83d',
  '😀',
  '\u202eevil',
  '\u200b',
  'e\u0301',
  '\ufeff',
  '\uffff',
  '\ufffd',
  '𝕏'.repeat(300),
  'Ω≈ç√∫˜µ≤≥÷',
  '田中さんにあげて下さい',
  LONG(33),
  LONG(65),
  LONG(101),
  LONG(201),
  LONG(256),
  LONG(501),
  LONG(2049),
  LONG(20_001),
  LONG(100_000),
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '1e309',
  '-1e309',
  '0x1F',
  '0b101',
  '1_000',
  ' 42 ',
  '４２',
  '1.5',
  '-1',
  '0',
  '99999999999999999999999',
  'null',
  'undefined',
  'true',
  'false',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  "' OR '1'='1",
  '"; DROP TABLE tenants; --',
  '$1',
  '%s%s%s%n',
  '{{7*7}}',
  '${jndi:ldap://x}',
  '<script>alert(1)</script>',
  '../../../etc/passwd',
  '..%2f..%2f',
  '%00',
  '%',
  '\\',
  '/',
  '?',
  '#',
  '*',
  '**',
  '.*',
  'session.*',
  'session.**',
  '*.*',
  '.',
  'webhook.test',
  'session.ended',
  '+14155550100',
  '+1 (415) 555-0100',
  '0014155550100',
  '+999999999999999',
  '+',
  '+0',
  '+1',
  '+14155550100\u0000',
  'http://127.0.0.1:9/x',
  'https://example.com/hooks',
  'javascript:alert(1)',
  'http://[::1]:9/',
  'http://[::ffff:127.0.0.1]:9/',
  'http://user:pw@127.0.0.1:9/',
  'http://127.1:9/',
  'http://0x7f000001:9/',
  'http://2130706433:9/',
  'file:///etc/passwd',
  'http://localhost:99999/',
  'http://xn--nxasmq6b.com/',
  'http://éxample.com/',
  'http://%00/',
  'http://a%2f@127.0.0.1:9/',
  'ftp://example.com/',
  'http:',
  'http://',
  'https://:443/',
  'http://127.0.0.1:9/' + LONG(3000, 'a'),
  'https://' + LONG(300, 'a') + '.com/',
  '2026-01-01T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00.000000001Z',
  '9999-12-31T23:59:59.999999999Z',
  '2026-02-30T00:00:00Z',
  '2024-02-29T23:59:59+23:59',
  '1970-01-01T00:00:00-23:59',
  '+275760-09-13T00:00:00Z',
  '2026-13-01T00:00:00Z',
  '2026-01-01T24:00:00Z',
  '2026-01-01T23:59:60Z',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '01890000-0000-7000-8000-000000000000',
  'we_' + LONG(20, 'a'),
  'ses_' + LONG(20, '0'),
  'ten_' + LONG(20, 'z'),
  'dlv_' + LONG(20, '1'),
  'rec_' + LONG(20, 'a') + '.wav',
  'vap_' + LONG(12, 'a'),
  'vap_' + LONG(12, 'a') + '_' + LONG(43, 'A'),
  'starter',
  'pro',
  'enterprise',
  'tenants',
  'ops@example.com',
  'a@b',
  '@',
  'a@' + LONG(300, 'b') + '.com',
];

export const HOSTILE_NUMBERS: readonly number[] = [
  0,
  -1,
  1,
  1.5,
  -1.5,
  0.1,
  1e-300,
  Number.MIN_VALUE,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53) - 2,
  1e21,
  1e308,
  -1e308,
  100_000_000,
  100_000_001,
  -100_000_000,
  -100_000_001,
  5000,
];

/** Number literals JSON.stringify never writes: they go into raw bodies as tokens. */
export const RAW_NUMBER_TOKENS: readonly string[] = [
  '1e400',
  '-1e400',
  '1.0',
  '-0',
  '0.0000001',
  '123456789012345678901234567890',
  '1E2',
  '5e-324',
];

export function hostileValue(rng: Rng, depth = 0): Json {
  const r = rng.int(12);
  switch (r) {
    case 0:
    case 1:
    case 2:
    case 3:
      return rng.pick(HOSTILE_STRINGS);
    case 4:
    case 5:
      return rng.pick(HOSTILE_NUMBERS);
    case 6:
      return rng.chance(0.5);
    case 7:
      return null;
    case 8:
      return depth > 2
        ? []
        : [hostileValue(rng, depth + 1), ...(rng.chance(0.3) ? [hostileValue(rng, depth + 1)] : [])];
    case 9:
      return depth > 2 ? {} : { [rng.pick(['a', 'code', 'prompt', 'url', '', ' '])]: hostileValue(rng, depth + 1) };
    case 10:
      return nested(rng.pick([2, 5, 31, 32, 33, 40]), rng.chance(0.5));
    default:
      return rng.pick([[], {}, [null], [''], [[]], [{}], Array.from({ length: 1000 }, (_, i) => i)]);
  }
}

export function nested(depth: number, arrays: boolean): Json {
  let value: Json = 'x';
  for (let i = 0; i < depth; i++) value = arrays ? [value] : { a: value };
  return value;
}

/** Whole bodies that are not a JSON object, or not JSON at all. */
export function hostileBody(rng: Rng): string | Buffer {
  const bodies: (() => string | Buffer)[] = [
    () => '',
    () => ' ',
    () => '\n\t',
    () => 'null',
    () => 'true',
    () => 'false',
    () => '0',
    () => '-1',
    () => rng.pick(RAW_NUMBER_TOKENS),
    () => '"x"',
    () => '""',
    () => '[]',
    () => '[{}]',
    () => '[null]',
    () => '{}',
    () => '{',
    () => '}',
    () => '{"a":1,}',
    () => "{'a':1}",
    () => '{"a":NaN}',
    () => '{"a":Infinity}',
    () => '{"a":undefined}',
    () => '{"a":1}{"b":2}',
    () => '{"a":1} trailing',
    () => '{"a":"\\u0000"}',
    () => '{"a":"\\ud800"}',
    () => '{"\\u0000":1}',
    () => '{"\\ud800":1}',
    () => '{"__proto__":{"polluted":true}}',
    () => '{"constructor":{"prototype":{"polluted":true}}}',
    () => '{"a":{"__proto__":{"isAdmin":true}}}',
    () => '\ufeff{}',
    () => Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
    () => Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0xaf, 0x22, 0x7d]),
    () => Buffer.from('{"name":"\u00e9t\u00e9"}', 'latin1'),
    () => Buffer.from('{"name":"x"}', 'utf16le'),
    () => Buffer.from([0x00, 0x00, 0x00, 0x00]),
    () => '['.repeat(33) + ']'.repeat(33),
    () => '['.repeat(5_000) + ']'.repeat(5_000),
    () => '{"a":'.repeat(1_000) + '1' + '}'.repeat(1_000),
    () => '['.repeat(100_000),
    () => '[' + '1,'.repeat(50_000) + '1]',
    () => JSON.stringify({ a: LONG(BODY_LIMIT + 10) }),
    () => 'name=x&plan=pro',
    () => '<xml>1</xml>',
    () => '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--x--',
  ];
  return rng.pick(bodies)();
}

export const BODY_LIMIT = 1024 * 1024;

export const CONTENT_TYPES: readonly string[] = [
  'application/json; charset=utf-8',
  'application/json; charset=UTF-8',
  'application/json; charset=iso-8859-1',
  'application/json; charset=utf-16',
  'application/json; charset=nope',
  'Application/JSON',
  'application/json ;',
  'application/json;;;',
  'application/json; boundary="',
  'application/json; charset="utf-8"; charset=utf-8',
  'application/jsonx',
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/vnd.api+json',
  'text/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'application/sdp',
  'application/xml',
  '*/*',
  '',
  ';',
  'json',
  'application/\u00e9',
];

/** Percent-encodes the UTF-8 bytes of `text` (a lone surrogate becomes U+FFFD, as a client would send). */
export function encode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Raw (already encoded) path segments and query values with percent-encoding oddities. */
export const RAW_SEGMENTS: readonly string[] = [
  '%',
  '%2',
  '%zz',
  '%00',
  '%01',
  '%7F',
  '%2F',
  'a%2Fb',
  '%252F',
  '..',
  '.',
  '%2e%2e',
  '%2E',
  '%ED%A0%80',
  '%ED%BF%BF',
  '%C0%AF',
  '%C0%80',
  '%FF',
  '%E2%82',
  '%F0%9F%98%80',
  '%EF%BB%BF',
  '%20',
  '+',
  '%2B14155550100',
  '+14155550100',
  ';x',
  'a;b=c',
  '%3B',
  '%3F',
  '%23',
  '*',
  '~',
  LONG(199),
  LONG(200),
  LONG(201),
  LONG(5000),
  '%' + LONG(300, '41'),
];
