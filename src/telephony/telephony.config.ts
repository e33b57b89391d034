import { isIP } from 'node:net';
import { defineSettings } from '../config/config-section';
import { parsePortRange, type PortRange } from './infra/rtp/rtp-ports';
import { parseSourceList } from './infra/sip/allowed-sources';

export interface TelephonySettings {
  /** SIP_LISTEN: where the user agent listens over UDP and TCP. */
  listenHost: string;
  listenPort: number;
  /** True when SIP_LISTEN was set: inbound calls are wanted even without a trunk. */
  listenSet: boolean;
  /** SIP_PUBLIC_HOST: the address put in Via, Contact and SDP; null: derived (sip-user-agent.ts). */
  publicHost: string | null;
  rtpPorts: PortRange;
  username: string | null;
  password: string | null;
  ringTimeoutMs: number;
  /** SIP_CPS: new outbound calls in any sliding second, across all instances (carrier-budget.ts). */
  cps: number;
  /** SIP_MAX_CALLS: calls at once, both directions, across all instances. */
  maxCalls: number;
  /** TENANT_MAX_CALLS: one tenant's production calls at once, both directions, across all instances. */
  tenantMaxCalls: number;
  /** SIP_ALLOWED_SOURCES: who may send SIP (allowed-sources.ts); null: the trunk host's addresses. */
  sipAllowedSources: string | null;
  /** RTP_ALLOWED_SOURCES: who may send RTP; null: as SIP. */
  rtpAllowedSources: string | null;
  /** SIP_MEDIA_PROCESS: `inline` (this process runs SIP and media) or `external` (media processes do). */
  mediaProcess: 'inline' | 'external';
  /** SIP_MEDIA_LEASE: a media process whose heartbeat is older than this is dead; its calls end `media_lost`. */
  mediaLeaseMs: number;
}

