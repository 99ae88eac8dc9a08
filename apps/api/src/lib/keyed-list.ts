import type { ListTotal } from './paging';

type KeyedList<Row> = { data: Record<string, Row>; nextCursor: string | null };

/**
 * A list's answer as the spec's screens read it: the page's rows keyed by id in list order (an
 * object keeps the order its non-numeric keys were set in), the next page's cursor and, where the
 * list is counted, its size.
 */
export function keyedList<Row extends { id: string }>(
  rows: Row[],
  page: { nextCursor: string | null } & ListTotal,
): KeyedList<Row> & ListTotal;
export function keyedList<Row extends { id: string }>(
  rows: Row[],
  page: { nextCursor: string | null },
): KeyedList<Row>;
export function keyedList<Row extends { id: string }>(
  rows: Row[],
  page: { nextCursor: string | null } & Partial<ListTotal>,
): KeyedList<Row> & Partial<ListTotal> {
  const answer = { data: Object.fromEntries(rows.map((row) => [row.id, row])), nextCursor: page.nextCursor };
  return page.total === undefined ? answer : { ...answer, total: page.total, totalCapped: page.totalCapped };
}
