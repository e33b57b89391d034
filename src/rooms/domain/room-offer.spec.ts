import { offerProblem } from './room-offer';

/** An offer's session part and `n` media sections of the given kinds (enough SDP to be judged). */
function offer(...kinds: string[]): string {
  const head = ['v=0', 'o=- 1 2 IN IP4 127.0.0.1', 's=-', 't=0 0'];
  const sections = kinds.flatMap((kind, i) => [
    `m=${kind} 9 UDP/TLS/RTP/SAVPF 0`,
    'c=IN IP4 0.0.0.0',
    `a=mid:${i}`,
    'a=rtpmap:0 PCMU/8000',
  ]);
  return [...head, ...sections, ''].join('\r\n');
}

describe('offerProblem: what a room will answer', () => {
  it('accepts exactly one audio section, as the page sends', () => {
    expect(offerProblem(offer('audio'))).toBeNull();
  });

  it('refuses what is not SDP, or has no audio', () => {
    expect(offerProblem('hello')).toMatch(/not an SDP offer/);
    expect(offerProblem(offer())).toMatch(/no audio section/);
    expect(offerProblem(offer('video'))).toMatch(/no audio section/);
  });

  it('refuses more than one section: a second audio one, video, a data channel', () => {
    expect(offerProblem(offer(...Array<string>(200).fill('audio')))).toBe(
      'The SDP offer must have exactly one media section, for audio; it has 200 (200 audio).',
    );
    expect(offerProblem(offer('audio', 'video'))).toMatch(/exactly one media section.*2 \(1 audio, video\)/);
    expect(offerProblem(offer('audio', 'application'))).toMatch(/1 audio, application/);
    expect(offerProblem(offer('video', 'audio', 'audio'))).toMatch(/3 \(2 audio, video\)/);
  });
});
