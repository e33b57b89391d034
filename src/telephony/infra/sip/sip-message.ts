/**
 * SIP messages (RFC 3261 section 7): parse and serialise requests and responses. Header names are
 * kept in their canonical long form (compact forms such as `v` or `i` are expanded on parse); a header
 * that holds several comma-separated values (Via, Route, Record-Route, Contact) is split into one
 * entry per value, so "the top Via" is simply the first. Line folding is not supported (RFC 3261
 * deprecates it and no trunk we met sends it).
 */

export interface SipHeader {
  name: string;
  value: string;
}

interface SipMessageBase {
  headers: SipHeader[];
  body: string;
}

export interface SipRequest extends SipMessageBase {
  kind: 'request';
  method: string;
  uri: string;
}

export interface SipResponse extends SipMessageBase {
  kind: 'response';
  status: number;
  reason: string;
}

export type SipMessage = SipRequest | SipResponse;

const COMPACT: Record<string, string> = {
  i: 'Call-ID',
  m: 'Contact',
  e: 'Content-Encoding',
  l: 'Content-Length',
  c: 'Content-Type',
  f: 'From',
  s: 'Subject',
  k: 'Supported',
  t: 'To',
  v: 'Via',
  r: 'Refer-To',
  b: 'Referred-By',
  o: 'Event',
  u: 'Allow-Events',
};

const CANONICAL: Record<string, string> = Object.fromEntries(
  [
    'Call-ID',
    'CSeq',
    'WWW-Authenticate',
    'Proxy-Authenticate',
    'Proxy-Authorization',
    'Record-Route',
    'Max-Forwards',
    'Refer-To',
    'Referred-By',
    'Allow-Events',
    'Subscription-State',
    'User-Agent',
    ...Object.values(COMPACT),
  ].map((name) => [name.toLowerCase(), name]),
);

/** Headers whose comma-separated values are separate entries (the others keep commas, e.g. digest). */
const LIST_HEADERS = new Set(['via', 'route', 'record-route', 'contact', 'allow', 'supported']);

export class SipParseError extends Error {}

/** A message on a stream over its limits: `head` (16 KB) or `body` (64 KB); `request` when its head parsed. */
export class StreamLimitError extends SipParseError {
  constructor(
    readonly kind: 'head' | 'body',
    readonly request: SipRequest | null,
  ) {
    super(
      kind === 'head'
        ? 'A message on a stream has headers over the limit.'
        : 'A message on a stream has a body over the limit.',
    );
  }
}

/** At most 200 characters of something received, for an error message or a log line. */
export function excerpt(text: string, limit = 200): string {
  const flat = text.replace(/[\r\n]+/g, ' ');
  return flat.length > limit ? `${flat.slice(0, limit)}…` : flat;
}

export function canonicalName(name: string): string {
  const lower = name.trim().toLowerCase();
  const expanded = COMPACT[lower] ?? lower;
  return (
    CANONICAL[expanded.toLowerCase()] ??
    expanded.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase())
  );
}

