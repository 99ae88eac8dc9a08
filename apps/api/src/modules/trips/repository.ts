import { and, count, desc, eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { CAR_TYPES, type CarType, type State, type TripStatus } from '@bmet/shared/constants';
import { carTypeLabel } from '@bmet/shared/labels';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import { DEFAULT_ORDERS, resolveSort, TRIP_SORTS, type SortOrder } from '@bmet/shared/schemas/sort';
import type { Trip, TripFeedback } from '@bmet/shared/schemas/trip';
import { anyOf } from '../../db/any-of';
import { pageLimit } from '../../db/page-limit';
import type { Db, DbExecutor } from '../../db/client';
import { queryShapes } from '../../db/query-shapes';
import { rowReader, type BuiltQuery } from '../../db/row-reader';
import { accounts, driverAverageRating, driverCounts, drivers, tripFeedback, trips } from '../../db/schema';
import { recordAudit, type Actor } from '../../infra/audit';
import {
  cursorTimestampSchema,
  decodeCursor,
  keysetPage,
  escapeLikePattern,
  newestFirst,
} from '../../lib/paging';
import { indianHour } from '../../lib/indian-time';
import { nextDate, startOfIndianDay } from '../../lib/ist-days';
import {
  afterKey,
  decodeSortedCursor,
  keyColumn,
  orderByKey,
  sortedPage,
  type KeyPart,
} from '../../lib/sort';
import { refuseNul } from '../../lib/text';
import { scopeDrivers, scopeFranchises, tripScope, type TripScopeCaller } from './scope';

/** The caller of a change: whose scope applies, and who the audit log names. */
export type Caller = TripScopeCaller & { requestId: string };

const driver = alias(drivers, 'driver');
const author = alias(accounts, 'author');

const isCarType = (value: string | null): value is CarType => CAR_TYPES.includes(value as CarType);

/** created_at to the microsecond, in UTC, for a cursor. */
const cursorAt = () =>
  sql<string>`to_char(${trips.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as(
    'cursor_at',
  );

const tripColumns = {
  id: trips.id,
  title: trips.title,
  body: trips.body,
  phoneNumber: trips.phoneNumber,
  carType: trips.carType,
  pickupLocation: trips.pickupLocation,
  pickupLat: trips.pickupLat,
  pickupLong: trips.pickupLong,
  destinationLocation: trips.destinationLocation,
  destinationLat: trips.destinationLat,
  destinationLong: trips.destinationLong,
  distanceKm: trips.distanceKm,
  price: trips.price,
  status: trips.status,
  paid: trips.paid,
  cancelReason: trips.cancelReason,
  createdAt: trips.createdAt,
  cursorAt: cursorAt(),
  driverId: trips.driverId,
  driverName: driver.name,
  driverPhoneNumber: driver.phoneNumber,
  driverVehicleNumber: driver.vehicleNumber,
  driverCarType: driver.carType,
  /** The average rating (one decimal) from the sums the database keeps on the driver (migration 0017). */
  driverRating: driverAverageRating(driver),
};

function selectTrips(db: DbExecutor) {
  return db.select(tripColumns).from(trips).leftJoin(driver, eq(driver.id, trips.driverId)).$dynamic();
}
/** A trip as the list reads it, before it takes the contract's shape (see toTrip). */
export type TripRecord = Awaited<ReturnType<typeof selectTrips>>[number];
const readTripRecords = rowReader(tripColumns);

/**
 * A stored trip with the spec's field names. The customer's phone number is personal data: only
 * admins receive it.
 */
function toTrip(row: TripRecord, caller: TripScopeCaller): Trip {
  const carType = isCarType(row.carType) ? row.carType : null;
  const vehicleType = carType ?? (isCarType(row.driverCarType) ? row.driverCarType : null);
  const assigned = row.driverId !== null && row.driverName !== null;
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    phoneNumber: caller.role === 'admin' ? row.phoneNumber : null,
    'pick-up': { location: row.pickupLocation, lat: row.pickupLat, long: row.pickupLong },
    destination: { location: row.destinationLocation, lat: row.destinationLat, long: row.destinationLong },
    status: row.status,
    paid: row.paid,
    completed: row.status === 'completed',
    driver: assigned,
    driverId: row.driverId,
    driver_info: assigned
      ? {
          name: row.driverName!,
          phoneNumber: row.driverPhoneNumber,
          rating: row.driverRating === null ? null : Number(row.driverRating),
          Car: vehicleType ? carTypeLabel(vehicleType) : null,
          vehicleNumber: row.driverVehicleNumber,
        }
      : null,
    carType,
    distance: row.distanceKm,
    price: row.price,
    cancelReason: row.cancelReason,
    createdAt: row.createdAt.toISOString(),
  };
}

function toTrips(caller: TripScopeCaller, rows: TripRecord[]): Trip[] {
  return rows.map((row) => toTrip(row, caller));
}

// ---------------------------------------------------------------------------------------------
// List: newest first, keyset on (created_at, id)

/**
 * Newest first, spelled as the trips indexes are built: DESC NULLS LAST. A bare DESC means NULLS
 * FIRST, which those indexes cannot serve (created_at is never null, but the planner does not use
 * that), and the list would sort the whole table for every page.
 */
const NEWEST_FIRST = newestFirst(trips.createdAt, trips.id);

const listCursorSchema = z.object({ at: cursorTimestampSchema, id: z.uuid() }).strict();

export type TripListOptions = {
  q?: string;
  status?: TripStatus;
  paid?: boolean;
  carType?: CarType;
  /** Inclusive bounds: an ISO date-time, or a bare date read as a whole day in IST. */
  from?: string;
  to?: string;
  /** Narrows the caller's scope to these drivers' trips; never widens it. */
  driverIds?: string[];
  /** Narrows the caller's scope to the trips of this franchise's drivers; never widens it. */
  franchiseId?: string;
  /** Narrows the caller's scope to the trips of drivers of this state. */
  state?: State;
  /** The trips created in this hour of the day in India (0 to 23). */
  hour?: number;
  limit: number;
  cursor?: string;
  sort?: TripSort;
  order?: SortOrder;
};

type TripSort = (typeof TRIP_SORTS)[number];

/**
 * The key of each sort other than the list's own (newest first, read by the paths below): by time
 * either way (trips_created_idx), by price with unknown prices as the lowest (trips_price_idx), by
 * status in the order of the enum, newest first within a status (trips_status_created_idx, read
 * backwards for `desc`).
 */
const TRIP_KEYS: Record<TripSort, KeyPart[]> = {
  createdAt: [
    { expression: trips.createdAt, type: 'timestamptz', indexDesc: true },
    { expression: trips.id, type: 'uuid', indexDesc: true },
  ],
  price: [
    { expression: sql`coalesce(${trips.price}, -1)`, type: 'float8' },
    { expression: trips.id, type: 'uuid' },
  ],
  status: [
    { expression: trips.status, type: 'trip_status' },
    { expression: trips.createdAt, type: 'timestamptz', indexDesc: true, reversed: true },
    { expression: trips.id, type: 'uuid', indexDesc: true, reversed: true },
  ],
};

/** The list's own order, which the paths of buildTripListQueries read. */
const isNewestFirst = (sort: { field: TripSort; order: SortOrder }) =>
  sort.field === 'createdAt' && sort.order === 'desc';

export const isBareDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/**
 * The trip's created_at (or another moment) within [from, to], both inclusive; a bare `to`
 * includes its whole day.
 */
export function dateConditions(
  from: string | undefined,
  to: string | undefined,
  column: AnyColumn = trips.createdAt,
): SQL[] {
  const conditions: SQL[] = [];
  if (from) {
    const start = isBareDate(from) ? startOfIndianDay(from) : from;
    conditions.push(sql`${column} >= ${start}::timestamptz`);
  }
  if (to) {
    conditions.push(
      isBareDate(to)
        ? sql`${column} < ${startOfIndianDay(nextDate(to))}::timestamptz`
        : sql`${column} <= ${to}::timestamptz`,
    );
  }
  return conditions;
}

/** The filters of a list and the keyset after its cursor: every condition but the scope. */
/** The values of a list's filters and cursor, as the statement takes them; only those given. */
type ListValues = {
  pattern?: string;
  status?: string;
  paid?: boolean;
  carType?: string;
  hour?: number;
  from?: string;
  /** The end of a bare `to` date: the start of the next Indian day, excluded. */
  before?: string;
  /** A `to` moment, included. */
  until?: string;
  afterAt?: string;
  afterId?: string;
};

/** A list's filters and cursor, checked and read into the values of its conditions. */
function listValues(options: TripListOptions): ListValues {
  refuseNul('q', options.q);
  const after = options.cursor ? decodeCursor(options.cursor, listCursorSchema) : null;
  const values: ListValues = {};
  if (options.q) values.pattern = escapeLikePattern(options.q);
  if (options.status) values.status = options.status;
  if (options.paid !== undefined) values.paid = options.paid;
  if (options.carType) values.carType = options.carType;
  if (options.hour !== undefined) values.hour = options.hour;
  if (options.from) values.from = isBareDate(options.from) ? startOfIndianDay(options.from) : options.from;
  if (options.to) {
    if (isBareDate(options.to)) values.before = startOfIndianDay(nextDate(options.to));
    else values.until = options.to;
  }
  if (after) {
    values.afterAt = after.at;
    values.afterId = after.id;
  }
  return values;
}

/**
 * The conditions of a list's values (real ones, or placeholders when queryShapes builds a shape:
 * which conditions apply follows from which values are given).
 */
function conditionsOf(values: ListValues): SQL[] {
  const conditions: (SQL | undefined)[] = [
    // The same expression as trips_title_search_idx, so that the trigram index can answer it.
    'pattern' in values ? sql`lower(${trips.title}) like '%' || lower(${values.pattern}) || '%'` : undefined,
    'status' in values ? sql`${trips.status} = ${values.status}` : undefined,
    'paid' in values ? sql`${trips.paid} = ${values.paid}` : undefined,
    'carType' in values ? sql`${trips.carType} = ${values.carType}` : undefined,
    'hour' in values ? sql`${indianHour(trips.createdAt)} = ${values.hour}` : undefined,
    'from' in values ? sql`${trips.createdAt} >= ${values.from}::timestamptz` : undefined,
    'before' in values ? sql`${trips.createdAt} < ${values.before}::timestamptz` : undefined,
    'until' in values ? sql`${trips.createdAt} <= ${values.until}::timestamptz` : undefined,
    'afterAt' in values
      ? sql`(${trips.createdAt}, ${trips.id}) < (${values.afterAt}::timestamptz, ${values.afterId}::uuid)`
      : undefined,
  ];
  return conditions.filter((condition): condition is SQL => condition !== undefined);
}

/** The filters of a list and the keyset after its cursor: every condition but the scope. */
function listConditions(options: TripListOptions): SQL[] {
  return conditionsOf(listValues(options));
}

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

function tuningFor(options: TripListOptions, tuning: ListTuning): ListTuning {
  if (!options.franchiseId && !options.state) return tuning;
  return { ...tuning, fewDrivers: Math.max(tuning.fewDrivers, CHOSEN_FEW_DRIVERS) };
}

/**
 * The queries of a list page, newest first, one row more than asked to tell whether another page
 * follows. Exposed apart from findTrips so that the benchmark can EXPLAIN exactly what the API runs.
 *
 * An admin's list without driver ids is one query (`all`): PostgreSQL walks trips_created_idx (or
 * the status or title index) and stops when the page is full.
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
  caller: TripScopeCaller,
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

function tripValues(caller: TripScopeCaller, options: TripListOptions): TripValues {
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
  role: TripScopeCaller['role'],
  values: TripValues,
  size: number,
  tuning: ListTuning,
) {
  const conditions = conditionsOf(values);
  const caller = { id: values.callerId!, role };
  const drivenBy = and(scopeDrivers(caller) ?? undefined, chosenDrivers(values));
  if (!drivenBy) {
    return {
      kind: 'all' as const,
      all: selectTrips(db)
        .where(and(...conditions))
        .orderBy(...NEWEST_FIRST)
        .limit(pageLimit(size)),
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
  const callerScope = scopeFranchises(caller, driverCounts.franchiseId) ?? sql`true`;
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

/** The drivers a list is narrowed to (by id, franchise or state), if any. */
function chosenDrivers(values: Pick<TripValues, 'driverIds' | 'franchiseId' | 'state'>): SQL | undefined {
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
function scopeDriverRows(db: DbExecutor, caller: TripScopeCaller, values: TripValues) {
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
    .where(and(scopeDrivers(caller) ?? undefined, chosen));
}

const tripListShapes = queryShapes();
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
function cachedTripListQueries(
  db: DbExecutor,
  caller: TripScopeCaller,
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

/** The trips of these ids, in this order. */
async function findTripRecords(db: DbExecutor, ids: string[]): Promise<TripRecord[]> {
  if (ids.length === 0) return [];
  const { query } = tripListShapes('records', { ids }, (values) => ({
    query: selectTrips(db).where(anyOf(trips.id, values.ids, 'uuid')),
  }));
  const rows = await readTripRecords<TripRecord>(db, query);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
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

function scopeKey(caller: TripScopeCaller, options: TripListOptions) {
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
  caller: TripScopeCaller,
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

/**
 * A page of the trips a caller may see as the list reads them, newest first, with the cursor of
 * the next page: what findTrips answers, before the trips take the contract's shape. A CSV export
 * writes these records as they are (and asks for the next page before it does).
 */
export async function findTripRecordPage(
  db: Db,
  caller: TripScopeCaller,
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
  caller: TripScopeCaller,
  options: TripListOptions,
  sort: { field: TripSort; order: SortOrder },
): Promise<{ rows: TripRecord[]; nextCursor: string | null }> {
  const parts = TRIP_KEYS[sort.field];
  const after = options.cursor ? decodeSortedCursor(options.cursor, sort, parts) : null;
  const drivenBy = and(scopeDrivers(caller) ?? undefined, chosenDrivers(options));
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
  caller: TripScopeCaller,
  options: TripListOptions,
  tuning: ListTuning = LIST_TUNING,
) {
  const page = await findTripRecordPage(db, caller, options, tuning);
  return { trips: toTrips(caller, page.rows), nextCursor: page.nextCursor };
}

// ---------------------------------------------------------------------------------------------
// One trip and its feedback

/** At most this many feedback entries come with a trip, newest first. */
export const TRIP_FEEDBACK_LIMIT = 100;

/** A trip in the caller's scope, or null. */
export async function findTrip(db: DbExecutor, caller: TripScopeCaller, id: string): Promise<Trip | null> {
  const [row] = await selectTrips(db)
    .where(and(eq(trips.id, id), tripScope(caller)))
    .limit(1);
  if (!row) return null;
  const [trip] = toTrips(caller, [row]);
  return trip!;
}

/** Like findTrip, but a trip outside the caller's scope is a 404, as if it did not exist. */
export async function getTrip(db: DbExecutor, caller: TripScopeCaller, id: string): Promise<Trip> {
  const trip = await findTrip(db, caller, id);
  if (!trip) throw new AppError('NOT_FOUND', m.notFound());
  return trip;
}

const feedbackColumns = {
  id: tripFeedback.id,
  feedback: tripFeedback.feedback,
  rating: tripFeedback.rating,
  authorId: tripFeedback.authorId,
  authorName: sql<string>`coalesce(${author.displayName}, ${author.email})`,
  createdAt: tripFeedback.createdAt,
};

function toFeedback(row: {
  id: string;
  feedback: string;
  rating: number;
  authorId: string;
  authorName: string;
  createdAt: Date;
}): TripFeedback {
  return {
    id: row.id,
    feedback: row.feedback,
    rating: row.rating,
    author: { id: row.authorId, name: row.authorName },
    createdAt: row.createdAt.toISOString(),
  };
}

/** The feedback saved on a trip, newest first. */
export async function findTripFeedback(db: DbExecutor, tripId: string): Promise<TripFeedback[]> {
  const rows = await db
    .select(feedbackColumns)
    .from(tripFeedback)
    .innerJoin(author, eq(author.id, tripFeedback.authorId))
    .where(eq(tripFeedback.tripId, tripId))
    .orderBy(desc(tripFeedback.createdAt), desc(tripFeedback.id))
    .limit(TRIP_FEEDBACK_LIMIT);
  return rows.map(toFeedback);
}

/**
 * Saves feedback and a star rating on a trip of the caller's scope, with its audit row in the
 * same transaction; null when the trip is not in the caller's scope.
 */
export async function createTripFeedback(
  db: Db,
  caller: Caller,
  tripId: string,
  input: { feedback: string; rating: number },
): Promise<TripFeedback | null> {
  return db.transaction(async (tx) => {
    const [trip] = await tx
      .select({ id: trips.id })
      .from(trips)
      .where(and(eq(trips.id, tripId), tripScope(caller)));
    if (!trip) return null;
    const [saved] = await tx
      .insert(tripFeedback)
      .values({ tripId, authorId: caller.id, feedback: input.feedback, rating: input.rating })
      .returning();
    const actor: Actor = { id: caller.id, requestId: caller.requestId };
    await recordAudit(tx, actor, {
      action: 'create',
      resource: 'trip-feedback',
      resourceId: saved!.id,
      before: null,
      after: {
        tripId,
        feedback: saved!.feedback,
        rating: saved!.rating,
        authorId: saved!.authorId,
        createdAt: saved!.createdAt.toISOString(),
      },
    });
    const [row] = await tx
      .select(feedbackColumns)
      .from(tripFeedback)
      .innerJoin(author, eq(author.id, tripFeedback.authorId))
      .where(eq(tripFeedback.id, saved!.id));
    return toFeedback(row!);
  });
}
