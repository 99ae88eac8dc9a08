import { z } from 'zod';
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { TRIP_STATUSES } from '@bmet/shared/constants';
import type { SortOrder } from '@bmet/shared/schemas/sort';
import { cursorTimestampSchema, cursorTotalShape, decodeCursor, encodeCursor } from './paging';

/**
 * Keyset paging under a chosen sort. A sort key is a list of parts (the sorted field, then the
 * fields that break its ties, the id last); a page after a cursor is the rows whose key comes after
 * the cursor's key in the list's order. `desc` is the exact reverse of `asc`, so both read the same
 * index, forwards or backwards.
 */

/** The SQL types a key part is bound as. */
type KeyType = 'text' | 'uuid' | 'int8' | 'timestamptz' | 'float8' | 'date' | 'trip_status';

export type KeyPart = {
  /** What is sorted on: a column, or the expression an index is built on (never null). */
  expression: AnyColumn | SQL;
  type: KeyType;
  /**
   * The part runs the other way from the sort (a status sorted A to Z, its trips newest first):
   * ascending in the sort's `asc` is descending here, and the other way round.
   */
  reversed?: boolean;
  /** The index serving the sort declares this part DESC (drizzle writes DESC NULLS LAST). */
  indexDesc?: boolean;
};

/** The largest bigint PostgreSQL holds: a forged key past it would fail the query, not the cursor. */
const INT8_MAX = 2n ** 63n - 1n;

/**
 * What each part of a key may hold: what the database handed out, and nothing it cannot read back
 * (a bigint past INT8_MAX, a date in year 0), so a forged cursor is a bad cursor, not a failed query.
 */
const VALUE_SCHEMAS: Record<KeyType, z.ZodType> = {
  text: z.string().max(1000),
  uuid: z.uuid(),
  // As text: a bigint past 2^53 would lose digits as a JSON number.
  int8: z
    .string()
    .regex(/^\d{1,19}$/)
    .refine((value) => BigInt(value) <= INT8_MAX),
  timestamptz: cursorTimestampSchema,
  float8: z.number().finite(),
  // Any day a date column holds (a review view sorts documents without one as 9999-12-31).
  date: z.iso.date().refine((value) => !value.startsWith('0000')),
  trip_status: z.enum(TRIP_STATUSES),
};

/**
 * How a part is read for a cursor: timestamps to the microsecond in UTC (a JavaScript Date would
 * drop the microseconds and a cursor could fall between two rows), big integers as text, the rest
 * as they are.
 */
export function cursorValue(part: KeyPart): SQL {
  if (part.type === 'timestamptz') {
    return sql`to_char(${part.expression} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
  }
  return part.type === 'int8' ? sql`${part.expression}::text` : sql`${part.expression}`;
}

const descending = (part: KeyPart, order: SortOrder) => (order === 'desc') !== Boolean(part.reversed);

/**
 * ORDER BY for the key, written as the indexes are built: drizzle declares DESC index columns
 * NULLS LAST, ascending ones keep PostgreSQL's NULLS LAST, and a backward scan turns both round.
 */
export function orderByKey(parts: KeyPart[], order: SortOrder): SQL[] {
  return parts.map((part) => {
    const down = descending(part, order);
    if (part.indexDesc) {
      return down ? sql`${part.expression} desc nulls last` : sql`${part.expression} asc nulls first`;
    }
    return down ? sql`${part.expression} desc nulls first` : sql`${part.expression} asc nulls last`;
  });
}

const bound = (part: KeyPart, value: unknown) => sql`${value}::${sql.raw(part.type)}`;

/**
 * The rows after `values` in the list's order. Parts that all run one way are one row comparison,
 * which an index answers as a range; mixed directions are spelled out, with a bound on the first
 * part so that the index still starts at the cursor's value.
 */
export function afterKey(parts: KeyPart[], order: SortOrder, values: unknown[]): SQL {
  const directions = parts.map((part) => descending(part, order));
  if (directions.every((down) => down === directions[0])) {
    const left = sql.join(
      parts.map((part) => sql`${part.expression}`),
      sql`, `,
    );
    const right = sql.join(
      parts.map((part, index) => bound(part, values[index])),
      sql`, `,
    );
    return directions[0] ? sql`(${left}) < (${right})` : sql`(${left}) > (${right})`;
  }
  const beyond = (index: number) =>
    directions[index]
      ? sql`${parts[index]!.expression} < ${bound(parts[index]!, values[index])}`
      : sql`${parts[index]!.expression} > ${bound(parts[index]!, values[index])}`;
  const alternatives = parts.map((_, index) => {
    const equal = parts
      .slice(0, index)
      .map((part, before) => sql`${part.expression} = ${bound(part, values[before])}`);
    return sql.join([...equal, beyond(index)], sql` and `);
  });
  const first = parts[0]!;
  const start = directions[0]
    ? sql`${first.expression} <= ${bound(first, values[0])}`
    : sql`${first.expression} >= ${bound(first, values[0])}`;
  return sql`(${start} and (${sql.join(
    alternatives.map((alternative) => sql`(${alternative})`),
    sql` or `,
  )}))`;
}

/** A cursor under a sort: the sort it was handed out for, the last row's key, and the list's count. */
export type SortedCursor = { s: string; o: SortOrder; k: unknown[]; t?: number; tc?: boolean };

/**
 * The key in a sorted list's cursor, or a 400 'Invalid cursor.' for one handed out for another
 * sort (its key would mean nothing in this order) or holding values of the wrong types.
 */
export function decodeSortedCursor(
  cursor: string,
  sort: { field: string; order: SortOrder },
  parts: KeyPart[],
): SortedCursor {
  const schema = z
    .object({
      s: z.literal(sort.field),
      o: z.literal(sort.order),
      k: z.tuple(parts.map((part) => VALUE_SCHEMAS[part.type]) as [z.ZodType, ...z.ZodType[]]),
      ...cursorTotalShape,
    })
    .strict();
  return decodeCursor(cursor, schema) as SortedCursor;
}

export function encodeSortedCursor(
  sort: { field: string; order: SortOrder },
  key: unknown[],
  extra: Record<string, unknown> = {},
): string {
  return encodeCursor({ s: sort.field, o: sort.order, k: key, ...extra });
}

/** The row's key as one column (a JSON array), for the cursor of the page after it. */
export function keyColumn(parts: KeyPart[]): SQL<unknown[]> {
  return sql<unknown[]>`json_build_array(${sql.join(parts.map(cursorValue), sql`, `)})`;
}

/**
 * A page from rows read with `limit + 1` and their `sortKey`: the rows shown and the cursor of the
 * next page (the last shown row's key, and whatever `extra` the list carries on, such as its count).
 */
export function sortedPage<Row extends { sortKey: unknown[] }>(
  rows: Row[],
  limit: number,
  sort: { field: string; order: SortOrder },
  extra: Record<string, unknown> = {},
): { shown: Row[]; nextCursor: string | null } {
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return {
    shown,
    nextCursor: rows.length > limit && last ? encodeSortedCursor(sort, last.sortKey, extra) : null,
  };
}
