import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig, settingsOf } from '../../config/config';
import { voicesSettings } from '../voices.config';
import { EVENT_STORE, type EventStore } from '../../event-store/event-store.port';
import { ApiError } from '../../kernel/http/api-error';
import { voiceCloneStream } from '../domain/voice-clone.decider';
import { RuntimeMetrics } from '../../runtime/observability/runtime-metrics';
import { Gauge, Registry } from 'prom-client';

export interface VoiceUsage {
  /** Voice clones the tenant keeps (deleted ones are gone from the read model), and uploads reserved. */
  readonly voices: number;
  /** Bytes of their stored sample files, and of the uploads reserved. */
  readonly bytes: number;
}

/** Room held for one upload until `release` (or until it expires, should its process die). */
export interface UploadReservation {
  readonly voiceId: string;
  /** Names this upload's own files (`voices/<voice id>/<upload id>/`), apart from any other attempt's. */
  readonly uploadId: string;
  release(): Promise<void>;
}

const MB = 1024 * 1024;
const mb = (bytes: number): string => `${(bytes / MB).toFixed(1)} MB`;
/** A reservation outlives its upload's storing and recording by far (500 MB to a slow store); then it lapses. */
const RESERVATION_MS = 30 * 60_000;

/**
 * The per-tenant quotas of voice clones (VOICE_CLONES_PER_TENANT) and of their stored sample bytes
 * (VOICE_STORAGE_MB_PER_TENANT). An upload, once received, reserves its room in one short
 * transaction under a per-tenant advisory lock: the usage counted is the voice_clones read model plus
 * the tenant's live reservations (those of voices not yet in the read model), so two uploads never
 * both fit in the room left for one, across instances too. No connection is held while the upload is
 * stored and recorded; the reservation is released afterwards, whatever happened.
 * Uploads one process handles at once are bounded too (`admit`).
 */
@Injectable()
export class VoiceQuota {
  private readonly maxVoices: number;
  private readonly maxBytes: number;
  private readonly maxInFlight: number;
  private inFlight = 0;

  constructor(
    private readonly db: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    metrics: RuntimeMetrics,
  ) {
    const limits = settingsOf(config, voicesSettings);
    this.maxVoices = limits.clonesPerTenant;
    this.maxBytes = limits.storageBytesPerTenant;
    this.maxInFlight = limits.uploadsInFlight;
    const registry = new Registry();
    const quota = (): number => this.inFlight;
    new Gauge({
      name: 'voice_uploads_in_flight',
      help: 'Voice uploads this process is receiving and storing now (at most VOICE_UPLOADS_IN_FLIGHT; more are a 429).',
      registers: [registry],
      collect() {
        this.set(quota());
      },
    });
    metrics.contribute(registry);
  }

  async usage(tenantId: string, db: DataSource | EntityManager = this.db): Promise<VoiceUsage> {
    const rows: { voices: number; bytes: string }[] = await db.query(
      `SELECT (SELECT count(*) FROM voice_clones v WHERE v.tenant_id = $1)::int + count(r.voice_id)::int AS voices,
              ((SELECT coalesce(sum((SELECT sum((s->>'bytes')::bigint) FROM jsonb_array_elements(v.samples) s)), 0)
                FROM voice_clones v WHERE v.tenant_id = $1) + coalesce(sum(r.bytes), 0))::text AS bytes
       FROM voice_upload_reservations r
       WHERE r.tenant_id = $1 AND r.expires_at > now()
         AND NOT EXISTS (SELECT 1 FROM voice_clones v WHERE v.voice_id = r.voice_id)`,
      [tenantId],
    );
    return { voices: rows[0]?.voices ?? 0, bytes: Number(rows[0]?.bytes ?? 0) };
  }

  /** Before a byte of an upload is read: refused when the tenant has no room left at all. */
  async ensureRoom(tenantId: string): Promise<void> {
    this.refuse(await this.usage(tenantId), 1);
  }

