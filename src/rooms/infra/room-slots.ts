import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { APP_CONFIG, AppConfig, settingsOf } from '../../config/config';
import { roomsSettings } from '../rooms.config';
import { PG_POOL } from '../../infra/database/database.tokens';
import { inTransaction } from '../../infra/database/transaction';
import { CLOCK, Clock } from '../../kernel/clock';

/**
 * How long a slot taken for an offer counts while its room is not joined yet: the longest the agent
 * (8 s) or the gateway (10 s) may take to answer, and the join after it, with room to spare.
 */
export const CONNECTING_SLOT_MS = 60_000;

/**
 * The live rooms of a tenant, counted in the database so that the cap (MAX_LIVE_ROOMS_PER_TENANT)
 * holds across instances: one row in `room_media_slots` per room whose offer is being answered or
 * whose call is live. A slot counts while its room is joined (the read model `rooms`), or for
 * CONNECTING_SLOT_MS after it was taken while the room is still being joined. Taking one locks the
 * tenant's slots (a transaction-scoped advisory lock), drops those that no longer count (a call
 * ended, failed, or held by an instance that died: its room is completed by the fallback watch),
 * counts the rest and takes the room's slot if the cap allows. An instance frees its room's slot
 * when the call ends; a slot it never frees stops counting by the rules above.
 */
@Injectable()
export class RoomSlots {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  get cap(): number {
    return settingsOf(this.config, roomsSettings).maxLiveRoomsPerTenant;
  }

  /** Takes the room's slot; false when the tenant already has `cap` other live rooms. */
  async take(tenantId: string, roomId: string): Promise<boolean> {
    const now = this.clock.now();
    return inTransaction(this.pool, async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('room_media_slots'), hashtext($1))`, [tenantId]);
      await tx.query(
        `DELETE FROM room_media_slots s WHERE s.tenant_id = $1 AND NOT EXISTS (
           SELECT 1 FROM rooms r WHERE r.room_id = s.room_id
             AND (r.status = 'joined' OR (r.status IN ('created', 'landing_viewed') AND s.taken_at > $2)))`,
        [tenantId, new Date(now.getTime() - CONNECTING_SLOT_MS)],
      );
      const { rows } = await tx.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM room_media_slots WHERE tenant_id = $1 AND room_id <> $2',
        [tenantId, roomId],
      );
      if ((rows[0]?.n ?? 0) >= this.cap) return false;
      await tx.query(
        `INSERT INTO room_media_slots (room_id, tenant_id, taken_at) VALUES ($1, $2, $3)
         ON CONFLICT (room_id) DO UPDATE SET taken_at = excluded.taken_at`,
        [roomId, tenantId, now],
      );
      return true;
    });
  }

  /** Frees the room's slot (its call ended, or its offer was not answered). */
  async free(roomId: string): Promise<void> {
    await this.pool.query('DELETE FROM room_media_slots WHERE room_id = $1', [roomId]);
  }
}
