/** Ended deliveries older than WEBHOOK_RETENTION are deleted with their attempts; pending ones never are. */
import { randomUUID } from 'node:crypto';
import { WorkerLifecycle } from '../../../src/runtime/workers/lifecycle';
import { DeliveryRetention } from '../../../src/webhooks/infra/delivery-retention';
import { startTestApp, TestApp } from '../../support/app';

describe('delivery retention', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_RETENTION: '1d' } });
    await t.app.get(WorkerLifecycle).stopAll();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function delivery(id: string, status: string, ageHours: number): Promise<void> {
    await t.db.pool.query(
      `INSERT INTO webhook_deliveries (delivery_id, event_id, endpoint_id, tenant_id, event_type, payload, status,
         created_at, updated_at)
       VALUES ($1, $2, 'we_x', 'ten_x', 'webhook.test', '{}', $3, now() - make_interval(hours => $4), now() - make_interval(hours => $4))`,
      [id, randomUUID(), status, ageHours],
    );
    await t.db.pool.query(
      `INSERT INTO webhook_attempts (delivery_id, attempted_at, http_status, duration_ms) VALUES ($1, now(), 200, 5)`,
      [id],
    );
  }

  it('deletes ended deliveries past the window with their attempts, and keeps the rest', async () => {
    await delivery('dlv_old_ok', 'succeeded', 48);
    await delivery('dlv_old_failed', 'failed', 30);
    await delivery('dlv_old_pending', 'pending', 72);
    await delivery('dlv_new_ok', 'succeeded', 2);

    expect(await t.app.get(DeliveryRetention).pruneOnce()).toBe(2);

    const { rows } = await t.db.pool.query<{ delivery_id: string }>(
      'SELECT delivery_id FROM webhook_deliveries ORDER BY delivery_id',
    );
    expect(rows.map((r) => r.delivery_id)).toEqual(['dlv_new_ok', 'dlv_old_pending']);
    const attempts = await t.db.pool.query<{ delivery_id: string }>(
      'SELECT DISTINCT delivery_id FROM webhook_attempts ORDER BY delivery_id',
    );
    expect(attempts.rows.map((r) => r.delivery_id)).toEqual(['dlv_new_ok', 'dlv_old_pending']);
    expect(await t.app.get(DeliveryRetention).pruneOnce()).toBe(0);
  });
});
