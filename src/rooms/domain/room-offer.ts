import { quote } from './ice-candidates';

/**
 * What a room's WHIP offer may contain, checked before any media resource exists (the agent's
 * sockets, the gateway's relay): the page sends one microphone track, so an offer is exactly one
 * audio media section. Anything more (a second audio section, video, a data channel) is refused:
 * every section the agent accepted would bind sockets of its own. Pure: the SDP text in, the
 * reason of the refusal (or null) out.
 */
export function offerProblem(sdp: string): string | null {
  if (!sdp.startsWith('v=0')) return 'The body is not an SDP offer (it must start with v=0).';
  const sections = [...sdp.matchAll(/^m=([^ \r\n]*)/gm)].map((m) => m[1] ?? '');
  if (!sections.includes('audio')) return 'The SDP offer has no audio section.';
  if (sections.length > 1) {
    const audio = sections.filter((kind) => kind === 'audio').length;
    const others = sections.filter((kind) => kind !== 'audio');
    return (
      `The SDP offer must have exactly one media section, for audio; it has ${sections.length} ` +
      `(${audio} audio${others.length > 0 ? `, ${quote(others.join(', '))}` : ''}).`
    );
  }
  return null;
}
