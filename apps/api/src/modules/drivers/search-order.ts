import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { indianHour } from '../../lib/ist-days';

/** The advisory lock of the ordering: with several instances, one of them does it each time. */
export const SEARCH_ORDER_LOCK = 7_420_241_202;

/** Hours of the night in India (from, to) when the table may be ordered again: it waits meanwhile. */
const NIGHT_IST = [1, 5] as const;

/** Rows out of order, beyond which the table is ordered again: a hundredth of it, and at least this. */
const LEAST_OUT_OF_ORDER = 100;

export type SearchOrder = {
  /** driver_search's rows. */
  rows: number;
  /** Rows that follow a row later in name order, as stored: 0 once ordered. */
  outOfOrder: number;
  /** Whether the table was ordered again. */
  ordered: boolean;
};

/**
 * Orders driver_search by name again (decision 042) once enough of its rows are out of order:
 * drivers added, renamed or moved since it was last ordered sit at the end of the table, and a
 * search reads a page for each. CLUSTER holds the table while it rewrites it (seconds at 100,000
 * drivers, its trigram index rebuilt), so it runs only at night in India; searches and changes to
 * drivers' names wait meanwhile. Null by day, or when another instance holds the lock.
 */
export async function keepDriverSearchInOrder(db: Db, now = new Date()): Promise<SearchOrder | null> {
  const hour = indianHour(now);
  if (hour < NIGHT_IST[0] || hour >= NIGHT_IST[1]) return null;
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const [lock] = rowsOf(
      await tx.execute(sql`select pg_try_advisory_xact_lock(${SEARCH_ORDER_LOCK}) as taken`),
    );
    if (!lock?.taken) return null;
    const { rows, outOfOrder } = await driverSearchOrder(tx);
    if (outOfOrder < Math.max(LEAST_OUT_OF_ORDER, rows / 100)) return { rows, outOfOrder, ordered: false };
    await tx.execute(sql`cluster driver_search using driver_search_name_idx`);
    await tx.execute(sql`analyze driver_search`);
    return { rows, outOfOrder, ordered: true };
  });
}

/** How far driver_search is from name order, as stored (one read of its 100 or so bytes a driver). */
export async function driverSearchOrder(db: Db): Promise<Omit<SearchOrder, 'ordered'>> {
  const [row] = rowsOf(
    await db.execute(sql`select count(*)::int as rows,
        (count(*) filter (where (name, id) < (previous_name, previous_id)))::int as out_of_order
      from (select name, id, lag(name) over stored as previous_name, lag(id) over stored as previous_id
        from driver_search window stored as (order by ctid)) s`),
  );
  return { rows: Number(row?.rows ?? 0), outOfOrder: Number(row?.out_of_order ?? 0) };
}
