import { createHash } from 'node:crypto';
import { BAND_EDGES_HZ } from '../domain/audio-meter';
import type { TrainingOutcome, TrainingRequest, VoiceTrainer } from '../domain/voice-trainer';

/**
 * The built-in trainer: it synthesises nothing. It fingerprints the measured samples (their content
 * hashes, total length, mean loudness and averaged spectral summary) and declares the voice ready at
 * once. A hosted voice-cloning provider replaces it behind the same port (domain/voice-trainer.ts).
 */
export class BuiltinVoiceTrainer implements VoiceTrainer {
  readonly provider = 'builtin';

  train(request: TrainingRequest): Promise<TrainingOutcome> {
    const samples = request.samples;
    const hash = createHash('sha256');
    for (const s of samples) hash.update(`${s.sha256}:${s.measurement.duration_ms}\n`);
    const fingerprint = hash.digest('hex');
    const seconds = samples.reduce((sum, s) => sum + s.measurement.duration_ms, 0) / 1000;
    // Loudness and spectrum averaged over the samples, each weighted by its length.
    const weight = (s: (typeof samples)[number]) => s.measurement.duration_ms / 1000 / (seconds || 1);
    const mean = (value: (s: (typeof samples)[number]) => number) =>
      Math.round(samples.reduce((sum, s) => sum + value(s) * weight(s), 0) * 10) / 10;
    return Promise.resolve({
      kind: 'ready',
      model: {
        provider: this.provider,
        reference: `builtin_${fingerprint.slice(0, 24)}`,
        summary: {
          fingerprint,
          total_seconds: Math.round(seconds * 10) / 10,
          mean_rms_dbfs: mean((s) => s.measurement.rms_dbfs),
          spectral_centroid_hz: Math.round(mean((s) => s.measurement.spectrum.centroid_hz)),
          band_edges_hz: BAND_EDGES_HZ,
          bands_db: BAND_EDGES_HZ.map((_, i) => mean((s) => s.measurement.spectrum.bands_db[i] ?? -120)),
        },
      },
    });
  }
}
