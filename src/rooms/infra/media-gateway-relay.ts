import { request } from 'undici';
import { signDelivery } from '../../kernel/signing/signing';
import { AgentSetupFailed, OfferRejected } from './agent-offer';

export interface GatewayTarget {
  url: string;
  secret: string;
}

/** Who the offer is for: sent with it so that the gateway runs the room's agent. */
export interface RoomContext {
  room_id: string;
  session_id: string;
  tenant_id: string;
  participant_id: string;
  client_reference_id: string | null;
  agent_config: unknown;
  voice_id: string;
}

const TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 64 * 1024;

function signed(gateway: GatewayTarget, room: RoomContext, type: string, body: string): Record<string, string> {
  return {
    ...signDelivery({
      secret: gateway.secret,
      eventId: room.session_id,
      eventType: type,
      timestampSeconds: Math.floor(Date.now() / 1000),
      body,
    }),
    'X-Room-Id': room.room_id,
    'X-Session-Id': room.session_id,
    'X-Tenant-Id': room.tenant_id,
    'X-Room-Context': Buffer.from(JSON.stringify(room)).toString('base64url'),
  };
}

/**
 * Relays the participant's WHIP offer to `{MEDIA_GATEWAY_URL}/rooms/{room_id}/whip` (docs/media-gateway.md),
 * signed like a webhook with MEDIA_GATEWAY_SECRET (webhook id: the room's session id), and returns the
 * gateway's SDP answer. A 401 or 403 is a relay authentication failure, a 400 or 415 the offer's fault,
 * anything else (or no answer in 10 s) an unreachable agent.
 */
export async function relayOffer(gateway: GatewayTarget, room: RoomContext, offerSdp: string): Promise<string> {
  const headers = { ...signed(gateway, room, 'room.whip_offer', offerSdp), 'Content-Type': 'application/sdp' };
  let status: number;
  let text: string;
  try {
    const response = await request(`${gateway.url}/rooms/${room.room_id}/whip`, {
      method: 'POST',
      headers,
      body: offerSdp,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    status = response.statusCode;
    text = (await response.body.text()).slice(0, MAX_ANSWER_BYTES);
  } catch (err) {
    throw new AgentSetupFailed(`The media gateway did not answer: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (status === 401 || status === 403)
    throw new AgentSetupFailed(
      `The media gateway refused the relay's credentials (HTTP ${status}).`,
      'relay_authentication_failed',
    );
  if (status === 400 || status === 415 || status === 422)
    throw new OfferRejected(`The media gateway refused the offer (HTTP ${status}).`);
  if (status < 200 || status >= 300 || !text.startsWith('v=0'))
    throw new AgentSetupFailed(`The media gateway answered HTTP ${status} without an SDP answer.`);
  return text;
}

/**
 * Tells the gateway the participant hung up (best effort: its own liveness rule ends the call
 * otherwise). The signed body names the room (`{"room_id", "session_id"}`), so that the signature,
 * which also covers its timestamp, cannot be replayed against another room's hang-up.
 */
export async function hangUpAtGateway(gateway: GatewayTarget, room: RoomContext): Promise<void> {
  const body = hangUpBody(room);
  const response = await request(`${gateway.url}/rooms/${room.room_id}/whip`, {
    method: 'DELETE',
    headers: signed(gateway, room, 'room.whip_hangup', body),
    body,
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  await response.body.dump();
}

/** The signed body of a hang-up: the room it ends. */
export function hangUpBody(room: Pick<RoomContext, 'room_id' | 'session_id'>): string {
  return JSON.stringify({ room_id: room.room_id, session_id: room.session_id });
}
