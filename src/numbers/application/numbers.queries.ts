import { Injectable } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { newestFirstPage } from '../../infra/database/newest-first-page';
import type { AgentConfig } from '../../sessions';
import { PhoneNumberEntity } from '../projections/phone-number.entity';

/** Reads of the registered numbers. */
@Injectable()
export class NumbersQueries {
  constructor(@InjectRepository(PhoneNumberEntity) private readonly numbers: Repository<PhoneNumberEntity>) {}

  get(tenantId: string, phoneNumberId: string): Promise<PhoneNumberEntity | null> {
    return this.numbers.findOneBy({ tenantId, phoneNumberId });
  }

  /** The registration that owns the number (E.164), if any: the only one that takes calls from outside. */
  owner(phoneNumber: string): Promise<PhoneNumberEntity | null> {
    return this.numbers.findOneBy({ phoneNumber, owns: true });
  }

  /** Newest first; null when `startingAfter` is not one of the tenant's numbers. */
  async list(
    tenantId: string,
    page: { startingAfter?: string; limit: number },
  ): Promise<{ data: PhoneNumberEntity[]; hasMore: boolean } | null> {
    const cursor = page.startingAfter === undefined ? null : await this.get(tenantId, page.startingAfter);
    if (page.startingAfter !== undefined && !cursor) return null;
    const query = this.numbers.createQueryBuilder('n').where('n.tenantId = :tenantId', { tenantId });
    return newestFirstPage(query, 'phoneNumberId', cursor, page.limit);
  }
}

export interface NumberOwner {
  tenantId: string;
  phoneNumberId: string;
  phoneNumber: string;
  agentConfig: AgentConfig;
  testMode: boolean;
}

/**
 * The active owner of a number (E.164): the registration whose ownership was shown (a confirmed
 * verification call, or the operator's assignment), or null. Inbound routing asks only this: the
 * media gateway's calls today, the SIP path later. A registration still pending verification is never
 * an answer.
 */
export class GetNumberOwner extends Query<NumberOwner | null> {
  constructor(readonly phoneNumber: string) {
    super();
  }
}

@QueryHandler(GetNumberOwner)
export class GetNumberOwnerHandler implements IQueryHandler<GetNumberOwner> {
  constructor(private readonly numbers: NumbersQueries) {}

  async execute({ phoneNumber }: GetNumberOwner): Promise<NumberOwner | null> {
    const row = await this.numbers.owner(phoneNumber);
    return row
      ? {
          tenantId: row.tenantId,
          phoneNumberId: row.phoneNumberId,
          phoneNumber: row.phoneNumber,
          agentConfig: row.agentConfig,
          testMode: row.testMode,
        }
      : null;
  }
}
