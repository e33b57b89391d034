import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { newestFirstPage } from '../../infra/database/newest-first-page';
import { VoiceCloneEntity } from '../projections/voice-clone.entity';

/** Reads of the voice clones read model. */
@Injectable()
export class VoicesQueries {
  constructor(@InjectRepository(VoiceCloneEntity) private readonly voices: Repository<VoiceCloneEntity>) {}

  get(tenantId: string, voiceId: string): Promise<VoiceCloneEntity | null> {
    return this.voices.findOneBy({ tenantId, voiceId });
  }

  /** Newest first; null when `startingAfter` is not one of the tenant's voices. */
  async list(
    tenantId: string,
    page: { startingAfter?: string; limit: number },
  ): Promise<{ data: VoiceCloneEntity[]; hasMore: boolean } | null> {
    const cursor = page.startingAfter === undefined ? null : await this.get(tenantId, page.startingAfter);
    if (page.startingAfter !== undefined && !cursor) return null;
    const query = this.voices.createQueryBuilder('v').where('v.tenantId = :tenantId', { tenantId });
    return newestFirstPage(query, 'voiceId', cursor, page.limit);
  }
}
