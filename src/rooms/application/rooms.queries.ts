import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { newestFirstPage } from '../../infra/database/newest-first-page';
import { RoomEntity } from '../projections/room.entity';

export interface Page<T> {
  data: T[];
  hasMore: boolean;
}

/** Reads of the rooms read model. */
@Injectable()
export class RoomsQueries {
  constructor(@InjectRepository(RoomEntity) private readonly rooms: Repository<RoomEntity>) {}

  get(tenantId: string, roomId: string): Promise<RoomEntity | null> {
    return this.rooms.findOneBy({ tenantId, roomId });
  }

  /** The room a participant's link names, whoever owns it (the link's signature was checked first). */
  byId(roomId: string): Promise<RoomEntity | null> {
    return this.rooms.findOneBy({ roomId });
  }

  /** Newest first; null when `startingAfter` is not one of the tenant's rooms. */
  async list(
    tenantId: string,
    page: { status?: string; startingAfter?: string; limit: number },
  ): Promise<Page<RoomEntity> | null> {
    const cursor = page.startingAfter === undefined ? null : await this.get(tenantId, page.startingAfter);
    if (page.startingAfter !== undefined && !cursor) return null;
    const query = this.rooms.createQueryBuilder('r').where('r.tenantId = :tenantId', { tenantId });
    if (page.status !== undefined) query.andWhere('r.status = :status', { status: page.status });
    return newestFirstPage(query, 'roomId', cursor, page.limit);
  }
}
