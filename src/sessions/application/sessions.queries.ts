import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { newestFirstPage } from '../../infra/database/newest-first-page';
import { SessionEntity } from '../projections/session.entity';

export interface SessionPage {
  data: SessionEntity[];
  hasMore: boolean;
}

/** Reads of the sessions read model: the API's list and get, the media gateway's and the recordings' lookups. */
@Injectable()
export class SessionsQueries {
  constructor(@InjectRepository(SessionEntity) private readonly sessions: Repository<SessionEntity>) {}

  /** The tenant's production calls placed and not yet started, counted up to `atMost`. */
  async queuedProductionCalls(tenantId: string, atMost: number): Promise<number> {
    const rows: { n: number }[] = await this.sessions.query(
      `SELECT count(*)::int AS n FROM (
         SELECT 1 FROM sessions WHERE tenant_id = $1 AND status = 'queued' AND NOT test_mode LIMIT $2
       ) q`,
      [tenantId, atMost],
    );
    return rows[0]?.n ?? 0;
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
