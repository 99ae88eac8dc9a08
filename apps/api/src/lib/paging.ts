import { z } from 'zod';
import { count, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { DbExecutor } from '../db/client';
import { LIST_TOTAL_CAP } from '@bmet/shared/constants';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import { findTextProblem } from './text';

/**
 * Keyset paging helpers. A cursor is the sort key of the last row of a page, as base64url JSON:
 * opaque to clients, checked against a schema when it comes back.
 */

export function encodeCursor(key: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

/**
 * A page from rows read with `limit + 1`: the extra row only tells that another page follows, and
 * the next cursor is the sort key of the last row shown.
 */
export function keysetPage<Row>(
  rows: Row[],
  limit: number,
  keyOf: (row: Row) => Record<string, unknown>,
): { shown: Row[]; nextCursor: string | null } {
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return { shown, nextCursor: rows.length > limit && last !== undefined ? encodeCursor(keyOf(last)) : null };
}

/** The 400 of a cursor this API did not hand out, naming the `cursor` field as schema errors do. */
function invalidCursor(): AppError {
  return new AppError('VALIDATION', m.invalidCursor(), { fieldErrors: { cursor: [m.invalidCursor()] } });
}

/** The key in a cursor, or a 400 'Invalid cursor.' for anything this API did not hand out. */
export function decodeCursor<T extends z.ZodType>(cursor: string, schema: T): z.output<T> {
  let parsed: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('not base64url');
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  // A forged key holding NUL or a lone surrogate would fail in the database, not as a bad cursor.
  const result = findTextProblem(parsed) ? null : schema.safeParse(parsed);
  if (!result?.success) throw invalidCursor();
  return result.data;
}

/**
 * A timestamp as PostgreSQL writes it with `to_char(... 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`: full
 * microseconds, so that a cursor never falls between two rows that a JavaScript Date (milliseconds)
 * would see as equal.
 */
export const CURSOR_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/**
 * A time PostgreSQL can read: a forged cursor such as February 30 or year 0 gets the 400 of a bad
 * cursor, not a failed query (JavaScript's Date.parse would roll February 30 over to March).
 */
function isRealInstant(value: string): boolean {
  const parsed = Date.parse(value);
  if (Number.isNaN(parsed) || value.startsWith('0000')) return false;
  return new Date(parsed).toISOString().slice(0, 19) === value.slice(0, 19);
}

/** The timestamp part of a time-ordered cursor. */
export const cursorTimestampSchema = z.string().regex(CURSOR_TIMESTAMP).refine(isRealInstant);

/** Newest first, written the way the (created_at desc, id desc) indexes are built, so they serve it. */
export function newestFirst(createdAt: AnyColumn, id: AnyColumn): SQL[] {
  return [sql`${createdAt} desc nulls last`, sql`${id} desc nulls last`];
}

/** User text for a LIKE pattern: %, _ and the escape character itself match literally. */
export function escapeLikePattern(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** What a list says of its size: counted up to the cap, or "at least the cap". */
export type ListTotal = { total: number; totalCapped: boolean };

/** The part of a cursor that carries the first page's count on to the next pages. */
export const cursorTotalShape = {
  // Up to the cap, or more where a list counts exactly (unsearched drivers).
  t: z.number().int().min(0).optional(),
  tc: z.boolean().optional(),
};

/** The count as a cursor carries it, if it does. */
export function totalFromCursor(key: { t?: number; tc?: boolean } | null): ListTotal | null {
  return key?.t === undefined ? null : { total: key.t, totalCapped: key.tc ?? false };
}

/** Adds the count to a page's next cursor key, so that the next pages need not count again. */
export function withTotal(key: Record<string, unknown>, total: ListTotal): Record<string, unknown> {
  return { ...key, t: total.total, tc: total.totalCapped };
}

/**
 * The count of the rows of `table` that `filter` matches, reading no more than LIST_TOTAL_CAP + 1
 * of them: a count costs at most that much whatever the table's size, and a list past the cap
 * says "10,000+". Built, not run, so that the benchmark can EXPLAIN it.
 */
export function cappedCountQuery(db: DbExecutor, table: PgTable, filter: SQL | undefined) {
  const matching = db
    .select({ one: sql<number>`1`.as('one') })
    .from(table)
    .where(filter)
    .limit(LIST_TOTAL_CAP + 1)
    .as('matching');
  return db.select({ total: count() }).from(matching);
}

/**
 * A page's rows (up to `limit` + 1, the extra one telling that another page follows) and the size
 * of the whole list: carried by the cursor after the first page; on a first page, the count the
 * database keeps (`kept`, read beside the page), or else a capped count of the matching rows, run
 * only when the page is full: a first page with room left holds the whole list, which a search
 * for one driver or one phone number usually is. The count is a query not yet run (Drizzle runs a
 * query when it is awaited), so a count that is not needed costs nothing.
 */
export async function pageWithTotal<Row>(
  page: PromiseLike<Row[]>,
  total: PromiseLike<{ total: number }[]> | null,
  list: { limit: number; kept: boolean; after: { t?: number; tc?: boolean } | null },
): Promise<{ rows: Row[]; listTotal: ListTotal }> {
  const carried = totalFromCursor(list.after);
  if (carried) return { rows: await page, listTotal: carried };
  if (!total) throw new Error('A page whose cursor carries no count needs its count query');
  if (list.kept) {
    const [rows, counted] = await Promise.all([page, total]);
    return { rows, listTotal: exactTotal(counted) };
  }
  const rows = await page;
  if (!list.after && rows.length <= list.limit)
    return { rows, listTotal: { total: rows.length, totalCapped: false } };
  return { rows, listTotal: toListTotal(await total) };
}

/** A count the database keeps (exact at any size) as a list answers it. */
export function exactTotal(rows: { total: number }[]): ListTotal {
  return { total: rows[0]?.total ?? 0, totalCapped: false };
}

/** The capped count as a list answers it. */
export function toListTotal(rows: { total: number }[]): ListTotal {
  const counted = Number(rows[0]?.total ?? 0);
  return { total: Math.min(counted, LIST_TOTAL_CAP), totalCapped: counted > LIST_TOTAL_CAP };
}
