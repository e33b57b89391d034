import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AuditEventEntity } from '../projections/audit-event.entity';

export interface EventPage {
  /** Envelopes as stored: the same ids, bodies and key order as the webhooks. */
  data: unknown[];
  hasMore: boolean;
}

/** Reads of the audit read model: the tenant's events feed and one session's events. */
@Injectable()
export class AuditQueries {
  constructor(@InjectRepository(AuditEventEntity) private readonly events: Repository<AuditEventEntity>) {}

  /**
   * The tenant's events in commit order (newest first with `order: 'desc'`), of one type when `type`
   * is given, after the event `after` (an event id) in that order when given. Null when `after` is
   * not one of the tenant's events.
   */
  async feed(
    tenantId: string,
    page: { after?: string; type?: string; limit: number; order?: 'asc' | 'desc' },
  ): Promise<EventPage | null> {
    const desc = page.order === 'desc';
    let cursor: string | null = null;
    if (page.after) {
      const row = await this.events.findOne({ select: { seq: true }, where: { tenantId, eventId: page.after } });
      if (!row) return null;
      cursor = row.seq;
    }
    const query = this.events
      .createQueryBuilder('a')
      .select(['a.seq', 'a.envelope'])
      .where('a.tenantId = :tenantId', { tenantId });
    if (cursor !== null) query.andWhere(desc ? 'a.seq < :cursor' : 'a.seq > :cursor', { cursor });
    if (page.type !== undefined) query.andWhere('a.type = :type', { type: page.type });
    const rows = await query
      .orderBy('a.seq', desc ? 'DESC' : 'ASC')
      .limit(page.limit + 1)
      .getMany();
    return { data: rows.slice(0, page.limit).map((r) => r.envelope), hasMore: rows.length > page.limit };
  }

  /** One session's events in commit order, as envelopes. */
  async sessionEvents(tenantId: string, sessionId: string): Promise<unknown[]> {
    const rows = await this.events.find({
      select: { seq: true, envelope: true },
      where: { tenantId, sessionId },
      order: { seq: 'ASC' },
    });
    return rows.map((r) => r.envelope);
  }
}