/** Splits at commas outside quotes and angle brackets. */
export function splitList(value: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '"' && value[i - 1] !== '\\') quoted = !quoted;
    else if (!quoted && c === '<') depth++;
    else if (!quoted && c === '>') depth--;
    else if (!quoted && depth === 0 && c === ',') {
      parts.push(value.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(value.slice(start).trim());
  return parts.filter((p) => p.length > 0);
}

/** Parses the head (start line and headers, without the blank line) and the body of one message. */
export function parseSipMessage(head: string, body: string): SipMessage {
  const lines = head.split(/\r?\n/);
  const startLine = lines.shift() ?? '';
  const headers: SipHeader[] = [];
  for (const line of lines) {
    if (line === '') continue;
    if (/^[ \t]/.test(line)) throw new SipParseError('Folded header lines are not supported.');
    const colon = line.indexOf(':');
    if (colon <= 0) throw new SipParseError(`Malformed header line: ${excerpt(line)}`);
    const name = canonicalName(line.slice(0, colon));
    const value = line.slice(colon + 1).trim();
    const values = LIST_HEADERS.has(name.toLowerCase()) ? splitList(value) : [value];
    for (const v of values) headers.push({ name, value: v });
  }
  const status = /^SIP\/2\.0 (\d{3}) ?(.*)$/.exec(startLine);
  if (status) return { kind: 'response', status: Number(status[1]), reason: status[2] ?? '', headers, body };
  const request = /^([A-Z]+) (\S+) SIP\/2\.0$/.exec(startLine);
  if (!request) throw new SipParseError(`Malformed start line: ${excerpt(startLine)}`);
  for (const required of ['Via', 'Call-ID', 'CSeq', 'From', 'To']) {
    if (!headers.some((h) => h.name === required)) throw new SipParseError(`Missing ${required} header.`);
  }
  return { kind: 'request', method: request[1] ?? '', uri: request[2] ?? '', headers, body };
}

/**
 * Parses one datagram. For a stream, `splitStream` first finds where each message ends.
 */
export function parseDatagram(data: Buffer): SipMessage {
  const text = data.toString('utf8');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) throw new SipParseError('No blank line after the headers.');
  const message = parseSipMessage(text.slice(0, end), '');
  const declared = header(message, 'Content-Length');
  const raw = data.subarray(Buffer.byteLength(text.slice(0, end + 4)));
  const length = declared === undefined ? raw.length : Number(declared);
  if (!Number.isInteger(length) || length < 0 || length > raw.length) throw new SipParseError('Bad Content-Length.');
  message.body = raw.subarray(0, length).toString('utf8');
  return message;
}

export interface StreamSplit {
  messages: SipMessage[];
  rest: Buffer;
  /** Leading bytes of `rest` known to hold no blank line (pass back as `scanned`). */
  scanned: number;
  /** The length `rest` must reach before the message it starts is whole (0: unknown). */
  awaiting: number;
}

export interface StreamLimits {
  /** The most bytes of a message's start line and headers. */
  headerBytes: number;
  /** The most bytes of its body. */
  bodyBytes: number;
}

/**
 * Takes whole messages off the front of a TCP stream buffer (Content-Length is mandatory on streams):
 * returns them and the remainder. Leading CRLF keep-alives are skipped. A head longer than
 * `limits.headerBytes` without its blank line, or a declared body over `limits.bodyBytes`, is a
 * `StreamLimitError`: the stream cannot go on. `scanned` says how many leading bytes are already
 * known to hold no blank line (the caller's last look), so that a slowly sent head is searched once.
 */
export function splitStream(
  buffer: Buffer,
  limits: StreamLimits = { headerBytes: Infinity, bodyBytes: Infinity },
  scanned = 0,
): StreamSplit {
  const messages: SipMessage[] = [];
  let rest = buffer;
  let from = scanned;
  let known = 0;
  let awaiting = 0;
  for (;;) {
    while (rest.length >= 2 && rest[0] === 0x0d && rest[1] === 0x0a) {
      rest = rest.subarray(2);
      from = Math.max(0, from - 2);
    }
    const end = rest.indexOf('\r\n\r\n', Math.max(0, from - 3));
    if (end < 0 || end > limits.headerBytes) {
      if (rest.length > limits.headerBytes) throw new StreamLimitError('head', null);
      known = rest.length;
      break;
    }
    from = 0;
    const head = rest.subarray(0, end).toString('utf8');
    const lengthLine = /^(?:content-length|l)[ \t]*:[ \t]*(\d+)/im.exec(head);
    if (!lengthLine) throw new SipParseError('A message on a stream needs Content-Length.');
    const bodyLength = Number(lengthLine[1]);
    if (bodyLength > limits.bodyBytes) {
      let request: SipRequest | null = null;
      try {
        const parsed = parseSipMessage(head, '');
        if (parsed.kind === 'request') request = parsed;
      } catch {
        // Answered without its headers.
      }
      throw new StreamLimitError('body', request);
    }
    const total = end + 4 + bodyLength;
    if (rest.length < total) {
      known = end; // the head is whole: found again at once when more of the body comes
      awaiting = total;
      break;
    }
    const message = parseSipMessage(head, rest.subarray(end + 4, total).toString('utf8'));
    messages.push(message);
    rest = rest.subarray(total);
  }
  return { messages, rest, scanned: known, awaiting };
}

