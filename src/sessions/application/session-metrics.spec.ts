/** A session's metrics: voice-to-voice percentiles by nearest rank, null with no measured turn. */
import { percentile, presentMetrics } from './session-metrics';

describe('voice-to-voice percentiles', () => {
  it('are null with no turn', () => {
    expect(presentMetrics([])).toEqual({ turns: [], voice_to_voice_ms: { p50: null, p95: null } });
  });

  it('take the nearest rank', () => {
    expect(percentile([700], 0.5)).toBe(700);
    expect(percentile([900, 400], 0.5)).toBe(400);
    expect(percentile([900, 400], 0.95)).toBe(900);
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted
    expect(percentile(hundred, 0.5)).toBe(50);
    expect(percentile(hundred, 0.95)).toBe(95);
  });
});
