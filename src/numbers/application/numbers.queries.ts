import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { newestFirstPage } from '../../infra/database/newest-first-page';
import { PhoneNumberEntity } from '../projections/phone-number.entity';

/** Reads of the registered numbers. */
@Injectable()
export class NumbersQueries {
  constructor(@InjectRepository(PhoneNumberEntity) private readonly numbers: Repository<PhoneNumberEntity>) {}

  get(tenantId: string, phoneNumberId: string): Promise<PhoneNumberEntity | null> {
    return this.numbers.findOneBy({ tenantId, phoneNumberId });
  }

  /** Whoever owns the number (E.164): the media gateway reports calls by number. */
  byNumber(phoneNumber: string): Promise<PhoneNumberEntity | null> {
    return this.numbers.findOneBy({ phoneNumber });
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
