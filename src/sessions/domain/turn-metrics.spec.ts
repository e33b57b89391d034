/**
 * Turn metrics: the `turn_metrics` signal as the ingest API parses it (bounds checked), `t` kept to
 * the millisecond, and the decider keeping it only while the call is live.
 */
import { parseMediaSignal, SIGNAL_LIMITS, toMilliseconds } from './media-signal';
import { sessionDecider, type SessionEvent, type SessionState } from './session.decider';
import { foldStored } from '../../kernel/decider';

const valid = {
  kind: 'turn_metrics',
  t: 2.34567,
  user_speech_end_ms: 1500.4,
  agent_audio_start_ms: 2345.6,
  voice_to_voice_ms: 845.2,
  stt_ms: 300,
  llm_first_token_ms: 20,
  tts_first_audio_ms: 110,
  interrupted: false,
};

describe('parseMediaSignal: turn_metrics', () => {
  it('keeps t to the millisecond and rounds the durations', () => {
    expect(parseMediaSignal(valid)).toEqual({
      ...valid,
      t: 2.346,
      user_speech_end_ms: 1500,
      agent_audio_start_ms: 2346,
      voice_to_voice_ms: 845,
    });
  });

  it.each([
    ['a negative duration', { voice_to_voice_ms: -1 }],
    ['a duration past a day', { stt_ms: SIGNAL_LIMITS.milliseconds + 1 }],
    ['a string duration', { llm_first_token_ms: '20' }],
    ['a missing duration', { tts_first_audio_ms: undefined }],
    ['an infinite duration', { agent_audio_start_ms: Infinity }],
    ['t past a day', { t: SIGNAL_LIMITS.seconds + 1 }],
    ['a negative t', { t: -0.1 }],
    ['interrupted as a string', { interrupted: 'false' }],
    ['no interrupted', { interrupted: undefined }],
  ])('refuses %s', (_what, change) => {
    expect(parseMediaSignal({ ...valid, ...change })).toMatch(/^turn_metrics needs t/);
  });

  it('keeps a turn’s t to the millisecond too', () => {
    expect(parseMediaSignal({ kind: 'turn', role: 'user', content: 'Hi', t: 1.23456 })).toMatchObject({ t: 1.235 });
    expect(toMilliseconds(0.0004)).toBe(0);
  });
});

describe('the decider and turn_metrics', () => {
  const ctx = {
    at: '2026-11-27T10:00:00.000Z',
    transcriptUrl: 'http://x/t.json',
    recordingUrl: (id: string) => `http://x/${id}.wav`,
    centsPerStartedMinute: 0,
    purgeGraceMs: 0,
  };
  const opened: readonly SessionEvent[] = sessionDecider.decide(
    {
      type: 'open_room',
      sessionId: 'ses_1',
      roomId: 'room_1',
      clientReferenceId: null,
      agentConfig: { prompt: 'Talk.' },
      startedAt: ctx.at,
    },
    sessionDecider.initialState(),
  );
  const fold = (events: readonly SessionEvent[]): SessionState =>
    events.reduce(sessionDecider.evolve, sessionDecider.initialState());
  const measure = (state: SessionState, seq: number) =>
    sessionDecider.decide({ type: 'signal', seq, signal: { ...valid, kind: 'turn_metrics' }, ...ctx }, state);

  it('stores session.turn_measured while the call is live', () => {
    const events = measure(fold(opened), 1000);
    expect(events.map((e) => e.type)).toEqual(['session.turn_measured', 'session.signal_applied']);
    const { kind: _kind, ...turn } = valid;
    expect(events[0]?.data).toEqual({ turn: { ...turn, t: 2.346 } });
    const state = fold([...opened, ...events]);
    expect(state.status !== 'none' && state.turnMetrics).toHaveLength(1);
  });

  it('keeps none once the call has ended', () => {
    const ended = sessionDecider.decide(
      { type: 'signal', seq: 5, signal: { kind: 'hangup', status: 'completed', end_reason: 'completed' }, ...ctx },
      fold(opened),
    );
    const events = measure(fold([...opened, ...ended]), 6);
    expect(events.map((e) => e.type)).toEqual(['session.signal_applied']);
  });

  it('is read back from the store by the edge', () => {
    const stored = measure(fold(opened), 1000).map((e, i) => ({
      ...e,
      metadata: { tenant_id: 'ten_1', created_at: ctx.at },
      position: i,
    }));
    expect(() => foldStored(sessionDecider, stored as never)).not.toThrow();
  });
});
