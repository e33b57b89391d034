import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import { APP_CONFIG, AppConfig, settingsOf } from '../../config/config';
import { webhooksSettings } from '../webhooks.config';
import { PG_POOL } from '../../infra/database/database.tokens';
import { PollingWorker } from '../../runtime/workers/polling-worker';

const BATCH = 1000;
const EVERY_MS = 3_600_000;

/**
 * Deliveries that ended (succeeded or failed) more than WEBHOOK_RETENTION ago are deleted with their
 * attempts, a thousand at a time, once an hour: the tables stay the size of the retention window.
 * Pending deliveries are never touched, however old; the event itself stays in the event store.
 */
@Injectable()
export class DeliveryRetention extends PollingWorker {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super('webhook-retention', {
      onError: (err) => new Logger('Webhooks').warn(`retention: ${err instanceof Error ? err.message : String(err)}`),
      backoffMs: () => 60_000,
    });
  }

  protected async tick(): Promise<boolean> {
    return (await this.pruneOnce()) === BATCH;
  }

  protected override idleMs(): number {
    return EVERY_MS;
  }

  /** Deletes up to one batch of expired deliveries and their attempts; returns how many deliveries. */
  async pruneOnce(): Promise<number> {
    const { rowCount } = await this.pool.query(
      `WITH expired AS (
         SELECT delivery_id FROM webhook_deliveries
         WHERE status IN ('succeeded', 'failed') AND updated_at < now() - make_interval(secs => $1)
         LIMIT $2 FOR UPDATE SKIP LOCKED),
       attempts AS (DELETE FROM webhook_attempts a USING expired e WHERE a.delivery_id = e.delivery_id)
       DELETE FROM webhook_deliveries d USING expired e WHERE d.delivery_id = e.delivery_id`,
      [settingsOf(this.config, webhooksSettings).retentionMs / 1000, BATCH],
    );
    return rowCount ?? 0;
  }
}
