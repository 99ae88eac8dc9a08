import { sql } from 'drizzle-orm';

/**
 * Page sizes the console's lists ask for (50 and 20 rows), with the one row more that tells
 * whether another page follows.
 */
const WRITTEN = new Set([21, 51]);

/**
 * The LIMIT of a list page, written into the statement for the usual page sizes instead of sent as
 * a parameter. PostgreSQL plans a statement without parameters once per connection and keeps the
 * plan; with `limit $1`, every execution is planned again (plan_cache_mode, decision 011), which
 * was 0.27 of the 0.88 ms an admin's first page of trips cost it, and a generic plan made without
 * the limit's value would sort the whole table. A page with filters or a cursor still has
 * parameters and is still planned for their values. Other sizes stay parameters, so that the
 * statements each connection keeps stay few.
 */
export function pageLimit(size: number): number {
  // Drizzle writes an SQL object given as the limit into the statement as it is.
  return WRITTEN.has(size) ? (sql.raw(String(size)) as unknown as number) : size;
}