  /**
   * One more upload in this process, or a 429 when VOICE_UPLOADS_IN_FLIGHT are running: each one
   * takes a database connection now and then, and the pool is shared with everything else.
   * Returns its release.
   */
  admit(): () => void {
    if (this.inFlight >= this.maxInFlight)
      throw new ApiError(
        429,
        'rate_limited',
        `Too many voice uploads are in progress on this server (at most ${this.maxInFlight}); retry shortly.`,
        undefined,
        { 'retry-after': '5' },
      );
    this.inFlight++;
    let released = false;
    return () => {
      if (!released) this.inFlight--;
      released = true;
    };
  }

  /**
   * Reserves room for a new voice of `bytes`, or refuses: a 409 when the voice id is taken (its stream
   * has events, or another upload holds it: the same Idempotency-Key sent again after its first
   * attempt recorded or is still storing), a 422 past the quotas.
   */
  async reserve(tenantId: string, voiceId: string, bytes: number): Promise<UploadReservation> {
    const uploadId = `up_${randomUUID().replace(/-/g, '')}`;
    await this.db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('voice_clone_uploads:' || $1, 0))`, [tenantId]);
      await tx.query(`DELETE FROM voice_upload_reservations WHERE voice_id = $1 AND expires_at <= now()`, [voiceId]);
      const held: unknown[] = await tx.query(`SELECT 1 FROM voice_upload_reservations WHERE voice_id = $1`, [voiceId]);
      if (held.length > 0) throw taken(voiceId);
      // Read after the reservation check: an upload that released its reservation had recorded first.
      if ((await this.events.readStream(voiceCloneStream(voiceId))).length > 0) throw taken(voiceId);
      this.refuse(await this.usage(tenantId, tx), bytes);
      await tx.query(
        `INSERT INTO voice_upload_reservations (voice_id, tenant_id, upload_id, bytes, expires_at)
         VALUES ($1, $2, $3, $4, now() + interval '1 millisecond' * $5)`,
        [voiceId, tenantId, uploadId, bytes, RESERVATION_MS],
      );
    });
    return {
      voiceId,
      uploadId,
      release: async () => {
        await this.db.query(`DELETE FROM voice_upload_reservations WHERE voice_id = $1 AND upload_id = $2`, [
          voiceId,
          uploadId,
        ]);
      },
    };
  }

  /** Whether the voice's events record this upload's files (its command may fail after its append). */
  async recordsUpload(voiceId: string, uploadId: string): Promise<boolean> {
    const prefix = `${voiceId}/${uploadId}/`;
    return (await this.events.readStream(voiceCloneStream(voiceId))).some(
      (e) =>
        e.type === 'voice_clone.uploaded' &&
        ((e.data as { samples?: { path?: string }[] }).samples ?? []).some((s) => s.path?.startsWith(prefix)),
    );
  }

  private refuse(usage: VoiceUsage, bytes: number): void {
    if (usage.voices >= this.maxVoices)
      throw new ApiError(
        422,
        'voice_quota_exceeded',
        `Voice clone quota exceeded: this account may keep at most ${this.maxVoices} voice clones and has ${usage.voices}. ` +
          'Delete one it no longer needs (DELETE /v1/voice_clones/{voice_id}) first.',
      );
    if (usage.bytes + bytes > this.maxBytes)
      throw new ApiError(
        422,
        'storage_quota_exceeded',
        `Voice sample storage quota exceeded: this account may store at most ${mb(this.maxBytes)} of voice samples; ` +
          `it stores ${mb(usage.bytes)}${bytes > 1 ? ` and these samples add ${mb(bytes)}` : ''}. ` +
          'Delete voice clones it no longer needs, or upload smaller files.',
        'samples',
      );
  }
}

function taken(voiceId: string): ApiError {
  return new ApiError(
    409,
    'conflict',
    `The voice ${voiceId} this Idempotency-Key names was already uploaded, or is being uploaded by another request; ` +
      'send a new upload under a new Idempotency-Key.',
  );
}
