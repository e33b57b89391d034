import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

export interface Page<T> {
  data: T[];
  hasMore: boolean;
}

/**
 * One page of a list newest first, as every `GET` list of the API pages (`limit`, `starting_after`):
 * ordered by `createdAt` then by the id property (both descending), after `cursor` (the row named by
 * `starting_after`) when given, one row more than `limit` fetched to tell `has_more`.
 */
export async function newestFirstPage<T extends ObjectLiteral>(
  query: SelectQueryBuilder<T>,
  idProperty: keyof T & string,
  cursor: Partial<T> | null,
  limit: number,
): Promise<Page<T>> {
  const alias = query.alias;
  if (cursor)
    query.andWhere(`(${alias}.createdAt, ${alias}.${idProperty}) < (:cursorCreatedAt, :cursorId)`, {
      cursorCreatedAt: cursor.createdAt as unknown,
      cursorId: cursor[idProperty] as unknown,
    });
  const rows = await query
    .orderBy(`${alias}.createdAt`, 'DESC')
    .addOrderBy(`${alias}.${idProperty}`, 'DESC')
    .limit(limit + 1)
    .getMany();
  return { data: rows.slice(0, limit), hasMore: rows.length > limit };
}
