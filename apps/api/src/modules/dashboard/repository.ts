import { and, sql, type SQL } from 'drizzle-orm';
import {
  STATS_TOP_GROUPS,
  STATS_TOP_REASONS,
  type StatsCarTypes,
  type StatsDaily,
  type StatsFranchises,
  type StatsHours,
  type StatsOverview,
  type StatsStates,
} from '@bmet/shared/schemas/dashboard';
import {
  ACTIVE_DRIVER_MINUTES,
  CAR_TYPES,
  STATES,
  TRIP_STATUSES,
  type CarType,
  type State,
} from '@bmet/shared/constants';
import { anyOf } from '../../db/any-of';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { accounts, customers, drivers, tripDailyStats, tripHourlyStats, trips } from '../../db/schema';
import { indianDay, indianHour } from '../../lib/indian-time';
import { type ScopeCaller, driverScope, franchiseIdScope, tripDriverScope } from '../../lib/scope';
import { dateConditions } from '../trips/list-filters';
import { datesOf, splitPeriod, type Period } from './period';

/*
 * The dashboard's figures. Whole days come from the daily figures the triggers of migration 0010
 * keep (a few hundred rows a day); the parts of days at the ends of a period given as moments come
 * from the trips themselves. Both are scoped by the trip list's own rule (franchiseIdScope and
 * tripDriverScope), so a figure counts exactly the trips the list shows the caller for the same period.
 */

/**
 * The trip list's scope (tripScope) on trips joined with their driver: the same drivers, read
 * through the join.
 */
function rawScope(caller: ScopeCaller): SQL | undefined {
  return tripDriverScope(caller);
}

/**
 * The trips of a part of a day, read by their time first (trips_created_idx) and only then joined
 * with their drivers. Left to itself the planner may start from a large dealer's 30,000 drivers
 * and probe each one's trips (100 ms) where a few thousand trips of a few hours take 5 ms; `offset
 * 0` keeps it from merging the two. Named `trips`, so that the columns read as usual.
 */
function tripsWithin(conditions: SQL[]): SQL {
  return sql`(select * from ${trips} where ${and(...conditions)} offset 0) as ${trips}`;
}

/** The rows of tripDailyStats for a period and a caller, whole days and partial ends alike. */
function dailySource(caller: ScopeCaller, period: Period): SQL {
  const { days, raw } = splitPeriod(period);
  const parts: SQL[] = [];
  if (days) {
    const s = tripDailyStats;
    parts.push(sql`select ${s.day} as day, ${s.franchiseId} as franchise_id, ${s.state} as state,
        ${s.carType} as car_type, ${s.status} as status, ${s.cancelReason} as cancel_reason,
        ${s.trips} as trips, ${s.fareTotal} as fare_total, ${s.fareTrips} as fare_trips,
        ${s.distanceTotal} as distance_total, ${s.distanceTrips} as distance_trips
      from ${s}
      where ${and(
        sql`${s.day} between ${days.first} and ${days.last}`,
        franchiseIdScope(caller, s.franchiseId),
      )}`);
  }
  for (const { sign, conditions } of raw) {
    // The same grouping as the triggers, over the trips of a partial day, added or taken away.
    const signed = sql.raw(String(sign));
    parts.push(sql`select ${indianDay(trips.createdAt)} as day, ${drivers.franchiseId} as franchise_id,
        ${drivers.state} as state, ${trips.carType} as car_type, ${trips.status} as status,
        case when ${trips.status} = 'cancelled' then left(coalesce(${trips.cancelReason}, ''), 200) else '' end as cancel_reason,
        ${signed} * count(*)::int as trips, ${signed} * coalesce(sum(${trips.price}::numeric), 0) as fare_total,
        ${signed} * count(${trips.price})::int as fare_trips,
        ${signed} * coalesce(sum(${trips.distanceKm}::numeric), 0) as distance_total,
        ${signed} * count(${trips.distanceKm})::int as distance_trips
      from ${tripsWithin(conditions)} left join ${drivers} on ${drivers.id} = ${trips.driverId}
      where ${rawScope(caller) ?? sql`true`}
      group by 1, 2, 3, 4, 5, 6`);
  }
  return unionAll(parts);
}

/** The rows of tripHourlyStats for a period and a caller. */
function hourlySource(caller: ScopeCaller, period: Period): SQL {
  const { days, raw } = splitPeriod(period);
  const parts: SQL[] = [];
  if (days) {
    const s = tripHourlyStats;
    parts.push(sql`select ${s.hour} as hour, ${s.trips} as trips from ${s}
      where ${and(
        sql`${s.day} between ${days.first} and ${days.last}`,
        franchiseIdScope(caller, s.franchiseId),
      )}`);
  }
  for (const { sign, conditions } of raw) {
    parts.push(sql`select ${indianHour(trips.createdAt)} as hour, ${sql.raw(String(sign))} * count(*)::int as trips
      from ${tripsWithin(conditions)} left join ${drivers} on ${drivers.id} = ${trips.driverId}
      where ${rawScope(caller) ?? sql`true`} group by 1`);
  }
  return unionAll(parts);
}

