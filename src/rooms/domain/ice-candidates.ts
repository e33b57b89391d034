import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { isLoopbackHost, isPublicAddress } from '../../kernel/net/public-address';

/**
 * The participant's ICE candidates the agent may send to (docs/rooms.md, "Candidates"): each
 * `a=candidate` line of an offer is parsed strictly (RFC 8839) before the WebRTC stack sees it, and
 * kept only when it names a UDP transport, an IP literal and a port, and that address is public.
 * Pure: the SDP text in, the SDP the agent may apply and what was dropped out.
 *
 * - A host name (mDNS `.local`, or any other) is always dropped: the agent never resolves what a
 *   participant names (werift would bind mDNS on 0.0.0.0:5353 for it; a DNS name would be looked
 *   up). Browsers reach the agent anyway: their checks come from their real address (ICE's
 *   peer-reflexive candidates).
 * - A private, loopback, link-local, CGNAT, unique-local or otherwise special-purpose address is
 *   dropped unless `allowPrivate` (the service listens on loopback, or
 *   MEDIA_ALLOW_PRIVATE_ADDRESSES=true). Unspecified, multicast and broadcast addresses are dropped
 *   even then: nothing answers STUN there.
 * - A line that does not parse, or names TCP (the agent has UDP sockets only), is dropped.
 * - At most MAX_CANDIDATES are kept; the rest are dropped.
 */

/** Enough for every interface of a browser in both families, with its server-reflexive and relay candidates. */
export const MAX_CANDIDATES = 20;
/** What a log line quotes of anything received, at most (docs/security.md). */
export const MAX_QUOTED = 200;

export type DropReason = 'malformed' | 'not_udp' | 'host_name' | 'not_public' | 'unusable' | 'too_many';

export interface DroppedCandidate {
  /** The candidate's attribute value, cut to MAX_QUOTED characters. */
  readonly quoted: string;
  readonly reason: DropReason;
}

export interface ScreenedOffer {
  /** The offer with only the kept `a=candidate` lines (every other line as it came). */
  readonly sdp: string;
  readonly kept: number;
  readonly dropped: readonly DroppedCandidate[];
}

export interface CandidatePolicy {
  /** Private and loopback addresses are kept (local development): never host names. */
  readonly allowPrivate: boolean;
}

/**
 * Whether private addresses are allowed as candidates: when the HTTP listener is bound to a
 * loopback address (`HOST`, local development: browsers on the same machine) or the operator says
 * so (MEDIA_ALLOW_PRIVATE_ADDRESSES=true).
 */
export function candidatePolicyFor(host: string, allowPrivateAddresses: boolean): CandidatePolicy {
  return { allowPrivate: allowPrivateAddresses || isLoopbackHost(host) };
}

/** The offer with its candidates screened (module comment); lines are split on CRLF or LF and joined with CRLF. */
export function screenCandidates(sdp: string, policy: CandidatePolicy): ScreenedOffer {
  const lines = sdp.split(/\r?\n/);
  const out: string[] = [];
  const dropped: DroppedCandidate[] = [];
  let kept = 0;
  for (const line of lines) {
    if (!/^a=candidate:/i.test(line)) {
      out.push(line);
      continue;
    }
    const value = line.slice('a=candidate:'.length);
    let reason = candidateProblem(value, policy);
    if (reason === null && kept >= MAX_CANDIDATES) reason = 'too_many';
    if (reason === null) {
      kept++;
      out.push(line);
    } else dropped.push({ quoted: quote(value), reason });
  }
  return { sdp: out.join('\r\n'), kept, dropped };
}

const FOUNDATION = /^[A-Za-z0-9+/]{1,32}$/;
const DIGITS = /^[0-9]{1,10}$/;
const CANDIDATE_TYPES = new Set(['host', 'srflx', 'prflx', 'relay']);
const TOKEN = /^[\x21-\x7e]{1,256}$/;

/** Why a candidate (the attribute's value, after `candidate:`) is dropped, or null when it is kept. */
export function candidateProblem(value: string, policy: CandidatePolicy): DropReason | null {
  if (value.length > 1024) return 'malformed';
  const bits = value.split(' ');
  const [foundation, component, transport, priority, address, port, typ, type, ...extensions] = bits;
  if (
    !foundation ||
    !FOUNDATION.test(foundation) ||
    !component ||
    !DIGITS.test(component) ||
    Number(component) < 1 ||
    Number(component) > 256 ||
    !transport ||
    !TOKEN.test(transport) ||
    !priority ||
    !DIGITS.test(priority) ||
    Number(priority) > 0xffffffff ||
    !address ||
    !TOKEN.test(address) ||
    !port ||
    !DIGITS.test(port) ||
    Number(port) > 65535 ||
    typ !== 'typ' ||
    !type ||
    !CANDIDATE_TYPES.has(type) ||
    extensions.length % 2 !== 0 ||
    !extensions.every((part) => TOKEN.test(part))
  )
    return 'malformed';
  if (transport.toLowerCase() !== 'udp') return 'not_udp';
  if (isIP(address) === 0 || !ipaddr.isValid(address)) return 'host_name';
  if (Number(port) === 0) return 'malformed';
  const range = ipaddr.process(address).range();
  if (range === 'unspecified' || range === 'multicast' || range === 'broadcast') return 'unusable';
  if (!policy.allowPrivate && !isPublicAddress(address)) return 'not_public';
  return null;
}

/** Received text for a log line: at most MAX_QUOTED characters, control characters shown as `?`. */
export function quote(text: string, max = MAX_QUOTED): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\x00-\x1f\x7f]/g, '?');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}
