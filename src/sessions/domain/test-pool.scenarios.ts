import type { MediaSignal } from './media-signal';

/**
 * The test pool: the destination number picks a scripted call (docs/calls-and-test-pool.md, "The test pool").
 * `at` is seconds after dispatch in simulated time; the simulator multiplies it by SIM_TIME_SCALE.
 * `record` asks the simulator to write the recording file and then report `recording_ready`.
 */
export type ScriptStep = { at: number; signal: MediaSignal } | { at: number; record: { duration_seconds: number } };

export const TEST_NUMBERS = {
  completed: '+14155550100',
  noAnswer: '+14155550101',
  busy: '+14155550102',
  voicemail: '+14155550103',
  failed: '+14155550104',
  transfer: '+14155550105',
  optOut: '+14155550106',
  consentRefused: '+14155550107',
  functionTimeout: '+14155550108',
  agentDisposition: '+14155550109',
} as const;

const RING = 4;
/** Recording is finalised and uploaded tens of seconds after the call ends (docs/calls-and-test-pool.md). */
const RECORDING_LAG = 25;

const turn = (at: number, role: 'agent' | 'user', content: string): ScriptStep => ({
  at: RING + at,
  signal: { kind: 'turn', role, content, t: at },
});

function answeredCall(middle: ScriptStep[], length: number, endReason = 'completed', record = true): ScriptStep[] {
  const steps: ScriptStep[] = [
    { at: RING, signal: { kind: 'answered' } },
    turn(0.5, 'agent', 'Hi, this is Ava calling from Northwind Dental. Is now a good time?'),
    turn(4, 'user', 'Sure, what is it about?'),
    ...middle,
    {
      at: RING + length,
      signal: { kind: 'hangup', status: 'completed', end_reason: endReason, duration_seconds: length },
    },
  ];
  if (record) steps.push({ at: RING + length + RECORDING_LAG, record: { duration_seconds: length } });
  return steps.sort((a, b) => a.at - b.at);
}

const lookup: ScriptStep[] = [
  turn(6, 'agent', 'You are due for a cleaning. Let me check the calendar.'),
  { at: RING + 7, signal: { kind: 'turn', role: 'agent', t: 7 } },
  {
    at: RING + 8,
    signal: { kind: 'function_invoked', name: 'find_open_slots', status: 'succeeded', duration_ms: 840 },
  },
  turn(9, 'agent', 'I have Tuesday at 10 or Thursday at 3.'),
  turn(13, 'user', 'Thursday at 3 works.'),
  turn(15, 'agent', 'Booked for Thursday at 3. See you then!'),
];

/**
 * Scripts of test inbound calls (`POST /v1/phone_numbers/{id}/test_inbound_calls`), picked by whether
 * the call is answered rather than by a number. The agent picks up after one ring and the talk is
 * short; an unanswered caller rings 45 s before giving up, so that of calls made together the
 * unanswered ones end last.
 */
export const INBOUND_TEST_SCRIPTS = { answered: 'inbound_answered', noAnswer: 'inbound_no_answer' } as const;
export type InboundTestScript = (typeof INBOUND_TEST_SCRIPTS)[keyof typeof INBOUND_TEST_SCRIPTS];

const INBOUND_PICKUP = 1;

function inboundAnswered(): ScriptStep[] {
  const say = (at: number, role: 'agent' | 'user', content: string): ScriptStep => ({
    at: INBOUND_PICKUP + at,
    signal: { kind: 'turn', role, content, t: at },
  });
  const length = 20;
  return [
    { at: INBOUND_PICKUP, signal: { kind: 'answered' } },
    say(0.5, 'agent', 'Thanks for calling Northwind Dental, this is Ava. How can I help?'),
    say(3, 'user', 'Hi, I would like to book a cleaning.'),
    say(5, 'agent', 'Happy to help. Let me check the calendar.'),
    {
      at: INBOUND_PICKUP + 6,
      signal: { kind: 'function_invoked', name: 'find_open_slots', status: 'succeeded', duration_ms: 610 },
    },
    say(7, 'agent', 'I have Tuesday at 10 or Thursday at 3.'),
    say(11, 'user', 'Tuesday at 10, please.'),
    say(13, 'agent', 'You are booked for Tuesday at 10. Goodbye!'),
    {
      at: INBOUND_PICKUP + length,
      signal: { kind: 'hangup', status: 'completed', end_reason: 'completed', duration_seconds: length },
    },
    { at: INBOUND_PICKUP + length + RECORDING_LAG, record: { duration_seconds: length } },
  ];
}

