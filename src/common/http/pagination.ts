import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { invalidField } from '../errors/coded-error';

export const DEFAULT_PAGE_SIZE = 50;

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

interface CursorPosition {
  createdAt: Date;
  id: string;
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(`${position.createdAt.toISOString()}|${position.id}`).toString('base64url');
}

export function decodeCursor(cursor: string): CursorPosition {
  const [createdAt, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const date = new Date(createdAt);
  if (!id || Number.isNaN(date.getTime()) || !/^[0-9a-f-]{36}$/i.test(id)) {
    throw invalidField('cursor', 'cursor must be a nextCursor value returned by this list');
  }
  return { createdAt: date, id };
}

/**
 * Keyset pagination, newest first, on (created_at, id): stable while rows are added, and each page
 * costs one index range scan however deep it is.
 */
export async function paginate<E extends ObjectLiteral & { createdAt: Date; id: string }>(
  query: SelectQueryBuilder<E>,
  options: { limit?: number; cursor?: string },
): Promise<Page<E>> {
  const limit = options.limit ?? DEFAULT_PAGE_SIZE;
  const alias = query.alias;
  if (options.cursor) {
    const position = decodeCursor(options.cursor);
    query.andWhere(`(${alias}.createdAt, ${alias}.id) < (:cursorCreatedAt, :cursorId)`, {
      cursorCreatedAt: position.createdAt,
      cursorId: position.id,
    });
  }
  const rows = await query
    .orderBy(`${alias}.createdAt`, 'DESC')
    .addOrderBy(`${alias}.id`, 'DESC')
    .limit(limit + 1)
    .getMany();
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}
