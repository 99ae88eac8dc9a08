import { and, count, eq, sql, type SQL } from 'drizzle-orm';
import type { State } from '@bmet/shared/constants';
import { anyOf } from '../../db/any-of';
import { pageLimit } from '../../db/page-limit';
import type { DbExecutor } from '../../db/client';
import { queryShapes } from '../../db/query-shapes';
import { rowReader, type BuiltQuery } from '../../db/row-reader';
import { accounts, driverCounts, drivers, trips, tripTitles } from '../../db/schema';
import { type ScopeCaller, franchiseIdScope, tripDriverScope } from '../../lib/scope';
import {
  type ListValues,
  NEWEST_FIRST,
  type TripListOptions,
  conditionsOf,
  everyWord,
  filterConditions,
  listValues,
  searchWords,
  tripPlaces,
} from './list-filters';
import { cursorAt, readTripRecords, selectTrips, type TripRecord } from './repository';

// How a scoped trip list finds its page: by the window of newest trips, driver by driver, or trip
// by trip, chosen from the size of the caller's scope (kept a minute per process).

/**
 * How a scoped list looks for its page (see buildTripListQueries). The tests give small values to
 * reach every path on a small database.
 */
export type ListTuning = {
  /** How many of the newest trips matching the filters are looked through first. */
  recentWindow: number;
  /** Up to this many drivers, a sparse scope is read driver by driver. */
  fewDrivers: number;
  /**
   * Up to this many drivers, a scope is read driver by driver at once: a page of each of them
   * (this many times 51 trips at most) is less to read than the window of newest trips.
   */
  directDrivers: number;
  /**
   * From this share of all drivers (kept counts), a dealer's or franchise's window of newest trips
   * is looked through trip by trip (`recentByRow`). Unset: from the share at which the window holds
   * about two pages of the scope's trips.
   */
  rowByRowShare?: number;
};

export const LIST_TUNING: ListTuning = { recentWindow: 2000, fewDrivers: 200, directDrivers: 30 };

/** The share of all drivers from which a scope's window is looked through trip by trip. */
function rowByRowShare(tuning: ListTuning, size: number) {
  return tuning.rowByRowShare ?? (2 * size) / tuning.recentWindow;
}

/**
 * Drivers chosen by franchise or state (the dashboard's links) make a list sparse by themselves:
 * 270 drivers of a state with a handful of trips left the planner walking a year of trips (3.5 s
 * on PostgreSQL, 6 s embedded). Up to this many of them, such a list is read driver by driver,
 * a few index probes each; a state or franchise with more drivers has trips enough to fill its
 * page among the newest.
 */
const CHOSEN_FEW_DRIVERS = 2000;

export function tuningFor(options: TripListOptions, tuning: ListTuning): ListTuning {
  if (!options.franchiseId && !options.state) return tuning;
  return { ...tuning, fewDrivers: Math.max(tuning.fewDrivers, CHOSEN_FEW_DRIVERS) };
}

