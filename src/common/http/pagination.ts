import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { invalidField } from '../errors/coded-error';

export const DEFAULT_PAGE_SIZE = 50;

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** What every list takes besides its own filters (see ListQueryDto). */
export interface ListOptions {
  limit?: number;
  cursor?: string;
  /** ISO date-time: only rows created at or after it. */
  createdAfter?: string;
  /** ISO date-time: only rows created strictly before it. */
  createdBefore?: string;
}

interface CursorPosition {
  createdAt: Date;
  seq: number;
}

const BAD_CURSOR = 'cursor must be a nextCursor value returned by this list';

function encodeCursor(position: CursorPosition): string {
  return Buffer.from(`${position.createdAt.toISOString()}|${position.seq}`).toString('base64url');
}

/** What encodeCursor writes: toISOString of an instant in years 0001..9999 (PostgreSQL has no year 0, nor ±275760). */
const CURSOR_TIME = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function decodeCursor(cursor: string): CursorPosition {
  const [createdAt, seq, extra] = Buffer.from(cursor, 'base64url').toString().split('|');
  const date = new Date(createdAt);
  if (extra !== undefined || !/^\d{1,15}$/.test(seq ?? '') || !CURSOR_TIME.test(createdAt) || Number.isNaN(date.getTime())) throw invalidField('cursor', BAD_CURSOR);
  return { createdAt: date, seq: Number(seq) };
}

/**
 * Keyset pagination, newest first, on (created_at, seq): created_at is business time and may repeat (a test clock
 * standing still, a batch), seq is the insertion order that breaks the tie. Stable while rows are added, and each
 * page costs one index range scan however deep it is; the created range narrows that same scan.
 */
export async function paginate<E extends ObjectLiteral & { createdAt: Date; seq: number }>(
  query: SelectQueryBuilder<E>,
  options: ListOptions,
): Promise<Page<E>> {
  const limit = options.limit ?? DEFAULT_PAGE_SIZE;
  const alias = query.alias;
  if (options.createdAfter) query.andWhere(`${alias}.createdAt >= :createdAfter`, { createdAfter: new Date(options.createdAfter) });
  if (options.createdBefore) query.andWhere(`${alias}.createdAt < :createdBefore`, { createdBefore: new Date(options.createdBefore) });
  if (options.cursor) {
    const position = decodeCursor(options.cursor);
    query.andWhere(`(${alias}.createdAt, ${alias}.seq) < (:cursorCreatedAt, :cursorSeq)`, {
      cursorCreatedAt: position.createdAt,
      cursorSeq: position.seq,
    });
  }
  const rows = await query
    .orderBy(`${alias}.createdAt`, 'DESC')
    .addOrderBy(`${alias}.seq`, 'DESC')
    .limit(limit + 1)
    .getMany();
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}
