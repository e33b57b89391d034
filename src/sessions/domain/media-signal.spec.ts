/** The ingest-side parser of media signals: every valid kind, and the invalid shapes it must refuse. */
import { parseMediaSignal } from './media-signal';

describe('parseMediaSignal: valid signals', () => {
  it.each([
    [{ kind: 'answered' }, { kind: 'answered' }],
    [{ kind: 'opt_out' }, { kind: 'opt_out' }],
    [{ kind: 'consent_refused' }, { kind: 'consent_refused' }],
    [
      { kind: 'turn', role: 'agent', content: 'Hello', t: 0.5 },
      { kind: 'turn', role: 'agent', content: 'Hello', t: 0.5 },
    ],
    [
      { kind: 'turn', role: 'user', t: 0 },
      { kind: 'turn', role: 'user', t: 0 },
    ],
    [
      { kind: 'function_invoked', name: 'find_open_slots', status: 'succeeded', duration_ms: 840.4 },
      { kind: 'function_invoked', name: 'find_open_slots', status: 'succeeded', duration_ms: 840 },
    ],
    [
      { kind: 'function_timeout', function_id: 'fn_1', name: 'check_inventory', timeout_ms: 5000 },
      { kind: 'function_timeout', function_id: 'fn_1', name: 'check_inventory', timeout_ms: 5000 },
    ],
    [
      { kind: 'transfer', transfer_number: '+14155550199' },
      { kind: 'transfer', transfer_number: '+14155550199' },
    ],
    [
      { kind: 'agent_disposition', code: 'booked', note: 'Thu 3pm' },
      { kind: 'agent_disposition', code: 'booked', note: 'Thu 3pm' },
    ],
    [
      { kind: 'agent_disposition', code: 'booked' },
      { kind: 'agent_disposition', code: 'booked', note: null },
    ],
    [
      { kind: 'agent_disposition', code: 'booked', note: 42 },
      { kind: 'agent_disposition', code: 'booked', note: null },
    ],
    [
      { kind: 'hangup', status: 'completed', end_reason: 'completed' },
      { kind: 'hangup', status: 'completed', end_reason: 'completed' },
    ],
    [
      { kind: 'hangup', status: 'completed', end_reason: 'completed', duration_seconds: 74.6 },
      { kind: 'hangup', status: 'completed', end_reason: 'completed', duration_seconds: 75 },
    ],
    [
      { kind: 'hangup', status: 'no_answer', end_reason: 'no_answer' },
      { kind: 'hangup', status: 'no_answer', end_reason: 'no_answer' },
    ],
    [
      { kind: 'hangup', status: 'busy', end_reason: 'busy' },
      { kind: 'hangup', status: 'busy', end_reason: 'busy' },
    ],
    [
      { kind: 'hangup', status: 'voicemail', end_reason: 'vm' },
      { kind: 'hangup', status: 'voicemail', end_reason: 'vm' },
    ],
    [
      { kind: 'hangup', status: 'failed', end_reason: 'carrier_error' },
      { kind: 'hangup', status: 'failed', end_reason: 'carrier_error' },
    ],
  ])('%j → %j', (input, expected) => {
    expect(parseMediaSignal(input)).toEqual(expected);
  });

  it('drops unknown extra keys instead of passing them on', () => {
    expect(parseMediaSignal({ kind: 'answered', extra: 1 })).toEqual({ kind: 'answered' });
    expect(parseMediaSignal({ kind: 'transfer', transfer_number: '+1', evil: true })).toEqual({
      kind: 'transfer',
      transfer_number: '+1',
    });
  });
});