/**
 * The queries of a list page, newest first, one row more than asked to tell whether another page
 * follows. Exposed apart from findTrips so that the benchmark can EXPLAIN exactly what the API runs.
 *
 * An admin's list without driver ids is one query (`all`): PostgreSQL walks trips_created_idx (or
 * the status index) and stops when the page is full; a search reads each of its branches by
 * itself (`searchedPage`, decision 040).
 *
 * A scoped list (a dealer's, a franchise's, or the trips of chosen drivers) cannot leave that
 * choice to the planner alone: it cannot know how many trips a scope's drivers have, and a new
 * dealer whose three drivers have a few old trips would make it walk a million trips to fill one
 * page. So, in turn, until one answers:
 * - `recent` looks for the page among the newest trips that match the filters (a window of
 *   `recentWindow`): a scope holding more than about 1 in 40 of them fills its page there. Each
 *   trip's driver is looked for among the scope's drivers, which the planner may join whole;
 *   `recentByRow` instead checks the trips one by one, newest first, and stops at the page's
 *   last: for a scope holding a large share of the drivers (a dealer with a third of the fleet)
 *   that reads about three trips a row, where PostgreSQL 18 (the embedded database) hashed all of
 *   the dealer's 32,398 drivers (14-25 ms against 8-9). A small share would check the whole window
 *   trip by trip, so the scope's share of the drivers (`scopeShare`, from the counts the database
 *   keeps) chooses between the two;
 * - `windowSize`: when that page is short but the window held every matching trip, it is complete;
 * - `scopeShare` counts a dealer's or franchise's drivers exactly, from the kept counts (with
 *   chosen drivers, `scopeSize` counts them up to `fewDrivers` + 1). A sparse scope of few drivers
 *   is read by `perDriver`, which takes the newest matching trips of each driver from
 *   trips_driver_created_idx and keeps the newest of them: its cost follows the number of drivers,
 *   not the number of trips. A sparse scope of many drivers is left to the planner (`scoped`),
 *   as it then usually holds the filter that made it sparse (a status, a search).
 * The scoped queries answer ids and cursor keys; the trips themselves are then read by id.
 */
export function buildTripListQueries(
  db: DbExecutor,
  caller: ScopeCaller,
  options: TripListOptions,
  tuning: ListTuning = LIST_TUNING,
) {
  return tripListQueries(db, caller.role, tripValues(caller, options), options.limit + 1, tuning);
}

/** What a trip list's queries take as values: its filters, cursor, caller and chosen drivers. */
type TripValues = ListValues & {
  callerId?: string;
  driverIds?: string[];
  franchiseId?: string;
  state?: State;
};

function tripValues(caller: ScopeCaller, options: TripListOptions): TripValues {
  const values: TripValues = listValues(options);
  if (caller.role !== 'admin') values.callerId = caller.id;
  if (options.driverIds) values.driverIds = options.driverIds;
  if (options.franchiseId) values.franchiseId = options.franchiseId;
  if (options.state) values.state = options.state;
  return values;
}

/**
 * buildTripListQueries' queries from their values only (placeholders when queryShapes builds a
 * shape), and `recentRecords`: the `recent` page read as whole trip records.
 */
