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
}
