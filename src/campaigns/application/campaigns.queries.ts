import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { CampaignContactEntity, CampaignEntity } from '../projections/campaign.entity';

export interface Page<T> {
  data: T[];
  hasMore: boolean;
}

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
    const query = this.campaigns.createQueryBuilder('c').where('c.tenantId = :tenantId', { tenantId });
    if (page.startingAfter !== undefined) {
      const cursor = await this.get(tenantId, page.startingAfter);
      if (!cursor) return null;
      query.andWhere('(c.createdAt, c.campaignId) < (:createdAt, :campaignId)', {
        createdAt: cursor.createdAt,
        campaignId: cursor.campaignId,
      });
    }
    const rows = await query
      .orderBy('c.createdAt', 'DESC')
      .addOrderBy('c.campaignId', 'DESC')
      .limit(page.limit + 1)
      .getMany();
    return { data: rows.slice(0, page.limit), hasMore: rows.length > page.limit };
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