function tripListQueries(
  db: DbExecutor,
  role: ScopeCaller['role'],
  values: TripValues,
  size: number,
  tuning: ListTuning,
) {
  const conditions = conditionsOf(values);
  const caller = { id: values.callerId!, role };
  const drivenBy = and(tripDriverScope(caller), chosenDrivers(values));
  if (!drivenBy) {
    // The page's trips are found first and their drivers joined after: joined before the sort, a
    // search matching 571 trips of a million ("bhavna dsouza") looked up 571 drivers for 51 rows
    // (3 of its 8 ms in PostgreSQL).
    const words = searchWords(values);
    const page =
      words.length > 0 && !looksLikeAKey(values)
        ? searchedPage(db, values, words, size)
        : db
            .select({ id: trips.id })
            .from(trips)
            .where(and(...conditions))
            .orderBy(...NEWEST_FIRST)
            .limit(pageLimit(size))
            .as('page');
    return {
      kind: 'all' as const,
      all: selectTrips(db)
        .innerJoin(page, sql`${trips.id} = "page"."id"`)
        .orderBy(...NEWEST_FIRST),
    };
  }
  const scopeDriverIds = sql`select ${drivers.id} from ${drivers} where ${drivenBy}`;

  const window = db
    .select({ id: trips.id, createdAt: trips.createdAt, driverId: trips.driverId, cursorAt: cursorAt() })
    .from(trips)
    .where(and(...conditions))
    .orderBy(...NEWEST_FIRST)
    .limit(tuning.recentWindow);
  const windowTrips = window.as('recent');
  /** The page among the window's trips whose driver is in the scope, as `inScope` tells. */
  const windowPage = (inScope: SQL) =>
    db
      .select({ id: windowTrips.id, cursorAt: windowTrips.cursorAt })
      .from(windowTrips)
      .where(inScope)
      .orderBy(sql`${windowTrips.createdAt} desc nulls last`, sql`${windowTrips.id} desc nulls last`)
      .limit(size);
  const recent = windowPage(sql`${windowTrips.driverId} in (${scopeDriverIds})`);
  // The same page, each trip's driver checked by itself: a scalar subquery is never made a join.
  const recentByRow = windowPage(
    sql`coalesce((select true from ${drivers} where ${drivers.id} = ${windowTrips.driverId} and ${drivenBy}), false)`,
  );
  const windowSize = db.select({ size: count() }).from(window.as('window'));
  // From the kept counts, a dealer's or franchise's own scope (with chosen drivers, scopeSize
  // counts them): its drivers, deleted ones included as their trips are, and its share of the
  // drivers still driving, whose trips are the newest.
  const callerScope = franchiseIdScope(caller, driverCounts.franchiseId) ?? sql`true`;
  const kept = (where: SQL) =>
    sql<number>`coalesce(sum(${driverCounts.drivers}) filter (where ${where}), 0)::int`;
  const scopeShare = db
    .select({
      size: kept(callerScope),
      active: kept(sql`not ${driverCounts.deleted} and ${callerScope}`),
      total: kept(sql`not ${driverCounts.deleted}`),
    })
    .from(driverCounts);

  // The scope's drivers as rows, for counting them and for reading each one's newest trips.
  const scopeRows = scopeDriverRows(db, caller, values).as('scope');
  const scopeSize = db.select({ size: count() }).from(
    db
      .select({ id: scopeRows.id })
      .from(scopeRows)
      .limit(tuning.fewDrivers + 1)
      .as('few'),
  );

  const newestOfDriver = db
    .select({ id: trips.id, createdAt: trips.createdAt, cursorAt: cursorAt() })
    .from(trips)
    .where(and(sql`${trips.driverId} = ${scopeRows.id}`, ...conditions))
    .orderBy(...NEWEST_FIRST)
    .limit(size)
    .as('newest');
  const perDriver = db
    .select({ id: newestOfDriver.id, cursorAt: newestOfDriver.cursorAt })
    .from(scopeRows)
    .crossJoinLateral(newestOfDriver)
    .orderBy(sql`${newestOfDriver.createdAt} desc nulls last`, sql`${newestOfDriver.id} desc nulls last`)
    .limit(size);

  const scoped = db
    .select({ id: trips.id, cursorAt: cursorAt() })
    .from(trips)
    .where(and(sql`${trips.driverId} in (${scopeDriverIds})`, ...conditions))
    .orderBy(...NEWEST_FIRST)
    .limit(size);

  const recordsOf = (keys: typeof recent) => {
    const found = keys.as('recent_keys');
    return selectTrips(db)
      .innerJoin(found, eq(trips.id, found.id))
      .orderBy(...NEWEST_FIRST);
  };

  return {
    kind: 'scoped' as const,
    recent,
    recentRecords: recordsOf(recent),
    recentByRow,
    recentByRowRecords: recordsOf(recentByRow),
    windowSize,
    scopeSize,
    scopeShare,
    perDriver,
    scoped,
  };
}

/**
 * Up to this many titles matching a name search, the page is read title by title; with more, by
 * walking the newest trips. Each title costs PostgreSQL about 0.04 ms (an index descent and up to
 * a page of entries): "bhavna dsouza" (1 title) 0.97 ms in all, "sharma" (50 titles) 3.05 ms
 * against 1.34 ms for the walk, which reads about 2,000 of trips_created_idx's entries for a name
 * on 2.5% of the trips.
 */
export const MANY_TITLES = 16;

/**
 * A search shaped like a phone number, a registration or an id: its own index answers it in the
 * one condition, among names and places that cannot hold it, and reading the titles first only
 * cost PostgreSQL more to plan (a short id 1,143 requests a second against 503).
 */
