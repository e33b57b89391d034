import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
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
