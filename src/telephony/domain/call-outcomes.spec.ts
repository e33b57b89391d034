import { outcomeOfFailure } from './call-outcomes';
import { endSignal, unansweredSignal } from './call-outcomes';

describe('what a phone call tells its session', () => {
  it.each([
    [486, 'busy', 'busy'],
    [600, 'busy', 'busy'],
    [480, 'no_answer', 'no_answer'],
    [487, 'no_answer', 'no_answer'],
    [408, 'no_answer', 'no_answer'],
    [503, 'failed', 'sip_503'],
    [404, 'failed', 'sip_404'],
    [603, 'failed', 'sip_603'],
  ])('a final %i ends it %s (%s)', (code, status, endReason) => {
    const outcome = outcomeOfFailure(code);
    expect(unansweredSignal(outcome)).toEqual({ status, end_reason: endReason });
  });

  it('the ring timeout is no answer', () => {
    expect(unansweredSignal({ kind: 'no_answer', code: null })).toMatchObject({ status: 'no_answer' });
  });

  it.each([
    [{ by: 'remote' } as const, 'completed', 'completed'],
    [{ by: 'agent', reason: 'goodbye' } as const, 'completed', 'completed'],
    [{ by: 'agent', reason: 'transferred' } as const, 'completed', 'transferred'],
    [{ by: 'agent', reason: 'max_duration' } as const, 'completed', 'max_duration'],
    [{ by: 'lost' } as const, 'completed', 'connection_lost'],
    [{ by: 'voicemail' } as const, 'voicemail', 'voicemail'],
    [{ by: 'shutdown' } as const, 'failed', 'media_lost'],
    [{ by: 'error' } as const, 'failed', 'sip_error'],
  ])('an answered call ended %j ends %s (%s)', (ending, status, endReason) => {
    expect(endSignal(ending)).toEqual({ status, end_reason: endReason });
  });
});
