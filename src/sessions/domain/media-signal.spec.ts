/** The ingest-side parser of media signals: every valid kind, and the invalid shapes it must refuse. */
import { isSignalSeq, parseMediaSignal, SIGNAL_LIMITS } from './media-signal';

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
    // Out of range (regression,
    // docs/decisions/0023-a-poison-event-is-set-aside-as-a-dead-letter-after-n-tries.md): a
    // duration beyond the integer range once reached the sessions read model and stopped it for
    // every tenant.
    [
      'hangup with a duration beyond the integer range',
      { kind: 'hangup', status: 'completed', end_reason: 'c', duration_seconds: 2 ** 31 },
    ],
    ['hangup with a huge duration', { kind: 'hangup', status: 'completed', end_reason: 'c', duration_seconds: 1e300 }],
    [
      'hangup with a duration of more than a day',
      { kind: 'hangup', status: 'completed', end_reason: 'c', duration_seconds: 86_400.6 },
    ],
    ['hangup with an over-long end_reason', { kind: 'hangup', status: 'completed', end_reason: 'r'.repeat(201) }],
    ['turn with t beyond a day', { kind: 'turn', role: 'agent', t: 86_401 }],
    ['turn with a huge t', { kind: 'turn', role: 'agent', t: 1e12 }],
    [
      'function_invoked with a duration beyond a day',
      { kind: 'function_invoked', name: 'f', status: 'ok', duration_ms: 86_400_001 },
    ],
    [
      'function_invoked with a duration beyond the safe integers',
      { kind: 'function_invoked', name: 'f', status: 'ok', duration_ms: 2 ** 53 + 2 },
    ],
    [
      'function_invoked with an over-long name',
      { kind: 'function_invoked', name: 'n'.repeat(201), status: 'ok', duration_ms: 1 },
    ],
    [
      'function_invoked with an over-long status',
      { kind: 'function_invoked', name: 'f', status: 's'.repeat(201), duration_ms: 1 },
    ],
    [
      'function_timeout with a timeout beyond a day',
      { kind: 'function_timeout', function_id: 'fn', name: 'f', timeout_ms: 1e10 },
    ],
    [
      'function_timeout with an over-long function_id',
      { kind: 'function_timeout', function_id: 'i'.repeat(201), name: 'f', timeout_ms: 1 },
    ],
    ['transfer with an over-long number', { kind: 'transfer', transfer_number: '+'.repeat(257) }],
    ['agent_disposition with an over-long code', { kind: 'agent_disposition', code: 'c'.repeat(201) }],
    ['agent_disposition with an over-long note', { kind: 'agent_disposition', code: 'c', note: 'n'.repeat(5001) }],
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
    [
      'a duration beyond the integer range',
      { kind: 'recording_ready', recording_id: 'rec_abcdefghij0123', duration_seconds: 2 ** 31, channels: 'dual' },
    ],
  ])('refuses %s', (_, input) => {
    expect(typeof parseMediaSignal(input)).toBe('string');
  });
});

describe('parseMediaSignal: bounds (decision 23)', () => {
  it('accepts every value at its bound', () => {
    const day = SIGNAL_LIMITS.seconds;
    expect(
      parseMediaSignal({ kind: 'hangup', status: 'completed', end_reason: 'r'.repeat(200), duration_seconds: day }),
    ).toEqual({ kind: 'hangup', status: 'completed', end_reason: 'r'.repeat(200), duration_seconds: day });
    expect(parseMediaSignal({ kind: 'turn', role: 'user', t: day, content: 'x'.repeat(5000) })).toMatchObject({
      t: day,
    });
    expect(
      parseMediaSignal({ kind: 'function_invoked', name: 'f', status: 'ok', duration_ms: SIGNAL_LIMITS.milliseconds }),
    ).toMatchObject({ duration_ms: SIGNAL_LIMITS.milliseconds });
    expect(
      parseMediaSignal({ kind: 'agent_disposition', code: 'c'.repeat(200), note: 'n'.repeat(5000) }),
    ).toMatchObject({ code: 'c'.repeat(200) });
    expect(
      parseMediaSignal({
        kind: 'recording_ready',
        recording_id: 'rec_abcdefghij0123',
        duration_seconds: day,
        channels: 'mono',
      }),
    ).toMatchObject({ duration_seconds: day });
  });

  it('a seq is a positive integer within the integer range', () => {
    for (const ok of [1, 2, 2_147_483_647]) expect(isSignalSeq(ok)).toBe(true);
    for (const bad of [0, -1, 1.5, 2 ** 31, 2 ** 53 + 2, Number.NaN, Infinity, '1', null, undefined]) {
      expect(isSignalSeq(bad)).toBe(false);
    }
  });
});
