import { scriptFor, TEST_NUMBERS } from '../domain/test-pool.scenarios';
import type { TranscriptEntry } from '../sessions.events';
import { pickDisposition, SimulatedDispositionEvaluator } from './simulated-disposition-evaluator';

/** What the test pool's answered call (+14155550100) says. */
const POOL_TRANSCRIPT: TranscriptEntry[] = scriptFor(TEST_NUMBERS.completed).flatMap((step) =>
  'signal' in step && step.signal.kind === 'turn' && step.signal.content !== undefined
    ? [{ role: step.signal.role, content: step.signal.content }]
    : [],
);

const CODES = [
  { code: 'not_interested', description: 'The contact declined' },
  { code: 'appointment_booked', description: 'An appointment was booked' },
  { code: 'callback_requested', description: 'Asked to be called back later' },
];

describe('the built-in disposition evaluator', () => {
  it('picks the code whose words the transcript says, with a note naming them; no model', async () => {
    await expect(
      new SimulatedDispositionEvaluator().evaluate({ transcript: POOL_TRANSCRIPT, dispositions: CODES }),
    ).resolves.toEqual({
      code: 'appointment_booked',
      note: 'The transcript mentions "booked".',
      evaluator: 'simulator',
      model: null,
    });
  });

  it('is deterministic, and takes the first code when none matches', () => {
    const silent = { transcript: [{ role: 'user' as const, content: 'Hmm.' }], dispositions: CODES };
    expect(pickDisposition(silent)).toEqual(pickDisposition(silent));
    expect(pickDisposition(silent)).toMatchObject({ code: 'not_interested', note: expect.stringMatching(/first/) });
    expect(pickDisposition({ transcript: [], dispositions: CODES }).code).toBe('not_interested');
  });

  it('the code with the most words found wins; the earlier one on a tie', () => {
    const transcript: TranscriptEntry[] = [
      { role: 'user', content: 'Not now. Please call back later, I am driving.' },
      { role: 'agent', content: 'Of course, I have booked nothing yet.' },
    ];
    // callback_requested: "back", "later" (2); appointment_booked: "booked" (1).
    expect(pickDisposition({ transcript, dispositions: CODES }).code).toBe('callback_requested');
    expect(
      pickDisposition({
        transcript: [{ role: 'user', content: 'booked and declined' }],
        dispositions: CODES,
      }).code,
    ).toBe('not_interested');
  });

  it('refuses an empty list', () => {
    expect(() => pickDisposition({ transcript: POOL_TRANSCRIPT, dispositions: [] })).toThrow();
  });
});