const looksLikeAKey = (values: ListValues) =>
  'phone' in values || 'registration' in values || 'tripId' in values || 'shortId' in values;

/**
 * The ids of an admin's page of a name or place search, newest first (decision 040): the name and
 * the place as parts of their own, each ordered and limited to a page, so that each reads only its
 * page from its own index, instead of one bitmap of every trip either matched (571 trips read from
 * the table for "bhavna dsouza", to keep 51).
 *
 * The name's part finds the search's words among the titles (trip_titles) first. When few match,
 * it reads the newest trips of each through trips_title_created_idx, from the index alone; when
 * many do, it walks the newest trips through trips_created_idx, which holds each trip's title.
 * The count of matched titles decides which of the two runs: PostgreSQL never runs the other. The
 * place's part is left to the planner: a walk for a common place, the trigram index for a rare one.
 */
function searchedPage(db: DbExecutor, values: ListValues, words: unknown[], size: number) {
  const filters = filterConditions(values);
  const newest = (where: SQL | undefined) =>
    db
      .select({ id: trips.id, createdAt: trips.createdAt })
      .from(trips)
      .where(and(where, ...filters))
      .orderBy(...NEWEST_FIRST)
      .limit(pageLimit(size));
  const many = sql.raw(String(MANY_TITLES));
  const titles = () =>
    db
      .select({ title: tripTitles.title })
      .from(tripTitles)
      .where(everyWord(sql`${tripTitles.search}`, words));
  const matched = titles()
    // Written into the statement, as pageLimit writes a page's (Drizzle writes an SQL limit as it is).
    .limit(sql.raw(String(MANY_TITLES + 1)) as unknown as number);
  const parts = [
    sql`select t.id, t.created_at from matched
      cross join lateral ${newest(sql`${trips.title} = matched.title`)} t
      where (select count(*) from matched) <= ${many}`,
    // The walk is joined to the count, not filtered by it: as a condition of its own, PostgreSQL
    // started parallel workers for it even when the count kept it from running (50 ms at ten
    // million trips, where its estimate crosses the parallel threshold).
    // The walk tests each trip's title against the matched titles (a hashed set; `is true` keeps
    // PostgreSQL from making it a join), not against the words: planning `lower(title) like` reads
    // the title's statistics (1,000 values, migration 0005), 0.2-0.4 ms of every name search's
    // planning, the walk run or not.
    sql`select w.id, w.created_at from (select count(*) as titles from matched) c
      cross join lateral ${newest(sql`(${trips.title} in (${titles()})) is true`)} w
      where c.titles > ${many}`,
    sql`${newest(everyWord(tripPlaces, words))}`,
  ];
  return db
    .select({ id: sql<string>`found.id`.as('id') })
    .from(
      sql`(with matched as materialized ${matched}
        ${sql.join(parts, sql` union `)}) found`,
    )
    .orderBy(sql`found.created_at desc nulls last`, sql`found.id desc nulls last`)
    .limit(pageLimit(size))
    .as('page');
}

/** The drivers a list is narrowed to (by id, franchise or state), if any. */
export function chosenDrivers(
  values: Pick<TripValues, 'driverIds' | 'franchiseId' | 'state'>,
): SQL | undefined {
  return and(
    values.driverIds ? anyOf(drivers.id, values.driverIds, 'uuid') : undefined,
    values.franchiseId ? eq(drivers.franchiseId, values.franchiseId) : undefined,
    values.state ? eq(drivers.state, values.state) : undefined,
  );
}

/**
 * The drivers of a trip scope (and of the chosen ones, if any) as rows. A city dealer's are read
 * franchise by franchise through drivers_franchise_name_idx: the planner cannot know that a new
 * franchise has three drivers while the others have thousands, and would otherwise scan every
 * driver to find them (20 ms at 100,000 drivers, for a dealer that has just started).
 */
