import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { newestFirstPage } from '../../infra/database/newest-first-page';
import { SessionEntity } from '../projections/session.entity';

export interface SessionPage {
  data: SessionEntity[];
  hasMore: boolean;
}

/** How long an admitted call counts on its own, at most: longer than the read model ever lags behind. */
const ADMISSION_TTL_S = 60;

/** Reads of the sessions read model: the API's list and get, the media gateway's and the recordings' lookups. */
@Injectable()
export class SessionsQueries {
  constructor(@InjectRepository(SessionEntity) private readonly sessions: Repository<SessionEntity>) {}

  /**
   * Admits one more production call of the tenant if fewer than `cap` are queued: the queued sessions
   * of the read model plus the calls admitted in the last ADMISSION_TTL_S seconds that it does not
   * show yet. One short transaction under a per-tenant lock, so that concurrent requests (on any
   * instance) cannot all see the same count. Answers the admission's id, or null when the queue is full.
   */
  admitQueuedProduction(tenantId: string, cap: number): Promise<string | null> {
    return this.admit(tenantId, cap, 'production', `status = 'queued' AND NOT test_mode`);
  }

  /**
   * Admits one more test persona call of the tenant if fewer than `cap` are live (queued or in
   * progress, on any instance: decision 181), counted as admitQueuedProduction counts.
   */
  admitPersonaCall(tenantId: string, cap: number): Promise<string | null> {
    return this.admit(tenantId, cap, 'persona', `test_persona AND status IN ('queued', 'in_progress')`);
  }

  private async admit(tenantId: string, cap: number, kind: string, live: string): Promise<string | null> {
    return this.sessions.manager.transaction(async (db) => {
      await db.query(`SELECT pg_advisory_xact_lock(hashtext('call_admissions'), hashtext($1))`, [tenantId]);
      await db.query(
        `DELETE FROM call_admissions WHERE tenant_id = $1 AND admitted_at < now() - interval '${ADMISSION_TTL_S} seconds'`,
        [tenantId],
      );
      const rows: { n: number }[] = await db.query(
        `SELECT (SELECT count(*) FROM (
                   SELECT 1 FROM sessions WHERE tenant_id = $1 AND ${live} LIMIT $2
                 ) q)::int
              + (SELECT count(*) FROM call_admissions a WHERE a.tenant_id = $1 AND a.kind = $3
                   AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.session_id = a.session_id))::int AS n`,
        [tenantId, cap, kind],
      );
      if ((rows[0]?.n ?? 0) >= cap) return null;
      const id = randomUUID();
      await db.query('INSERT INTO call_admissions (admission_id, tenant_id, kind) VALUES ($1, $2, $3)', [
        id,
        tenantId,
        kind,
      ]);
      return id;
    });
  }

  /** The admitted call was placed as `sessionId`: counted from now on through the read model once it shows it. */
  async placedAdmission(admissionId: string, sessionId: string): Promise<void> {
    await this.sessions.query('UPDATE call_admissions SET session_id = $2 WHERE admission_id = $1', [
      admissionId,
      sessionId,
    ]);
  }

  /** The admitted call was not placed (refused or failed): it frees its place at once. */
  async dropAdmission(admissionId: string): Promise<void> {
    await this.sessions.query('DELETE FROM call_admissions WHERE admission_id = $1', [admissionId]);
  }

  get(tenantId: string, sessionId: string): Promise<SessionEntity | null> {
    return this.sessions.findOneBy({ sessionId, tenantId });
  }

  /**
   * The tenant's sessions, newest first, filtered by status, campaign and direction, after the session
   * `startingAfter` when given. Null when `startingAfter` is not one of the tenant's sessions.
   */
  async list(
    tenantId: string,
    page: { status?: string; campaignId?: string; direction?: string; startingAfter?: string; limit: number },
  ): Promise<SessionPage | null> {
    let cursor: Pick<SessionEntity, 'createdAt' | 'sessionId'> | null = null;
    if (page.startingAfter !== undefined) {
      cursor = await this.sessions.findOne({
        select: { createdAt: true, sessionId: true },
        where: { sessionId: page.startingAfter, tenantId },
      });
      if (!cursor) return null;
    }
    const query = this.sessions.createQueryBuilder('s').where('s.tenantId = :tenantId', { tenantId });
    if (page.status !== undefined) query.andWhere('s.status = :status', { status: page.status });
    if (page.campaignId !== undefined) query.andWhere('s.campaignId = :campaignId', { campaignId: page.campaignId });
    if (page.direction !== undefined) query.andWhere('s.direction = :direction', { direction: page.direction });
    return newestFirstPage(query, 'sessionId', cursor, page.limit);
  }

  /** The tenant a session belongs to, whoever asks (the signed media gateway); null for an unknown session. */
  async tenantOf(sessionId: string): Promise<string | null> {
    const row = await this.sessions.findOne({ select: { sessionId: true, tenantId: true }, where: { sessionId } });
    return row?.tenantId ?? null;
  }

  /** The session a recording belongs to; null for an unknown recording. */
  async sessionOfRecording(recordingId: string): Promise<string | null> {
    const row = await this.sessions.findOne({ select: { sessionId: true }, where: { recordingId } });
    return row?.sessionId ?? null;
  }

  /** The status of a recording, by its id; null for an unknown recording. */
  async recordingStatus(recordingId: string): Promise<string | null> {
    const row = await this.sessions.findOne({
      select: { sessionId: true, recordingStatus: true },
      where: { recordingId },
    });
    return row?.recordingStatus ?? null;
  }
}
