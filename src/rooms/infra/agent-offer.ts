/**
 * What a room's call needs to know of the agent's peer before it exists: how its setup fails and at
 * what rate it records. Apart from agent-peer.ts so that werift (the WebRTC stack, heavy: decision 176)
 * is loaded with the first room an agent joins, not when the service starts (decision 176).
 */

/** The participant's offer cannot be answered (not SDP, no audio, neither Opus nor PCMU): the request's fault. */
export class OfferRejected extends Error {}

/** The agent's side could not be set up (no usable address, the WebRTC stack failed): the room fails with `code`. */
export class AgentSetupFailed extends Error {
  constructor(
    message: string,
    readonly code: 'agent_unreachable' | 'relay_authentication_failed' | 'recording_failed' = 'agent_unreachable',
  ) {
    super(message);
  }
}

/** The recording's rate for a PCMU call (8 kHz: G.711 carries nothing above 4 kHz). */
const RECORDING_RATE = 8000;
/** The recording's rate for an Opus call: wideband speech, what speech recognisers take (decision 122). */
const WIDEBAND_RECORDING_RATE = 16000;

/** The recording rate for a call answering `offerSdp`: 16 kHz when it offers Opus (the agent then takes it), else 8 kHz. */
export function recordingRateFor(offerSdp: string): number {
  return /^a=rtpmap:\d+ opus\/48000/im.test(offerSdp) ? WIDEBAND_RECORDING_RATE : RECORDING_RATE;
}
