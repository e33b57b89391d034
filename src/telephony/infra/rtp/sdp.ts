/**
 * SDP offer/answer for one audio stream (RFC 4566, RFC 3264): we offer PCMU (0), PCMA (8) and
 * telephone-event (101, RFC 4733) with ptime 20, and answer an offer with its first codec we speak
 * (PCMU or PCMA) and its telephone-event payload type when it has one.
 */
import { randomInt } from 'node:crypto';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export type G711Codec = 'PCMU' | 'PCMA';

export interface MediaDescription {
  /** The peer's (or our) RTP address. */
  host: string;
  port: number;
  /** Payload types in the order of the m= line. */
  payloadTypes: number[];
  /** Encoding name (upper case) by payload type, from rtpmap or the static table. */
  encodings: Map<number, string>;
}

/** What a call's media speaks once offer and answer agree. */
export interface NegotiatedMedia {
  remoteHost: string;
  remotePort: number;
  codec: G711Codec;
  payloadType: number;
  /** The telephone-event payload type, or null when the peer does not do RFC 4733. */
  dtmfPayloadType: number | null;
}

const STATIC: Record<number, string> = { 0: 'PCMU', 8: 'PCMA' };
export const DTMF_PAYLOAD_TYPE = 101;

export class SdpError extends Error {}

export function parseSdp(text: string): MediaDescription {
  let sessionHost: string | null = null;
  let media: MediaDescription | null = null;
  let mediaHost: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('c=')) {
      const host = /^c=IN IP[46] (\S+)/.exec(line)?.[1]?.split('/')[0] ?? null;
      if (media) mediaHost = host;
      else sessionHost = host;
    } else if (line.startsWith('m=')) {
      if (media) break; // only the first stream; we offer one
      const m = /^m=audio (\d+)(?:\/\d+)? RTP\/S?AVPF? ([\d ]+)$/.exec(line);
      if (!m) throw new SdpError(`No audio stream we can use: ${line}`);
      const payloadTypes = (m[2] ?? '').trim().split(/\s+/).map(Number);
      media = {
        host: '',
        port: Number(m[1]),
        payloadTypes,
        encodings: new Map(payloadTypes.filter((pt) => STATIC[pt]).map((pt) => [pt, STATIC[pt] ?? ''])),
      };
    } else if (media && line.startsWith('a=rtpmap:')) {
      const m = /^a=rtpmap:(\d+) ([^/]+)\/(\d+)/.exec(line);
      if (m) media.encodings.set(Number(m[1]), (m[2] ?? '').toUpperCase());
    }
  }
  if (!media) throw new SdpError('The SDP has no audio stream.');
  const host = mediaHost ?? sessionHost;
  if (!host) throw new SdpError('The SDP has no connection address.');
  checkMediaAddress(host, media.port);
  return { ...media, host };
}

/**
 * Where media may be sent (docs/security.md, "SIP and RTP"): an IP literal that is not unspecified,
 * multicast or broadcast (a host name would be looked up at every packet), and a port within 1-65534
 * (RTCP goes to the port above it). Anything else is an SdpError: the call is refused (488) or failed.
 */
export function checkMediaAddress(host: string, port: number): void {
  if (!Number.isInteger(port) || port < 1 || port > 65534)
    throw new SdpError(`The SDP's media port ${port} is out of range (1-65534).`);
  if (isIP(host) === 0) throw new SdpError('The SDP names no IP address (a host name is not accepted).');
  const range = ipaddr.parse(host).range();
  if (['unspecified', 'multicast', 'broadcast'].includes(range))
    throw new SdpError(`The SDP's media address is ${range}.`);
}

/** Our SDP (an offer with every payload type, or an answer with the chosen ones). */
export function buildSdp(options: {
  host: string;
  port: number;
  payloadTypes: { pt: number; name: string }[];
  sessionId?: number;
  version?: number;
}): string {
  const id = options.sessionId ?? randomInt(1, 2 ** 31);
  const lines = [
    'v=0',
    `o=- ${id} ${options.version ?? id} IN IP4 ${options.host}`,
    's=-',
    `c=IN IP4 ${options.host}`,
    't=0 0',
    `m=audio ${options.port} RTP/AVP ${options.payloadTypes.map((p) => p.pt).join(' ')}`,
    ...options.payloadTypes.map((p) => `a=rtpmap:${p.pt} ${p.name}/8000`),
    ...options.payloadTypes.filter((p) => p.name === 'telephone-event').map((p) => `a=fmtp:${p.pt} 0-16`),
    'a=ptime:20',
    'a=sendrecv',
  ];
  return `${lines.join('\r\n')}\r\n`;
}

export const OFFERED = [
  { pt: 0, name: 'PCMU' },
  { pt: 8, name: 'PCMA' },
  { pt: DTMF_PAYLOAD_TYPE, name: 'telephone-event' },
];

export function buildOffer(host: string, port: number): string {
  return buildSdp({ host, port, payloadTypes: OFFERED });
}

/** What the peer's answer to our offer chose (its first G.711 payload type). */
export function negotiatedFromAnswer(
  answer: MediaDescription,
  allows: (host: string) => boolean = () => true,
): NegotiatedMedia {
  return negotiate(answer, allows);
}

/**
 * Chooses from an offer: its first G.711 codec; throws SdpError when it has none, or when its media
 * address is not one `allows` (RTP_ALLOWED_SOURCES) accepts (answer 488).
 */
export function negotiate(offer: MediaDescription, allows: (host: string) => boolean = () => true): NegotiatedMedia {
  if (!allows(offer.host)) throw new SdpError("The SDP's media address is not within RTP_ALLOWED_SOURCES.");
  const chosen = offer.payloadTypes.find((pt) => ['PCMU', 'PCMA'].includes(offer.encodings.get(pt) ?? ''));
  if (chosen === undefined) throw new SdpError('No common codec (we speak PCMU and PCMA).');
  const dtmf = offer.payloadTypes.find((pt) => offer.encodings.get(pt) === 'TELEPHONE-EVENT');
  return {
    remoteHost: offer.host,
    remotePort: offer.port,
    codec: offer.encodings.get(chosen) === 'PCMA' ? 'PCMA' : 'PCMU',
    payloadType: chosen,
    dtmfPayloadType: dtmf ?? null,
  };
}

/** Our answer to an offer, given what `negotiate` chose. */
export function buildAnswer(host: string, port: number, media: NegotiatedMedia): string {
  const payloadTypes: { pt: number; name: string }[] = [{ pt: media.payloadType, name: media.codec }];
  if (media.dtmfPayloadType !== null) payloadTypes.push({ pt: media.dtmfPayloadType, name: 'telephone-event' });
  return buildSdp({ host, port, payloadTypes });
}