function scopeDriverRows(db: DbExecutor, caller: ScopeCaller, values: TripValues) {
  const chosen = chosenDrivers(values);
  if (caller.role === 'city_dealer') {
    const ofFranchise = db
      .select({ id: drivers.id })
      .from(drivers)
      .where(and(sql`${drivers.franchiseId} = ${accounts.id}`, chosen))
      .orderBy(drivers.name, drivers.id)
      .as('of_franchise');
    return db
      .select({ id: ofFranchise.id })
      .from(accounts)
      .crossJoinLateral(ofFranchise)
      .where(and(eq(accounts.dealerId, caller.id), eq(accounts.role, 'franchise')));
  }
  return db
    .select({ id: drivers.id })
    .from(drivers)
    .where(and(tripDriverScope(caller), chosen));
}

export const tripListShapes = queryShapes();
const readKeys = rowReader({ id: trips.id, cursorAt: cursorAt() });
const readSize = rowReader({ size: count() });
const readShare = rowReader({
  size: sql<number>``.mapWith(Number),
  active: sql<number>``.mapWith(Number),
  total: sql<number>``.mapWith(Number),
});

/** A query kept by tripListShapes, run only when awaited, as a Drizzle query is. */
function whenAwaited<Row>(
  read: <R>(db: DbExecutor, query: BuiltQuery) => Promise<R[]>,
  db: DbExecutor,
  query: BuiltQuery,
): PromiseLike<Row[]> {
  return { then: (done, fail) => read<Row>(db, query).then(done, fail) };
}

/**
 * buildTripListQueries' queries as findTripRecordPage runs them: built once for each shape (the
 * caller's role, which filters are given, the page size and the tuning; db/query-shapes.ts) and
 * then only given this request's values.
 */
export function cachedTripListQueries(
  db: DbExecutor,
  caller: ScopeCaller,
  options: TripListOptions,
  tuning: ListTuning,
) {
  const values = tripValues(caller, options);
  const size = options.limit + 1;
  const shapeName = [
    caller.role,
    Object.keys(values).join(','),
    size,
    tuning.recentWindow,
    tuning.fewDrivers,
  ].join('|');
  const queries = tripListShapes(shapeName, values, (given) =>
    tripListQueries(db, caller.role, given, size, tuning),
  );
  if (queries.kind === 'all') return queries;
  return {
    kind: queries.kind,
    recent: whenAwaited<{ id: string; cursorAt: string }>(readKeys, db, queries.recent),
    recentRecords: queries.recentRecords,
    recentByRow: whenAwaited<{ id: string; cursorAt: string }>(readKeys, db, queries.recentByRow),
    recentByRowRecords: queries.recentByRowRecords,
    windowSize: whenAwaited<{ size: number }>(readSize, db, queries.windowSize),
    scopeSize: whenAwaited<{ size: number }>(readSize, db, queries.scopeSize),
    scopeShare: whenAwaited<{ size: number; active: number; total: number }>(
      readShare,
      db,
      queries.scopeShare,
    ),
    perDriver: whenAwaited<{ id: string; cursorAt: string }>(readKeys, db, queries.perDriver),
    scoped: whenAwaited<{ id: string; cursorAt: string }>(readKeys, db, queries.scoped),
  };
}

type KeyRows = PromiseLike<{ id: string; cursorAt: string }[]>;
type SizeRows = PromiseLike<{ size: number }[]>;
/** The scoped path's queries, run when awaited: Drizzle's own, or those kept by tripListShapes. */
export type ScopedQueries = {
  recent: KeyRows;
  recentByRow: KeyRows;
  windowSize: SizeRows;
  scopeSize: SizeRows;
  scopeShare: PromiseLike<{ size: number; active: number; total: number }[]>;
  perDriver: KeyRows;
  scoped: KeyRows;
};

type QueryName = keyof ScopedQueries;

/**
 * How many drivers each caller's scope holds and its share of all drivers, kept for a minute: they
 * decide only which path reads a page, never what the page holds, so figures a minute old cost at
 * most a slower path.
 */
