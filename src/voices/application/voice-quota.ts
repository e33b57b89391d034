import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { ApiError } from '../../kernel/http/api-error';

export interface VoiceUsage {
  /** Voice clones the tenant keeps (deleted ones are gone from the read model). */
  readonly voices: number;
  /** Bytes of their stored sample files. */
  readonly bytes: number;
}

const MB = 1024 * 1024;
const mb = (bytes: number): string => `${(bytes / MB).toFixed(1)} MB`;

/**
 * The per-tenant quotas of voice clones (VOICE_CLONES_PER_TENANT) and of their stored sample bytes
 * (VOICE_STORAGE_MB_PER_TENANT), checked at upload against the voice_clones read model. Uploads of
 * one tenant are serialised: in this process by a queue per tenant (so that a burst of uploads holds
 * one database connection, not one each), and across instances by a PostgreSQL advisory lock held
 * from the check until the upload is recorded and the read model shows it (the upload command waits
 * for its read models). So two uploads never both fit in the room left for one.
 */
@Injectable()
export class VoiceQuota {
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly maxVoices: number;
  private readonly maxBytes: number;

  constructor(
    private readonly db: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.maxVoices = config.voices.clonesPerTenant;
    this.maxBytes = config.voices.storageBytesPerTenant;
  }

  async usage(tenantId: string, db: DataSource | EntityManager = this.db): Promise<VoiceUsage> {
    const rows: { voices: number; bytes: string }[] = await db.query(
      `SELECT count(*)::int AS voices,
              coalesce(sum((SELECT sum((s->>'bytes')::bigint) FROM jsonb_array_elements(v.samples) s)), 0)::text AS bytes
       FROM voice_clones v WHERE v.tenant_id = $1`,
      [tenantId],
    );
    return { voices: rows[0]?.voices ?? 0, bytes: Number(rows[0]?.bytes ?? 0) };
  }

  /** Before a byte of an upload is read: refused when the tenant has no room left at all. */
  async ensureRoom(tenantId: string): Promise<void> {
    this.refuse(await this.usage(tenantId), 1);
  }

  /**
   * Runs `record` (which stores the upload and records it) only if a new voice of `bytes` fits the
   * tenant's quotas, with the tenant's other uploads held back until it has returned.
   */
  withinQuota<T>(tenantId: string, bytes: number, record: () => Promise<T>): Promise<T> {
    return this.oneAtATime(tenantId, async () => {
      const lock = this.db.createQueryRunner();
      await lock.connect();
      try {
        await lock.startTransaction();
        await lock.query(`SELECT pg_advisory_xact_lock(hashtextextended('voice_clone_uploads:' || $1, 0))`, [tenantId]);
        this.refuse(await this.usage(tenantId, lock.manager), bytes);
        return await record();
      } finally {
        // The transaction only took the lock: ending it releases the lock. Should it have been cut
        // (idle in transaction for 60 s), the upload still stands; only the serialisation lapsed.
        await lock.rollbackTransaction().catch(() => undefined);
        await lock.release();
      }
    });
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

  /** Runs `task` after the tenant's earlier ones in this process have ended. */
  private oneAtATime<T>(tenantId: string, task: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(tenantId) ?? Promise.resolve();
    const run = previous.then(task, task);
    const tail = run.catch(() => undefined);
    this.queues.set(tenantId, tail);
    void tail.then(() => {
      if (this.queues.get(tenantId) === tail) this.queues.delete(tenantId);
    });
    return run;
  }
}
