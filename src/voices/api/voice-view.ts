import type { VoiceCloneEntity } from '../projections/voice-clone.entity';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/**
 * The voice clone resource (docs/voices.md, "API"): its fields (voice_id, name, status, ready_at, error_code,
 * error_message) with each sample's file and, once the training job has measured it, its decoded
 * length and loudness. `sample_count` is the `samples` count of voice_clone.training_started.
 */
export function presentVoice(row: VoiceCloneEntity) {
  return {
    voice_id: row.voiceId,
    name: row.name,
    status: row.status,
    sample_count: row.samples.length,
    samples: row.samples.map((s, index) => ({
      index,
      filename: s.filename,
      content_type: s.content_type,
      format: s.format,
      bytes: s.bytes,
      sha256: s.sha256,
      duration_ms: s.measurement?.duration_ms ?? null,
      duration_seconds: s.measurement ? Math.floor(s.measurement.duration_ms / 1000) : null,
      rms_dbfs: s.measurement?.rms_dbfs ?? null,
      peak_dbfs: s.measurement?.peak_dbfs ?? null,
      sample_rate: s.measurement?.sample_rate ?? null,
      channels: s.measurement?.channels ?? null,
      spectral_centroid_hz: s.measurement?.spectrum.centroid_hz ?? null,
    })),
    error_code: row.errorCode,
    error_message: row.errorMessage,
    model: row.model ? { provider: row.model.provider, reference: row.model.reference, ...row.model.summary } : null,
    created_at: row.createdAt.toISOString(),
    training_started_at: iso(row.trainingStartedAt),
    ready_at: iso(row.readyAt),
    failed_at: iso(row.failedAt),
  };
}