const scopeSizes = new Map<string, { size: number; share: number; until: number }>();
const SCOPE_SIZE_TTL_MS = 60_000;
const SCOPE_SIZES_KEPT = 10_000;

function scopeKey(caller: ScopeCaller, options: TripListOptions) {
  return chosenDrivers(options) ? null : `${caller.role}:${caller.id}`;
}

/**
 * The ids and cursor keys of a scoped page, by the first of the paths that can answer it, with
 * the names of the queries that ran (the benchmark EXPLAINs those). A scope known to be small
 * (at most `directDrivers`: a dealer that has just started, a few chosen drivers) is read driver by
 * driver at once, which costs less than looking through the newest trips first.
 */
export async function findScopedKeys<Key extends { id: string; cursorAt: string }>(
  queries: ScopedQueries,
  caller: ScopeCaller,
  options: TripListOptions,
  tuning: ListTuning = LIST_TUNING,
  /**
   * Reads the `recent` (or `recentByRow`) path's page with more than its keys (whole trip records,
   * in the same statement): when that path answers, as it does for most scoped pages, the page
   * then needs no second query.
   */
  readRecent?: (byRow: boolean) => Promise<Key[]>,
): Promise<{ keys: { id: string; cursorAt: string }[]; ran: QueryName[]; recent?: Key[] }> {
  const ran: QueryName[] = [];
  const key = scopeKey(caller, options);
  const cached = key ? scopeSizes.get(key) : undefined;
  const fresh = cached !== undefined && cached.until > Date.now();
  // Exact when known; with chosen drivers, at most as many as were chosen.
  let exact = fresh;
  let size = fresh ? cached.size : options.driverIds?.length;
  let share = fresh ? cached.share : undefined;
  const countScope = async () => {
    let counted: number;
    if (key) {
      // The caller's own scope: its drivers and its share of all, from the counts kept.
      ran.push('scopeShare');
      const [row] = await queries.scopeShare;
      counted = row?.size ?? 0;
      share = row && row.total > 0 ? row.active / row.total : 0;
      if (scopeSizes.size >= SCOPE_SIZES_KEPT) scopeSizes.clear();
      scopeSizes.set(key, { size: counted, share, until: Date.now() + SCOPE_SIZE_TTL_MS });
    } else {
      ran.push('scopeSize');
      const [row] = await queries.scopeSize;
      counted = row?.size ?? 0;
    }
    exact = true;
    return counted;
  };
  if (size === undefined) size = await countScope();
  if (size <= tuning.directDrivers) {
    ran.push('perDriver');
    return { keys: await queries.perDriver, ran };
  }

  const byRow = share !== undefined && share >= rowByRowShare(tuning, options.limit + 1);
  ran.push(byRow ? 'recentByRow' : 'recent');
  const recent = readRecent ? await readRecent(byRow) : await (byRow ? queries.recentByRow : queries.recent);
  const answered = { keys: recent, ran, recent: readRecent && (recent as Key[]) };
  if (recent.length > options.limit) return answered;
  ran.push('windowSize');
  const [window] = await queries.windowSize;
  // The window held every trip there is: the few found among them are the whole answer.
  if ((window?.size ?? 0) < tuning.recentWindow) return answered;
  const few = (exact || size <= tuning.fewDrivers ? size : await countScope()) <= tuning.fewDrivers;
  ran.push(few ? 'perDriver' : 'scoped');
  return { keys: await (few ? queries.perDriver : queries.scoped), ran };
}

/** The trips of these ids, in this order. */
export async function findTripRecords(db: DbExecutor, ids: string[]): Promise<TripRecord[]> {
  if (ids.length === 0) return [];
  const { query } = tripListShapes('records', { ids }, (values) => ({
    query: selectTrips(db).where(anyOf(trips.id, values.ids, 'uuid')),
  }));
  const rows = await readTripRecords<TripRecord>(db, query);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