/** The telephony context's settings (docs/configuration.md, "Telephony"); SIP_TRUNK_URI is the platform's. */
export const telephonySettings = defineSettings<TelephonySettings>({
  title: 'Telephony',
  intro:
    "See [telephony.md](telephony.md). The SIP user agent runs only when `SIP_TRUNK_URI` (with the platform's settings, above) or `SIP_LISTEN` is set.",
  variables: [
    {
      variable: 'SIP_LISTEN',
      default: '`0.0.0.0:5060`',
      meaning:
        '`host:port` where the SIP user agent listens, over UDP and TCP (port 0: any free port). Setting it turns inbound calls on even without `SIP_TRUNK_URI`.',
    },
    {
      variable: 'SIP_PUBLIC_HOST',
      default: 'see text',
      meaning:
        "The IPv4 address peers reach this machine at, put in SIP `Via`/`Contact` and in SDP. Unset: the host of `SIP_LISTEN`, or, when that is `0.0.0.0`, the machine's first external IPv4 address.",
    },
    {
      variable: 'RTP_PORTS',
      default: '`40000-40999`',
      meaning: 'UDP port range of call media: each call takes an even port for RTP and the next for RTCP.',
    },
    {
      variable: 'SIP_USERNAME',
      default: 'unset',
      meaning: 'Digest username for a trunk that challenges (401 or 407).',
    },
    { variable: 'SIP_PASSWORD', default: 'unset', meaning: 'Digest password that goes with `SIP_USERNAME`.' },
    {
      variable: 'SIP_RING_TIMEOUT',
      default: '`30s`',
      meaning:
        'Duration from 1 s to 10 min counted from the INVITE: with no final answer by then the call is cancelled (`CANCEL`) and ends as `no_answer`.',
    },
    {
      variable: 'SIP_CPS',
      default: '`1`',
      meaning:
        'New outbound calls per second the trunk allows (1 to 1000), held in every sliding 1-second window across all instances; calls over it wait in order, they do not fail.',
    },
    {
      variable: 'SIP_MAX_CALLS',
      default: '`100`',
      meaning:
        'Calls at once the trunk allows, outbound and inbound together (1 to 100000), across all instances; an outbound call over it waits for one to end, an inbound one is refused with `503` and `Retry-After`.',
    },
    {
      variable: 'TENANT_MAX_CALLS',
      default: '`20`',
      meaning:
        'One tenant\'s production calls at once, both directions (1 to 100000), across all instances: an outbound call over it waits (`hold_reason: "concurrency_limit"`), an inbound one is refused with `486`.',
    },
    {
      variable: 'SIP_ALLOWED_SOURCES',
      default: "the trunk's addresses",
      meaning:
        "Comma-separated IP addresses or CIDR ranges allowed to send SIP (UDP datagrams and TCP connections). Unset: the addresses `SIP_TRUNK_URI`'s host resolves to, looked up again every 5 minutes. SIP from any other address gets no answer. `SIP_LISTEN` with neither this nor a trunk refuses to start.",
    },
    {
      variable: 'RTP_ALLOWED_SOURCES',
      default: '`SIP_ALLOWED_SOURCES`',
      meaning:
        "Comma-separated IP addresses or CIDR ranges allowed to send call media, and to be named as the media address in an SDP; RTP from any other address is dropped. Set it when the carrier's media servers are not its signalling servers.",
    },
    {
      variable: 'SIP_MEDIA_PROCESS',
      default: '`inline`',
      meaning:
        '`inline`: this process runs the SIP user agent and call media. `external`: it does not (an API instance); media processes (`node dist/media.js`) on the same database do.',
    },
    {
      variable: 'SIP_MEDIA_LEASE',
      default: '`15s`',
      meaning:
        "Duration from 3 s to 5 min: a media process renews its lease every third of it; when a lease is older, any instance ends that process's calls as `failed` (`media_lost`) and frees their slots.",
    },
  ],
  parse: ({ str, int, durationWithin, problem }) => {
    const listen = str('SIP_LISTEN');
    const match = /^(\d{1,3}(?:\.\d{1,3}){3}):(\d{1,5})$/.exec(listen ?? '0.0.0.0:5060');
    if (!match || isIP(match[1] ?? '') !== 4 || Number(match[2]) > 65535) {
      problem(`SIP_LISTEN must be an IPv4 host:port such as 0.0.0.0:5060 (got "${listen ?? ''}")`);
    }
    const publicHost = str('SIP_PUBLIC_HOST');
    if (publicHost !== null && isIP(publicHost) !== 4) {
      problem(`SIP_PUBLIC_HOST must be an IPv4 address (got "${publicHost}")`);
    }
    let rtpPorts: PortRange = { first: 40000, last: 40999 };
    try {
      rtpPorts = parsePortRange(str('RTP_PORTS') ?? '40000-40999');
    } catch (error) {
      problem(error instanceof Error ? error.message : String(error));
    }
    const username = str('SIP_USERNAME');
    const password = str('SIP_PASSWORD');
    if ((username === null) !== (password === null))
      problem('SIP_USERNAME and SIP_PASSWORD go together: set both or neither');
    const sources = (name: string): string | null => {
      const text = str(name);
      if (text === null) return null;
      try {
        parseSourceList(text);
      } catch (error) {
        problem(`${name} must list IP addresses or CIDR ranges separated by commas: ${(error as Error).message}`);
      }
      return text;
    };
    const sipAllowedSources = sources('SIP_ALLOWED_SOURCES');
    const rtpAllowedSources = sources('RTP_ALLOWED_SOURCES');
    if (listen !== null && sipAllowedSources === null && str('SIP_TRUNK_URI') === null)
      problem(
        'SIP_LISTEN is set with neither SIP_TRUNK_URI nor SIP_ALLOWED_SOURCES: set SIP_ALLOWED_SOURCES to the addresses allowed to send SIP (the SIP port would otherwise answer anyone)',
      );
    const mediaProcess = str('SIP_MEDIA_PROCESS') ?? 'inline';
    if (mediaProcess !== 'inline' && mediaProcess !== 'external')
      problem(`SIP_MEDIA_PROCESS must be inline or external (got "${mediaProcess}")`);
    return {
      listenHost: match?.[1] ?? '0.0.0.0',
      listenPort: Number(match?.[2] ?? 5060),
      listenSet: listen !== null,
      publicHost,
      rtpPorts,
      username,
      password,
      ringTimeoutMs: durationWithin('SIP_RING_TIMEOUT', '30s', 1000, 600_000, '1s to 10m'),
      cps: int('SIP_CPS', 1, 1, 1000),
      maxCalls: int('SIP_MAX_CALLS', 100, 1, 100_000),
      tenantMaxCalls: int('TENANT_MAX_CALLS', 20, 1, 100_000),
      sipAllowedSources,
      rtpAllowedSources,
      mediaProcess: mediaProcess === 'external' ? 'external' : 'inline',
      mediaLeaseMs: durationWithin('SIP_MEDIA_LEASE', '15s', 3000, 300_000, '3s to 5m'),
    };
  },
});