export function serialiseSipMessage(message: SipMessage): Buffer {
  const start =
    message.kind === 'request'
      ? `${message.method} ${message.uri} SIP/2.0`
      : `SIP/2.0 ${message.status} ${message.reason}`;
  const lines = message.headers.filter((h) => h.name !== 'Content-Length').map((h) => `${h.name}: ${h.value}`);
  lines.push(`Content-Length: ${Buffer.byteLength(message.body)}`);
  return Buffer.from(`${start}\r\n${lines.join('\r\n')}\r\n\r\n${message.body}`, 'utf8');
}

/** The first value of a header (names in any case or compact form), or undefined. */
export function header(message: SipMessage, name: string): string | undefined {
  const wanted = canonicalName(name);
  return message.headers.find((h) => h.name === wanted)?.value;
}

export function headers(message: SipMessage, name: string): string[] {
  const wanted = canonicalName(name);
  return message.headers.filter((h) => h.name === wanted).map((h) => h.value);
}

export function setHeader(message: SipMessage, name: string, value: string): void {
  const wanted = canonicalName(name);
  message.headers = message.headers.filter((h) => h.name !== wanted);
  message.headers.push({ name: wanted, value });
}

export function cseqOf(message: SipMessage): { seq: number; method: string } {
  const [seq, method] = (header(message, 'CSeq') ?? '').split(/\s+/);
  return { seq: Number(seq), method: method ?? '' };
}

/** A response to `request` that copies Via, From, To, Call-ID and CSeq (RFC 3261 section 8.2.6). */
export function responseTo(request: SipRequest, status: number, reason: string, toTag?: string): SipResponse {
  const copied = request.headers.filter((h) => ['Via', 'From', 'To', 'Call-ID', 'CSeq'].includes(h.name));
  const response: SipResponse = { kind: 'response', status, reason, headers: copied.map((h) => ({ ...h })), body: '' };
  const to = header(response, 'To') ?? '';
  if (toTag && !paramOf(to, 'tag')) setHeader(response, 'To', `${to};tag=${toTag}`);
  return response;
}

/** The URI inside a name-addr (`"Bob" <sip:bob@host>;tag=1`) or an addr-spec (`sip:bob@host;tag=1`). */
export function uriOf(nameAddr: string): string {
  const angle = /<([^>]*)>/.exec(nameAddr);
  if (angle) return angle[1] ?? '';
  return (nameAddr.trim().split(';')[0] ?? '').trim();
}

/** A header parameter (after the URI of a name-addr): `tag`, `branch`, `received`… */
export function paramOf(value: string, name: string): string | undefined {
  const afterUri = value.includes('>') ? value.slice(value.lastIndexOf('>') + 1) : value;
  for (const part of afterUri.split(';').slice(1)) {
    const [key, val] = part.split('=');
    if (key?.trim().toLowerCase() === name) return (val ?? '').trim();
  }
  return undefined;
}

export interface SipUri {
  scheme: string;
  user: string | null;
  host: string;
  port: number | null;
  params: Record<string, string>;
}

export function parseSipUri(text: string): SipUri {
  const match = /^(sips?):(?:([^@;]+)@)?(\[[^\]]+\]|[^:;?]+)(?::(\d+))?([^?]*)/i.exec(text.trim());
  if (!match) throw new SipParseError(`Not a SIP URI: ${excerpt(text)}`);
  const params: Record<string, string> = {};
  for (const part of (match[5] ?? '').split(';').slice(1)) {
    const [key, val] = part.split('=');
    if (key) params[key.toLowerCase()] = val ?? '';
  }
  return {
    scheme: (match[1] ?? 'sip').toLowerCase(),
    user: match[2] ?? null,
    host: match[3] ?? '',
    port: match[4] ? Number(match[4]) : null,
    params,
  };
}
