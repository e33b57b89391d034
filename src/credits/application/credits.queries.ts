import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { newestFirstPage, Page } from '../../infra/database/newest-first-page';
import { CreditBalanceEntity, CreditTopupEntity } from '../projections/credit.entity';

export interface Balance {
  balanceCents: number;
  thresholdCents: number;
  depleted: boolean;
}

/** Reads of the credits read models. */
@Injectable()
export class CreditsQueries {
  constructor(
    @InjectRepository(CreditBalanceEntity) private readonly balances: Repository<CreditBalanceEntity>,
    @InjectRepository(CreditTopupEntity) private readonly topups: Repository<CreditTopupEntity>,
  ) {}

  /** A tenant with no ledger event yet has 0 and a threshold of 0 (docs/credits.md). */
  async balance(tenantId: string): Promise<Balance> {
    const row = await this.balances.findOneBy({ tenantId });
    return {
      balanceCents: row ? Number(row.balanceCents) : 0,
      thresholdCents: row ? Number(row.thresholdCents) : 0,
      depleted: row?.depleted ?? false,
    };
  }

  topup(tenantId: string, topupId: string): Promise<CreditTopupEntity | null> {
    return this.topups.findOneBy({ tenantId, topupId });
  }

  /** Newest first; null when `startingAfter` is not one of the tenant's top-ups. */
  async listTopups(
    tenantId: string,
    page: { startingAfter?: string; limit: number },
  ): Promise<Page<CreditTopupEntity> | null> {
    const cursor = page.startingAfter === undefined ? null : await this.topup(tenantId, page.startingAfter);
    if (page.startingAfter !== undefined && !cursor) return null;
    const query = this.topups.createQueryBuilder('t').where('t.tenantId = :tenantId', { tenantId });
    return newestFirstPage(query, 'topupId', cursor, page.limit);
  }
}
