import { Injectable } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { DncNumberEntity } from '../projections/dnc-number.entity';

/** Reads of the tenant's do-not-call list. */
@Injectable()
export class DncQueries {
  constructor(@InjectRepository(DncNumberEntity) private readonly numbers: Repository<DncNumberEntity>) {}

  /** Newest first. */
  list(tenantId: string): Promise<DncNumberEntity[]> {
    return this.numbers.find({ where: { tenantId }, order: { createdAt: 'DESC', phoneNumber: 'ASC' } });
  }

  get(tenantId: string, phoneNumber: string): Promise<DncNumberEntity | null> {
    return this.numbers.findOneBy({ tenantId, phoneNumber });
  }
}

/** Which of `numbers` are on the tenant's do-not-call list (the campaign pacer asks before dialling). */
export class ListedNumbers extends Query<ReadonlySet<string>> {
  constructor(
    readonly tenantId: string,
    readonly numbers: readonly string[],
  ) {
    super();
  }
}

@QueryHandler(ListedNumbers)
export class ListedNumbersHandler implements IQueryHandler<ListedNumbers> {
  constructor(@InjectRepository(DncNumberEntity) private readonly numbers: Repository<DncNumberEntity>) {}

  async execute({ tenantId, numbers }: ListedNumbers): Promise<ReadonlySet<string>> {
    if (numbers.length === 0) return new Set();
    const rows = await this.numbers.find({
      select: { phoneNumber: true },
      where: { tenantId, phoneNumber: In([...numbers]) },
    });
    return new Set(rows.map((r) => r.phoneNumber));
  }
}
