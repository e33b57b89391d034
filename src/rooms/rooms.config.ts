import { isIP } from 'node:net';
import { defineSettings } from '../config/config-section';

export interface RoomsSettings {
  roomDefaultTtlMs: number;
  /** Key of room links; null: derived from the webhook secret key (see src/rooms/infra/room-links.ts). */
  roomUrlSecret: string | null;
  /**
   * Addresses the platform's agent peer offers as its ICE host candidates (ROOM_ICE_HOSTS); null:
   * 127.0.0.1 when HOST is a loopback address, else every address of the machine's interfaces.
   */
  roomIceHosts: string[] | null;
  /** Rooms of one tenant live at once (being joined, or joined), counted across instances; one more is a 429. */
  maxLiveRoomsPerTenant: number;
  /**
   * MEDIA_ALLOW_PRIVATE_ADDRESSES: the participant's ICE candidates at private or loopback addresses
   * are kept (they are also kept when HOST is a loopback address); host names never are.
   */
  mediaAllowPrivateAddresses: boolean;
}

/** The rooms context's settings (docs/configuration.md, "Rooms"). */
export const roomsSettings = defineSettings<RoomsSettings>({
  title: 'Rooms',
  intro: "See [rooms.md](rooms.md). Where room links point (`ROOMS_URL`) is with the platform's addresses, above.",
  variables: [
    {
      variable: 'ROOM_URL_SECRET',
      default: 'derived',
      meaning:
        "Key of the room links' tokens: at least 32 characters. Unset: derived (HKDF) from the webhook secret key, which every instance sharing a database already shares. Changing it invalidates every outstanding room link.",
    },
    {
      variable: 'ROOM_ICE_HOSTS',
      default: 'see text',
      meaning:
        "Comma-separated IP addresses of this machine that the built-in agent peer offers as its ICE host candidates (with one address per family, its media sockets are bound to it). Unset: `127.0.0.1` when `HOST` is a loopback address (the default: browsers on the same machine), else every address of the machine's interfaces. An address the machine does not have fails each room's setup (`room.failed`). Rooms for browsers behind NAT go through the media gateway (`MEDIA_GATEWAY_URL`).",
    },
    {
      variable: 'ROOM_DEFAULT_TTL',
      default: '`1h`',
      meaning: "Duration from 1 s to 7 d: a room's lifetime when a request gives no `expires_in_seconds`.",
    },
    {
      variable: 'MAX_LIVE_ROOMS_PER_TENANT',
      default: '`10`',
      meaning:
        'Rooms of one tenant live at once (an offer being answered, or a call joined), counted in the database across instances: an integer from 1 to 100000. One more WHIP offer is a 429 (decision 59).',
    },
    {
      variable: 'MEDIA_ALLOW_PRIVATE_ADDRESSES',
      default: '`false`',
      meaning:
        "`true`/`1`/`yes` or `false`/`0`/`no` (any case). A room participant's ICE candidates at private, loopback, link-local or other non-public addresses are dropped before the agent sends anything to them, unless this is `true` or `HOST` is a loopback address (local development). Candidates named by a host name (mDNS `.local`) are dropped either way. See [rooms.md](rooms.md#the-media-path) (Candidates).",
    },
  ],
  parse: ({ str, int, bool, duration, problem }) => {
    const roomUrlSecret = str('ROOM_URL_SECRET');
    if (roomUrlSecret !== null && roomUrlSecret.length < 32) {
      problem('ROOM_URL_SECRET must be at least 32 characters (for example: openssl rand -base64 32)');
    }
    const iceHostsText = str('ROOM_ICE_HOSTS');
    const roomIceHosts = iceHostsText === null ? null : iceHostsText.split(',').map((h) => h.trim());
    if (roomIceHosts && roomIceHosts.some((h) => isIP(h) === 0)) {
      problem(`ROOM_ICE_HOSTS must be a comma-separated list of IP addresses (got "${iceHostsText ?? ''}")`);
    }
    const roomDefaultTtlMs = duration('ROOM_DEFAULT_TTL', '1h');
    if (roomDefaultTtlMs < 1000 || roomDefaultTtlMs > 7 * 86_400_000) {
      problem(`ROOM_DEFAULT_TTL must be a duration from 1s to 7d (got "${str('ROOM_DEFAULT_TTL') ?? ''}")`);
    }
    return {
      roomDefaultTtlMs,
      roomUrlSecret,
      roomIceHosts,
      maxLiveRoomsPerTenant: int('MAX_LIVE_ROOMS_PER_TENANT', 10, 1, 100_000),
      mediaAllowPrivateAddresses: bool('MEDIA_ALLOW_PRIVATE_ADDRESSES'),
    };
  },
});
