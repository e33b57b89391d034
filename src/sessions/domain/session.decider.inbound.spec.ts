/**
 * Inbound sessions: a caller (`from`) dialled the tenant's number (`to`). The same decider plays them;
 * they carry `direction: "inbound"`, and the other party (`phone_number`, an opt-out) is the caller.
 */
import { fold } from '../../kernel/decider';
import {
  checkedSessionDecider,
  FROM,
  placeCommand,
  placed,
  signal,
  spec,
  TO,
} from '../../../test/support/session-decider-fixtures';
import type { MediaSignal } from './media-signal';
import { sessionEdge, type SessionCommand, type SessionEvent } from './session.decider';
import { INBOUND_TEST_SCRIPTS, scriptFor } from './test-pool.scenarios';

const inbound = (testScript: string | null = INBOUND_TEST_SCRIPTS.answered) =>
  placeCommand({ direction: 'inbound', testScript });

function play(command: SessionCommand, steps: { at: number; media: MediaSignal }[]): SessionEvent[] {
  const commands = [command, ...steps.map((s, i) => signal(i + 1, s.media, s.at))];
  return commands.reduce<SessionEvent[]>(
    (history, c) => [...history, ...checkedSessionDecider.decide(c, fold(checkedSessionDecider, history))],
    [],
  );
}

const scriptSteps = (key: string) =>
  scriptFor(key).flatMap((step) => ('signal' in step ? [{ at: step.at, media: step.signal }] : []));

describe('session decider: inbound calls', () => {
  it('places an inbound session with its direction and the test script to play', () => {
    const [first, created] = placed();
    const data = (first as Extract<SessionEvent, { type: 'session.placed' }>).data;
    spec
      .given([])
      .when(inbound())
      .then([
        { type: 'session.placed', data: { ...data, direction: 'inbound', test_script: 'inbound_answered' } },
        created!,
      ]);
    spec
      .given([])
      .when(inbound(null))
      .then([{ type: 'session.placed', data: { ...data, direction: 'inbound' } }, created!]);
  });

  it('a session.placed stored before inbound calls (no direction) is outbound', () => {
    const [first, created] = placed();
    const { direction: _d, ...older } = (first as Extract<SessionEvent, { type: 'session.placed' }>).data;
    const read = sessionEdge.decode({ type: 'session.placed', data: older });
    expect(fold(checkedSessionDecider, [read, created!])).toMatchObject({
      direction: 'outbound',
    });
  });

  it('the answered inbound script: the agent picks up, talks and completes; phone_number is the caller', () => {
    const events = play(inbound(), scriptSteps(INBOUND_TEST_SCRIPTS.answered));
    const ended = events.find((e) => e.type === 'session.ended') as Extract<SessionEvent, { type: 'session.ended' }>;
    expect(ended.data).toMatchObject({
      status: 'completed',
      to_number: TO,
      from_number: FROM,
      phone_number: FROM,
      duration_seconds: 20,
      actual_cost_cents: 0,
    });
    expect(ended.data.transcript.length).toBeGreaterThan(3);
  });

  it('the unanswered inbound script: no_answer, never started, and it ends after an answered one would', () => {
    const events = play(inbound(INBOUND_TEST_SCRIPTS.noAnswer), scriptSteps(INBOUND_TEST_SCRIPTS.noAnswer));
    const failed = events.find((e) => e.type === 'session.failed') as Extract<SessionEvent, { type: 'session.failed' }>;
    expect(failed.data).toMatchObject({ status: 'no_answer', started_at: null, phone_number: FROM });
    const lastAnswered = Math.max(...scriptSteps(INBOUND_TEST_SCRIPTS.answered).map((s) => s.at));
    expect(scriptSteps(INBOUND_TEST_SCRIPTS.noAnswer)[0]!.at).toBeGreaterThan(lastAnswered);
  });

  it("an opt-out on an inbound call names the caller's number", () => {
    const events = play(inbound(), [
      { at: 1, media: { kind: 'answered' } },
      { at: 2, media: { kind: 'opt_out' } },
    ]);
    expect(events.find((e) => e.type === 'session.opt_out_detected')?.data).toMatchObject({ phone_number: FROM });
  });
});
