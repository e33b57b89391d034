/**
 * The session decider driven by the test-pool scripts: each script is a whole call, so these tests fold
 * the decider over every command of it, as the command executor would, and check the story it tells
 * (the given/when/then of each decision is in the other session.decider*.spec.ts files). Every catalog
 * event decided is checked against the catalog schema.
 */
import { fold } from '../../kernel/decider';
import {
  catalogTypes,
  checkedSessionDecider,
  emitted,
  expectCatalogValid,
  placeCommand,
  signal,
} from '../../../test/support/session-decider-fixtures';
import type { MediaSignal } from './media-signal';
import { SessionCommand, SessionEvent } from './session.decider';
import { scriptFor, TEST_NUMBERS } from './test-pool.scenarios';

const find = <T extends SessionEvent['type']>(events: readonly SessionEvent[], type: T) =>
  events.find((e) => e.type === type) as Extract<SessionEvent, { type: T }> | undefined;

/** Plays a test-pool script through the decider (record steps become recording_ready). */
function playScript(to: string, testMode = true): SessionEvent[] {
  let recordingSeq = 0;
  const commands: SessionCommand[] = [
    placeCommand({ toNumber: to, testMode }),
    ...scriptFor(to).map((step, i) => {
      const media: MediaSignal =
        'signal' in step
          ? step.signal
          : {
              kind: 'recording_ready',
              recording_id: `rec_script${String(++recordingSeq).padStart(10, '0')}`,
              duration_seconds: step.record.duration_seconds,
              channels: 'dual',
            };
      return signal(i + 1, media, step.at);
    }),
  ];
  return commands.reduce<SessionEvent[]>(
    (history, command) => [...history, ...checkedSessionDecider.decide(command, fold(checkedSessionDecider, history))],
    [],
  );
}

describe('session decider driven by the test-pool scripts', () => {
  const expected: Record<string, string[]> = {
    [TEST_NUMBERS.completed]: ['session.created', 'session.started', 'session.ended', 'session.recording_completed'],
    [TEST_NUMBERS.noAnswer]: ['session.created', 'session.failed'],
    [TEST_NUMBERS.busy]: ['session.created', 'session.failed'],
    [TEST_NUMBERS.voicemail]: ['session.created', 'session.failed'],
    [TEST_NUMBERS.failed]: ['session.created', 'session.failed'],
    [TEST_NUMBERS.transfer]: [
      'session.created',
      'session.started',
      'session.transfer_initiated',
      'session.ended',
      'session.recording_completed',
    ],
    [TEST_NUMBERS.optOut]: [
      'session.created',
      'session.started',
      'session.opt_out_detected',
      'session.ended',
      'session.recording_completed',
      'session.opt_out_recording_pending_purge',
    ],
    [TEST_NUMBERS.consentRefused]: ['session.created', 'session.started', 'session.consent_refused', 'session.ended'],
    [TEST_NUMBERS.functionTimeout]: [
      'session.created',
      'session.started',
      'function.timeout',
      'session.ended',
      'session.recording_completed',
    ],
    [TEST_NUMBERS.agentDisposition]: [
      'session.created',
      'session.started',
      'session.ended',
      'session.recording_completed',
    ],
  };

  it.each(Object.entries(expected))('%s plays the documented scenario', (to, types) => {
    const events = playScript(to);
    expect(catalogTypes(events)).toEqual(types);
    expectCatalogValid(events);
    const outcome = events.find((e) => e.type === 'session.ended' || e.type === 'session.failed')!;
    expect(outcome.data).toMatchObject({ actual_cost_cents: 0, to_number: to });
  });

  it('scripts: outcome statuses and end reasons', () => {
    const outcome = (to: string) =>
      playScript(to).find((e) => e.type === 'session.ended' || e.type === 'session.failed')!.data as {
        status: string;
        end_reason: string;
        duration_seconds: number;
      };
    expect(outcome(TEST_NUMBERS.noAnswer)).toMatchObject({ status: 'no_answer', duration_seconds: 0 });
    expect(outcome(TEST_NUMBERS.busy)).toMatchObject({ status: 'busy', duration_seconds: 0 });
    expect(outcome(TEST_NUMBERS.voicemail)).toMatchObject({ status: 'voicemail', duration_seconds: 0 });
    expect(outcome(TEST_NUMBERS.failed)).toMatchObject({ status: 'failed', duration_seconds: 0 });
    expect(outcome(TEST_NUMBERS.completed)).toMatchObject({
      status: 'completed',
      end_reason: 'completed',
      duration_seconds: 45,
    });
    expect(outcome(TEST_NUMBERS.transfer)).toMatchObject({ status: 'completed', duration_seconds: 60 });
    expect(outcome(TEST_NUMBERS.consentRefused)).toMatchObject({ status: 'completed', end_reason: 'consent_refused' });
    expect(outcome('+442071838750')).toMatchObject({ status: 'completed', duration_seconds: 45 }); // any unlisted number
  });

  it('recording length equals the call length in every recorded script', () => {
    for (const to of Object.values(TEST_NUMBERS)) {
      const events = playScript(to);
      const rec = find(events, 'session.recording_completed');
      const end = find(events, 'session.ended');
      if (rec) expect(rec.data.duration_seconds).toBe(end!.data.duration_seconds);
    }
  });

  it('production (billed) versions of the scripts cost ceil(minutes) × rate', () => {
    const cost = (to: string) => {
      const e = playScript(to, false).find((x) => x.type === 'session.ended' || x.type === 'session.failed')!;
      return (e.data as { actual_cost_cents: number }).actual_cost_cents;
    };
    expect(cost(TEST_NUMBERS.completed)).toBe(10); // 45 s
    expect(cost(TEST_NUMBERS.transfer)).toBe(10); // 60 s
    expect(cost(TEST_NUMBERS.functionTimeout)).toBe(10); // 30 s
    expect(cost(TEST_NUMBERS.noAnswer)).toBe(0);
  });
});

afterAll(() => {
  // Belt and braces: everything any test above decided is a valid catalog payload.
  expect(catalogTypes(emitted).length).toBeGreaterThan(50);
  expectCatalogValid(emitted);
});
