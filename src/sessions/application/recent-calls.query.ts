import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { SessionEntity } from '../projections/session.entity';

/**
 * When the tenant's (outbound) calls to each of `numbers` were placed since `since` (ms since epoch), leaving out
 * the sessions of campaign `exceptCampaign` (which counts its own): the campaign pacer's daily cap.
 */
export class RecentCallsTo extends Query<ReadonlyMap<string, readonly number[]>> {
  constructor(
    readonly tenantId: string,
    readonly numbers: readonly string[],
    readonly since: Date,
    readonly exceptCampaign: string | null,
  ) {
    super();
  }
}

@QueryHandler(RecentCallsTo)
export class RecentCallsToHandler implements IQueryHandler<RecentCallsTo> {
  constructor(@InjectRepository(SessionEntity) private readonly sessions: Repository<SessionEntity>) {}

  async execute({ tenantId, numbers, since, exceptCampaign }: RecentCallsTo) {
    const calls = new Map<string, number[]>();
    if (numbers.length === 0) return calls;
    const rows = await this.sessions
      .createQueryBuilder('s')
      .select(['s.toNumber', 's.createdAt'])
      .where('s.tenantId = :tenantId', { tenantId })
      .andWhere("s.direction = 'outbound'")
      .andWhere('s.toNumber IN (:...numbers)', { numbers })
      .andWhere('s.createdAt >= :since', { since })
      .andWhere('s.campaignId IS DISTINCT FROM :exceptCampaign', { exceptCampaign })
      .getMany();
    for (const row of rows) {
      if (row.toNumber === null) continue;
      calls.set(row.toNumber, [...(calls.get(row.toNumber) ?? []), row.createdAt.getTime()]);
    }
    return calls;
  }
}
