/**
 * A session's `metrics` (GET /v1/sessions/{id}): each measured agent turn, and the percentiles of
 * voice-to-voice latency over them (nearest rank). A session with no measured turn (a simulated call,
 * a session from before metrics) shows `turns: []` and null percentiles (decision 118).
 */
import type { TurnMetrics } from '../domain/media-signal';

export interface SessionMetrics {
  turns: readonly TurnMetrics[];
  voice_to_voice_ms: { p50: number | null; p95: number | null };
}

/** The nearest-rank percentile (`q` in 0..1) of `values`, or null when there are none. */
export function percentile(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[rank - 1] ?? null;
}

/** The metrics of a session from its measured turns, as stored (key order as documented). */
export function presentMetrics(stored: readonly unknown[]): SessionMetrics {
  const turns = (stored as readonly TurnMetrics[]).map((m) => ({
    t: m.t,
    user_speech_end_ms: m.user_speech_end_ms,
    agent_audio_start_ms: m.agent_audio_start_ms,
    voice_to_voice_ms: m.voice_to_voice_ms,
    stt_ms: m.stt_ms,
    llm_first_token_ms: m.llm_first_token_ms,
    tts_first_audio_ms: m.tts_first_audio_ms,
    interrupted: m.interrupted,
  }));
  const v2v = turns.map((m) => m.voice_to_voice_ms);
  return { turns, voice_to_voice_ms: { p50: percentile(v2v, 0.5), p95: percentile(v2v, 0.95) } };
}
