/**
 * A private call (placed with a private prompt: a number verification call speaks its code): the
 * prompt is stored only sealed, its turns keep no text, its disposition no note, and no recording is kept, so that neither the
 * events, the webhooks nor the tenant's reads give away what was said.
 */
import { fold } from '../../kernel/decider';
import { checkedSessionDecider, placeCommand, signal } from '../../../test/support/session-decider-fixtures';
import type { SessionCommand, SessionEvent } from './session.decider';

const SEALED = 'v1:aXY=:dGFn:Y2lwaGVy';

function play(commands: SessionCommand[]): SessionEvent[] {
  return commands.reduce<SessionEvent[]>(
    (history, c) => [...history, ...checkedSessionDecider.decide(c, fold(checkedSessionDecider, history))],
    [],
  );
}

describe('session decider: private calls', () => {
  const calls = (sealedPrompt?: string) =>
    play([
      placeCommand(sealedPrompt ? { sealedPrompt } : {}),
      signal(1, { kind: 'answered' }, 1),
      signal(2, { kind: 'turn', role: 'agent', content: 'Your verification code is 1 2 3 4 5 6.', t: 0.5 }, 2),
      signal(3, { kind: 'agent_disposition', code: 'verified', note: 'Read out 1 2 3 4 5 6 twice.' }, 7),
      signal(4, { kind: 'hangup', status: 'completed', end_reason: 'completed' }, 8),
      signal(5, { kind: 'recording_ready', recording_id: 'rec_0123456789', duration_seconds: 7, channels: 'dual' }, 9),
    ]);

  it('keeps the sealed prompt in session.placed, no turn text, no disposition note and no recording', () => {
    const events = calls(SEALED);
    expect(events[0]).toMatchObject({ type: 'session.placed', data: { sealed_prompt: SEALED } });
    expect(JSON.stringify(events)).not.toContain('1 2 3 4 5 6');
    expect(events.find((e) => e.type === 'session.transcript_appended')).toEqual({
      type: 'session.transcript_appended',
      data: { entry: { role: 'agent', t: 0.5 } },
    });
    expect(events.find((e) => e.type === 'session.agent_disposition_given')).toMatchObject({
      data: { code: 'verified', note: null },
    });
    expect(events.map((e) => e.type)).not.toContain('session.recording_completed');
    expect(events.map((e) => e.type)).toContain('session.ended');
  });

  it('an ordinary call keeps both, and has no sealed prompt', () => {
    const events = calls();
    expect(events[0]).toMatchObject({ type: 'session.placed' });
    expect(JSON.stringify(events[0])).not.toContain('sealed_prompt');
    expect(JSON.stringify(events)).toContain('1 2 3 4 5 6');
    expect(events.find((e) => e.type === 'session.agent_disposition_given')).toMatchObject({
      data: { note: 'Read out 1 2 3 4 5 6 twice.' },
    });
    expect(events.map((e) => e.type)).toContain('session.recording_completed');
  });
});