describe('parseMediaSignal: invalid signals are refused with a message', () => {
  it.each([
    ['null', null],
    ['a string', 'answered'],
    ['a number', 7],
    ['undefined', undefined],
    ['no kind', {}],
    ['an unknown kind', { kind: 'exploded' }],
    ['kind with wrong case', { kind: 'ANSWERED' }],
    ['turn without role', { kind: 'turn', t: 1 }],
    ['turn with a bad role', { kind: 'turn', role: 'system', t: 1 }],
    ['turn without t', { kind: 'turn', role: 'agent' }],
    ['turn with negative t', { kind: 'turn', role: 'agent', t: -1 }],
    ['turn with t as text', { kind: 'turn', role: 'agent', t: '1' }],
    ['turn with infinite t', { kind: 'turn', role: 'agent', t: Infinity }],
    ['turn with empty content', { kind: 'turn', role: 'agent', t: 1, content: '' }],
    ['turn with non-string content', { kind: 'turn', role: 'agent', t: 1, content: 5 }],
    ['turn with over-long content', { kind: 'turn', role: 'agent', t: 1, content: 'x'.repeat(5001) }],
    ['function_invoked without duration', { kind: 'function_invoked', name: 'f', status: 'succeeded' }],
    [
      'function_invoked with negative duration',
      { kind: 'function_invoked', name: 'f', status: 'succeeded', duration_ms: -1 },
    ],
    ['function_invoked without name', { kind: 'function_invoked', status: 'succeeded', duration_ms: 1 }],
    ['function_timeout without function_id', { kind: 'function_timeout', name: 'f', timeout_ms: 1 }],
    ['function_timeout without timeout_ms', { kind: 'function_timeout', function_id: 'fn', name: 'f' }],
    ['transfer without number', { kind: 'transfer' }],
    ['transfer with empty number', { kind: 'transfer', transfer_number: '' }],
    ['agent_disposition without code', { kind: 'agent_disposition', note: 'x' }],
    ['hangup without status', { kind: 'hangup', end_reason: 'completed' }],
    ['hangup with an unknown status', { kind: 'hangup', status: 'in_progress', end_reason: 'x' }],
    ['hangup with status queued', { kind: 'hangup', status: 'queued', end_reason: 'x' }],
    ['hangup without end_reason', { kind: 'hangup', status: 'completed' }],
    ['hangup with negative duration', { kind: 'hangup', status: 'completed', end_reason: 'c', duration_seconds: -5 }],
    ['hangup with text duration', { kind: 'hangup', status: 'completed', end_reason: 'c', duration_seconds: '5' }],
    [
      'hangup with NaN duration',
      { kind: 'hangup', status: 'completed', end_reason: 'c', duration_seconds: Number.NaN },
    ],
  ])('%s', (_, input) => {
    const result = parseMediaSignal(input);
    expect(typeof result).toBe('string');
    expect((result as string).length).toBeGreaterThan(0);
  });
});

describe('parseMediaSignal: recording_ready (docs/media-gateway.md)', () => {
  it('accepts a recording id, its length and the channel layout', () => {
    expect(
      parseMediaSignal({
        kind: 'recording_ready',
        recording_id: 'rec_abcdefghij0123',
        duration_seconds: 74.6,
        channels: 'dual',
      }),
    ).toEqual({
      kind: 'recording_ready',
      recording_id: 'rec_abcdefghij0123',
      duration_seconds: 75,
      channels: 'dual',
    });
    expect(
      parseMediaSignal({
        kind: 'recording_ready',
        recording_id: 'rec_abcdefghij0123',
        duration_seconds: 3,
        channels: 'mono',
      }),
    ).toMatchObject({
      channels: 'mono',
    });
  });

  it.each([
    ['no recording_id', { kind: 'recording_ready', duration_seconds: 3, channels: 'dual' }],
    [
      'a recording id that could escape the recordings directory',
      { kind: 'recording_ready', recording_id: '../../etc/passwd', duration_seconds: 3, channels: 'dual' },
    ],
    [
      'a recording id without the rec_ prefix',
      { kind: 'recording_ready', recording_id: 'abcdefghij0123', duration_seconds: 3, channels: 'dual' },
    ],
    [
      'upper case in the id',
      { kind: 'recording_ready', recording_id: 'rec_ABCDEFGHIJ0123', duration_seconds: 3, channels: 'dual' },
    ],
    ['no duration', { kind: 'recording_ready', recording_id: 'rec_abcdefghij0123', channels: 'dual' }],
    [
      'a negative duration',
      { kind: 'recording_ready', recording_id: 'rec_abcdefghij0123', duration_seconds: -1, channels: 'dual' },
    ],
    ['no channels', { kind: 'recording_ready', recording_id: 'rec_abcdefghij0123', duration_seconds: 3 }],
    [
      'unknown channels',
      { kind: 'recording_ready', recording_id: 'rec_abcdefghij0123', duration_seconds: 3, channels: 'stereo' },
    ],
  ])('refuses %s', (_, input) => {
    expect(typeof parseMediaSignal(input)).toBe('string');
  });
});