/** A union of selects, or no rows at all (an empty period part cannot happen, but stays valid). */
function unionAll(parts: SQL[]): SQL {
  if (parts.length === 0) return sql`select null where false`;
  return sql.join(
    parts.map((part) => sql`(${part})`),
    sql` union all `,
  );
}

const toNumber = (value: unknown) => Number(value ?? 0);
/** Rupees to the paisa: the totals are exact decimals, the answer a JSON number. */
const toRupees = (value: unknown) => Math.round(toNumber(value) * 100) / 100;
const isCarType = (value: unknown): value is CarType => CAR_TYPES.includes(value as CarType);
const isState = (value: unknown): value is State => STATES.includes(value as State);

/** Trips, completions, cancellations with their main reasons, revenue and averages of a period. */
async function findTripFigures(db: Db, caller: ScopeCaller, period: Period) {
  // One pass: by status, and cancelled trips by reason (the other statuses have none).
  const rows = rowsOf(
    await db.execute(sql`select status, cancel_reason, sum(trips) as trips, sum(fare_total) as fare_total,
        sum(fare_trips) as fare_trips, sum(distance_total) as distance_total, sum(distance_trips) as distance_trips
      from (${dailySource(caller, period)}) figures group by status, cancel_reason having sum(trips) <> 0`),
  );
  const sumOf = (status: string, column: string) =>
    rows.filter((row) => row.status === status).reduce((sum, row) => sum + toNumber(row[column]), 0);
  const total = rows.reduce((sum, row) => sum + toNumber(row.trips), 0);
  const cancelled = sumOf('cancelled', 'trips');
  const revenue = sumOf('completed', 'fare_total');
  const fareTrips = sumOf('completed', 'fare_trips');
  const distanceTrips = sumOf('completed', 'distance_trips');
  const reasons = rows
    .filter((row) => row.status === 'cancelled')
    .map((row) => ({ reason: String(row.cancel_reason), trips: toNumber(row.trips) }))
    // The most frequent first; ties in the order of the reasons' text, as the database sorts it.
    .sort((a, b) => b.trips - a.trips || (a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0))
    .slice(0, STATS_TOP_REASONS);
  return {
    trips: total,
    completed: sumOf('completed', 'trips'),
    cancelled,
    cancellationRate: total ? Math.round((cancelled / total) * 10_000) / 10_000 : null,
    cancelReasons: reasons,
    revenue: toRupees(revenue),
    averageFare: fareTrips ? toRupees(revenue / fareTrips) : null,
    averageDistanceKm: distanceTrips
      ? Math.round((sumOf('completed', 'distance_total') / distanceTrips) * 10) / 10
      : null,
  };
}

/**
 * Drivers of the caller's scope active now (a position within ACTIVE_DRIVER_MINUTES) and with
 * documents awaiting review, in one pass over the drivers the driver list shows the caller.
 */
async function findDriverFigures(db: Db, caller: ScopeCaller) {
  const [row] = rowsOf(
    await db.execute(sql`select
        count(*) filter (where ${drivers.positionAt} >= now() - make_interval(mins => ${ACTIVE_DRIVER_MINUTES})) as active,
        count(*) filter (where ${drivers.documentsAwaitingReview} > 0) as pending
      from ${drivers} where ${driverScope(caller)}`),
  );
  return { activeDrivers: toNumber(row?.active), pendingReviews: toNumber(row?.pending) };
}

/** Customers who joined in the period, read with customers_created_idx. */
async function countNewCustomers(db: Db, period: Period): Promise<number> {
  const [row] = rowsOf(
    await db.execute(
      sql`select count(*) as n from ${customers} where ${and(...dateConditions(period.from, period.to, customers.createdAt))}`,
    ),
  );
  return toNumber(row?.n);
}

/** The overview of a period; new customers are counted for admins only. */
export async function findOverview(db: Db, caller: ScopeCaller, period: Period): Promise<StatsOverview> {
  // Side by side on PostgreSQL's pool; the embedded database runs them in turn.
  const [tripFigures, driverFigures, newCustomers] = await Promise.all([
    findTripFigures(db, caller, period),
    findDriverFigures(db, caller),
    caller.role === 'admin' ? countNewCustomers(db, period) : null,
  ]);
  return { ...tripFigures, ...driverFigures, newCustomers };
}

/** Trips of each day of the period by status, every day present. */
export async function findDaily(db: Db, caller: ScopeCaller, period: Period): Promise<StatsDaily> {
  const rows = rowsOf(
    await db.execute(sql`select day::text as day, status, sum(trips) as trips
      from (${dailySource(caller, period)}) figures group by day, status`),
  );
  const days = new Map<string, Record<string, string | number>>(
    datesOf(period).map((day) => [day, { day, ...Object.fromEntries(TRIP_STATUSES.map((s) => [s, 0])) }]),
  );
  for (const row of rows) {
    const day = days.get(String(row.day));
    if (day) day[String(row.status)] = toNumber(row.trips);
  }
  return [...days.values()] as StatsDaily;
}

