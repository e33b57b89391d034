import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
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
    const query = this.numbers.createQueryBuilder('n').where('n.tenantId = :tenantId', { tenantId });
    if (page.startingAfter !== undefined) {
      const cursor = await this.get(tenantId, page.startingAfter);
      if (!cursor) return null;
      query.andWhere('(n.createdAt, n.phoneNumberId) < (:createdAt, :phoneNumberId)', {
        createdAt: cursor.createdAt,
        phoneNumberId: cursor.phoneNumberId,
      });
    }
    const rows = await query
      .orderBy('n.createdAt', 'DESC')
      .addOrderBy('n.phoneNumberId', 'DESC')
      .limit(page.limit + 1)
      .getMany();
    return { data: rows.slice(0, page.limit), hasMore: rows.length > page.limit };
  }
}
