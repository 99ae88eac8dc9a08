import { and, eq, sql } from 'drizzle-orm';
import {
  DEFAULT_ORDERS,
  resolveSort,
  TRIP_SORTS,
  type SortOrder,
  type TripSort,
} from '@bmet/shared/schemas/sort';
import { pageLimit } from '../../db/page-limit';
import type { Db } from '../../db/client';
import { drivers, trips } from '../../db/schema';
import { cappedCountQuery, keysetPage, toListTotal, type ListTotal } from '../../lib/paging';
import { afterKey, decodeSortedCursor, keyColumn, sortedPage } from '../../lib/sort';
import { type ScopeCaller, tripDriverScope } from '../../lib/scope';
import {
  LIST_TUNING,
  type ListTuning,
  cachedTripListQueries,
  chosenDrivers,
  findScopedKeys,
  tuningFor,
  findTripRecords,
} from './list-planner';
import { TRIP_KEYS, type TripListOptions, isNewestFirst, listConditions } from './list-filters';
import { type TripRecord, driver, readTripRecords, toTrips, tripColumns } from './repository';
import { orderByKey } from '../../lib/sort';

// The trip list's pages, in its own order or another sort.

/**
 * A page of the trips a caller may see as the list reads them, newest first, with the cursor of
 * the next page: what findTrips answers, before the trips take the contract's shape. A CSV export
 * writes these records as they are (and asks for the next page before it does).
 */
export async function findTripRecordPage(
  db: Db,
  caller: ScopeCaller,
  options: TripListOptions,
  tuning: ListTuning = LIST_TUNING,
): Promise<{ rows: TripRecord[]; nextCursor: string | null }> {
  // Asked for no driver at all: nothing to answer, and no query to run.
  if (options.driverIds?.length === 0) return { rows: [], nextCursor: null };
  const sort = resolveSort(TRIP_SORTS, DEFAULT_ORDERS.trips, options);
  if (!isNewestFirst(sort)) return findSortedTripRecordPage(db, caller, options, sort);
  tuning = tuningFor(options, tuning);
  const queries = cachedTripListQueries(db, caller, options, tuning);
  let keys: { id: string; cursorAt: string }[];
  let rows: TripRecord[];
  if (queries.kind === 'all') {
    rows = await readTripRecords<TripRecord>(db, queries.all);
    keys = rows;
  } else {
    const found = await findScopedKeys(queries, caller, options, tuning, (byRow) =>
      readTripRecords<TripRecord>(db, byRow ? queries.recentByRowRecords : queries.recentRecords),
    );
    keys = found.keys;
    rows =
      found.recent ??
      (await findTripRecords(
        db,
        keys.slice(0, options.limit).map((key) => key.id),
      ));
  }
  const { nextCursor } = keysetPage(keys, options.limit, (key) => ({ at: key.cursorAt, id: key.id }));
  return { rows: rows.slice(0, options.limit), nextCursor };
}

/**
 * A page in another order than newest first: one query in the chosen sort's key, the caller's scope
 * and the chosen drivers as a condition on the trip's driver. The planner walks the sort's index
 * and keeps the scope's trips, which suits the lists people sort (a whole city's, a month's).
 */
async function findSortedTripRecordPage(
  db: Db,
  caller: ScopeCaller,
  options: TripListOptions,
  sort: { field: TripSort; order: SortOrder },
): Promise<{ rows: TripRecord[]; nextCursor: string | null }> {
  const parts = TRIP_KEYS[sort.field];
  const after = options.cursor ? decodeSortedCursor(options.cursor, sort, parts) : null;
  const drivenBy = and(tripDriverScope(caller), chosenDrivers(options));
  const rows = await db
    .select({ ...tripColumns, sortKey: keyColumn(parts) })
    .from(trips)
    .leftJoin(driver, eq(driver.id, trips.driverId))
    .where(
      and(
        ...listConditions({ ...options, cursor: undefined }),
        drivenBy
          ? sql`${trips.driverId} in (select ${drivers.id} from ${drivers} where ${drivenBy})`
          : undefined,
        after ? afterKey(parts, sort.order, after.k) : undefined,
      ),
    )
    .orderBy(...orderByKey(parts, sort.order))
    .limit(pageLimit(options.limit + 1));
  const { shown, nextCursor } = sortedPage(rows, options.limit, sort);
  return { rows: shown, nextCursor };
}

/** A page of the trips a caller may see, newest first, with the cursor of the next page. */
export async function findTrips(
  db: Db,
  caller: ScopeCaller,
  options: TripListOptions,
  tuning: ListTuning = LIST_TUNING,
) {
  const page = await findTripRecordPage(db, caller, options, tuning);
  return { trips: toTrips(caller, page.rows), nextCursor: page.nextCursor };
}

/**
 * How many trips the list with these filters holds in the caller's scope, counted up to the lists'
 * cap (reading no more rows than that): the list's "Showing 50 of 1,234 trips".
 */
export async function countTrips(db: Db, caller: ScopeCaller, options: TripListOptions): Promise<ListTotal> {
  if (options.driverIds?.length === 0) return { total: 0, totalCapped: false };
  const drivenBy = and(tripDriverScope(caller), chosenDrivers(options));
  const filter = and(
    ...listConditions({ ...options, cursor: undefined }),
    drivenBy ? sql`${trips.driverId} in (select ${drivers.id} from ${drivers} where ${drivenBy})` : undefined,
  );
  return toListTotal(await cappedCountQuery(db, trips, filter));
}
