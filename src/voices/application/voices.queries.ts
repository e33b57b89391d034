import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
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
    const query = this.voices.createQueryBuilder('v').where('v.tenantId = :tenantId', { tenantId });
    if (page.startingAfter !== undefined) {
      const cursor = await this.get(tenantId, page.startingAfter);
      if (!cursor) return null;
      query.andWhere('(v.createdAt, v.voiceId) < (:createdAt, :voiceId)', {
        createdAt: cursor.createdAt,
        voiceId: cursor.voiceId,
      });
    }
    const rows = await query
      .orderBy('v.createdAt', 'DESC')
      .addOrderBy('v.voiceId', 'DESC')
      .limit(page.limit + 1)
      .getMany();
    return { data: rows.slice(0, page.limit), hasMore: rows.length > page.limit };
  }
}