/**
 * The script of a simulated call: `key` is the destination number of an outbound call, or one of
 * INBOUND_TEST_SCRIPTS for a test inbound call.
 */
export function scriptFor(key: string): ScriptStep[] {
  switch (key) {
    case INBOUND_TEST_SCRIPTS.answered:
      return inboundAnswered();
    case INBOUND_TEST_SCRIPTS.noAnswer:
      return [{ at: 45, signal: { kind: 'hangup', status: 'no_answer', end_reason: 'no_answer' } }];
    case TEST_NUMBERS.noAnswer:
      return [{ at: 30, signal: { kind: 'hangup', status: 'no_answer', end_reason: 'no_answer' } }];
    case TEST_NUMBERS.busy:
      return [{ at: 2, signal: { kind: 'hangup', status: 'busy', end_reason: 'busy' } }];
    case TEST_NUMBERS.voicemail:
      return [{ at: 12, signal: { kind: 'hangup', status: 'voicemail', end_reason: 'voicemail' } }];
    case TEST_NUMBERS.failed:
      return [{ at: 1, signal: { kind: 'hangup', status: 'failed', end_reason: 'carrier_error' } }];
    case TEST_NUMBERS.transfer:
      return answeredCall(
        [
          turn(6, 'user', 'I would rather talk to a person about my bill.'),
          turn(8, 'agent', 'Of course, transferring you to our billing team now.'),
          { at: RING + 9, signal: { kind: 'transfer', transfer_number: '+14155550199' } },
        ],
        60,
        'transferred',
      );
    case TEST_NUMBERS.optOut:
      return answeredCall(
        [
          turn(6, 'user', 'Please do not call me again.'),
          { at: RING + 6.5, signal: { kind: 'opt_out' } },
          turn(8, 'agent', 'Understood, you will not be called again. Goodbye.'),
        ],
        12,
        'opt_out',
      );
    case TEST_NUMBERS.consentRefused:
      return [
        { at: RING, signal: { kind: 'answered' } },
        turn(0.5, 'agent', 'This call may be recorded for quality. Is that all right?'),
        turn(3, 'user', 'No, I do not consent to recording.'),
        { at: RING + 3.5, signal: { kind: 'consent_refused' } },
        turn(4, 'agent', 'No problem. I will end the call now. Goodbye.'),
        {
          at: RING + 6,
          signal: { kind: 'hangup', status: 'completed', end_reason: 'consent_refused', duration_seconds: 6 },
        },
      ];
    case TEST_NUMBERS.functionTimeout:
      return answeredCall(
        [
          turn(6, 'agent', 'Let me check whether that part is in stock.'),
          {
            at: RING + 12,
            signal: {
              kind: 'function_timeout',
              function_id: 'fn_check_inventory',
              name: 'check_inventory',
              timeout_ms: 5000,
            },
          },
          turn(12.5, 'agent', 'I am still checking, thanks for your patience.'),
          {
            at: RING + 16,
            signal: { kind: 'function_invoked', name: 'check_inventory', status: 'succeeded', duration_ms: 9200 },
          },
          turn(17, 'agent', 'Good news, it is in stock.'),
        ],
        30,
      );
    case TEST_NUMBERS.agentDisposition:
      return answeredCall(
        [
          ...lookup,
          {
            at: RING + 16,
            signal: { kind: 'agent_disposition', code: 'appointment_booked', note: 'Thursday 3 pm cleaning' },
          },
        ],
        20,
      );
    default:
      return answeredCall(lookup, 45);
  }
}
