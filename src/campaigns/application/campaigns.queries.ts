import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { newestFirstPage, Page } from '../../infra/database/newest-first-page';
import { CampaignContactEntity, CampaignEntity } from '../projections/campaign.entity';

/** Reads of the campaigns read models (the API's). */
@Injectable()
export class CampaignsQueries {
  constructor(
    @InjectRepository(CampaignEntity) private readonly campaigns: Repository<CampaignEntity>,
    @InjectRepository(CampaignContactEntity) private readonly contacts: Repository<CampaignContactEntity>,
  ) {}

  get(tenantId: string, campaignId: string): Promise<CampaignEntity | null> {
    return this.campaigns.findOneBy({ tenantId, campaignId });
  }

  /** Newest first; null when `startingAfter` is not one of the tenant's campaigns. */
  async list(tenantId: string, page: { startingAfter?: string; limit: number }): Promise<Page<CampaignEntity> | null> {
    const cursor = page.startingAfter === undefined ? null : await this.get(tenantId, page.startingAfter);
    if (page.startingAfter !== undefined && !cursor) return null;
    const query = this.campaigns.createQueryBuilder('c').where('c.tenantId = :tenantId', { tenantId });
    return newestFirstPage(query, 'campaignId', cursor, page.limit);
  }

  /** In the order they were added; null when `startingAfter` is not one of the campaign's contacts. */
  async contactsOf(
    tenantId: string,
    campaignId: string,
    page: { status?: string; startingAfter?: string; limit: number },
  ): Promise<Page<CampaignContactEntity> | null> {
    const query = this.contacts
      .createQueryBuilder('k')
      .where('k.tenantId = :tenantId AND k.campaignId = :campaignId', { tenantId, campaignId });
    if (page.status !== undefined) query.andWhere('k.status = :status', { status: page.status });
    if (page.startingAfter !== undefined) {
      const cursor = await this.contacts.findOneBy({ tenantId, campaignId, contactId: page.startingAfter });
      if (!cursor) return null;
      query.andWhere('k.ordinal > :ordinal', { ordinal: cursor.ordinal });
    }
    const rows = await query
      .orderBy('k.ordinal', 'ASC')
      .limit(page.limit + 1)
      .getMany();
    return { data: rows.slice(0, page.limit), hasMore: rows.length > page.limit };
  }

  /**
   * The campaign's finished contacts per UTC `interval` (the start of each bucket that has any),
   * oldest first, at most `limit` buckets: one aggregate over campaign_contacts.finished_at.
   */
  async progress(
    tenantId: string,
    campaignId: string,
    interval: ProgressInterval,
    limit: number,
  ): Promise<ProgressBucket[]> {
    const rows: { at: Date; completed: number; failed: number; skipped: number }[] = await this.contacts.query(
      `SELECT date_trunc($3, finished_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS at,
              count(*) FILTER (WHERE status = 'completed')::int AS completed,
              count(*) FILTER (WHERE status = 'failed')::int AS failed,
              count(*) FILTER (WHERE status = 'skipped')::int AS skipped
         FROM campaign_contacts
        WHERE tenant_id = $1 AND campaign_id = $2 AND finished_at IS NOT NULL
        GROUP BY 1 ORDER BY 1 LIMIT $4`,
      [tenantId, campaignId, interval, limit],
    );
    return rows.map((r) => ({ at: new Date(r.at), completed: r.completed, failed: r.failed, skipped: r.skipped }));
  }
}

export const PROGRESS_INTERVALS = ['minute', 'hour', 'day'] as const;
export type ProgressInterval = (typeof PROGRESS_INTERVALS)[number];

export interface ProgressBucket {
  at: Date;
  completed: number;
  failed: number;
  skipped: number;
}