/** Trips, completions and revenue per car type, the most revenue first. */
export async function findCarTypes(db: Db, caller: ScopeCaller, period: Period): Promise<StatsCarTypes> {
  const rows = rowsOf(
    await db.execute(sql`select car_type, sum(trips) as trips,
        coalesce(sum(trips) filter (where status = 'completed'), 0) as completed,
        coalesce(sum(fare_total) filter (where status = 'completed'), 0) as revenue
      from (${dailySource(caller, period)}) figures group by car_type having sum(trips) > 0`),
  );
  // A car type the apps may one day send that the console does not know joins the unknown ones.
  const byType = new Map<CarType | null, { trips: number; completed: number; revenue: number }>();
  for (const row of rows) {
    const type = isCarType(row.car_type) ? row.car_type : null;
    const figures = byType.get(type) ?? { trips: 0, completed: 0, revenue: 0 };
    figures.trips += toNumber(row.trips);
    figures.completed += toNumber(row.completed);
    figures.revenue += toNumber(row.revenue);
    byType.set(type, figures);
  }
  return [...byType]
    .map(([carType, figures]) => ({ carType, ...figures, revenue: toRupees(figures.revenue) }))
    .sort((a, b) => b.revenue - a.revenue || b.trips - a.trips);
}

/** Trips per hour of the day in India, every hour present. */
export async function findHours(db: Db, caller: ScopeCaller, period: Period): Promise<StatsHours> {
  const rows = rowsOf(
    await db.execute(
      sql`select hour, sum(trips) as trips from (${hourlySource(caller, period)}) figures group by hour`,
    ),
  );
  const trips = new Map(rows.map((row) => [toNumber(row.hour), toNumber(row.trips)]));
  return Array.from({ length: 24 }, (_, hour) => ({ hour, trips: trips.get(hour) ?? 0 }));
}

type Group = { trips: number; completed: number; revenue: number };

/** The first STATS_TOP_GROUPS groups (the most trips first) and the rest summed. */
function topGroups<T extends Group>(rows: T[]): { rows: T[]; others: (Group & { groups: number }) | null } {
  const sorted = rows.sort((a, b) => b.trips - a.trips || b.revenue - a.revenue);
  const rest = sorted.slice(STATS_TOP_GROUPS);
  return {
    rows: sorted.slice(0, STATS_TOP_GROUPS),
    others: rest.length
      ? {
          groups: rest.length,
          trips: rest.reduce((sum, row) => sum + row.trips, 0),
          completed: rest.reduce((sum, row) => sum + row.completed, 0),
          revenue: toRupees(rest.reduce((sum, row) => sum + row.revenue, 0)),
        }
      : null,
  };
}

/** Figures of one grouping of the daily figures (by franchise or by state). */
async function findGroups(db: Db, caller: ScopeCaller, period: Period, column: SQL) {
  return rowsOf(
    await db.execute(sql`select ${column} as key, sum(trips) as trips,
        coalesce(sum(trips) filter (where status = 'completed'), 0) as completed,
        coalesce(sum(fare_total) filter (where status = 'completed'), 0) as revenue
      from (${dailySource(caller, period)}) figures group by 1 having sum(trips) > 0`),
  ).map((row) => ({
    key: row.key === null ? null : String(row.key),
    trips: toNumber(row.trips),
    completed: toNumber(row.completed),
    revenue: toRupees(row.revenue),
  }));
}

/** Trips and revenue per franchise of the drivers, with the franchises' names. */
export async function findFranchises(db: Db, caller: ScopeCaller, period: Period): Promise<StatsFranchises> {
  const groups = await findGroups(db, caller, period, sql`franchise_id`);
  const ids = groups.flatMap((group) => (group.key ? [group.key] : []));
  const names = new Map<string, string>();
  if (ids.length) {
    const rows = await db
      .select({ id: accounts.id, name: sql<string>`coalesce(${accounts.displayName}, ${accounts.email})` })
      .from(accounts)
      .where(anyOf(accounts.id, ids, 'uuid'));
    for (const row of rows) names.set(row.id, row.name);
  }
  return topGroups(
    groups.map(({ key, ...figures }) => ({
      franchiseId: key,
      name: key ? (names.get(key) ?? null) : null,
      ...figures,
    })),
  );
}

/** Trips and revenue per state of the drivers; a state the console does not know counts as none. */
export async function findStates(db: Db, caller: ScopeCaller, period: Period): Promise<StatsStates> {
  const byState = new Map<State | null, Group>();
  for (const { key, ...figures } of await findGroups(db, caller, period, sql`state`)) {
    const state = isState(key) ? key : null;
    const sum = byState.get(state) ?? { trips: 0, completed: 0, revenue: 0 };
    byState.set(state, {
      trips: sum.trips + figures.trips,
      completed: sum.completed + figures.completed,
      revenue: toRupees(sum.revenue + figures.revenue),
    });
  }
  return topGroups([...byState].map(([state, figures]) => ({ state, ...figures })));
}
