import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
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
    const query = this.rooms.createQueryBuilder('r').where('r.tenantId = :tenantId', { tenantId });
    if (page.status !== undefined) query.andWhere('r.status = :status', { status: page.status });
    if (page.startingAfter !== undefined) {
      const cursor = await this.get(tenantId, page.startingAfter);
      if (!cursor) return null;
      query.andWhere('(r.createdAt, r.roomId) < (:createdAt, :roomId)', {
        createdAt: cursor.createdAt,
        roomId: cursor.roomId,
      });
    }
    const rows = await query
      .orderBy('r.createdAt', 'DESC')
      .addOrderBy('r.roomId', 'DESC')
      .limit(page.limit + 1)
      .getMany();
    return { data: rows.slice(0, page.limit), hasMore: rows.length > page.limit };
  }
}
