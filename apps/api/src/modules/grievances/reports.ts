import { sql } from 'drizzle-orm';
import {
  GRIEVANCE_CATEGORIES,
  LOW_RATING,
  UNRESOLVED_STATUSES,
  type GrievanceCategory,
} from '@bmet/shared/grievance-rules';
import type { DriverNeedingAction, GrievanceFigures } from '@bmet/shared/schemas/grievance';
import type { DbExecutor } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { accounts, driverRatings, drivers, grievances, trips } from '../../db/schema';
import { driverScope, type ScopeCaller } from '../../lib/scope';
import { indianToday } from '../../lib/ist-days';
import { deskRulesInEffect, rulesIn } from './desk-rules';
import { grievanceScope } from './repository';

/** This month in India: `2026-11`. */
export const indianMonth = (now = new Date()): string =>
  new Date(now.getTime() + 330 * 60_000).toISOString().slice(0, 7);

/** A month's first moment and the next month's, in India, and its last day. */
function monthBounds(month: string): { start: string; end: string; lastDay: string } {
  const [year, number] = month.split('-').map(Number) as [number, number];
  const next = number === 12 ? `${year + 1}-01` : `${year}-${String(number + 1).padStart(2, '0')}`;
  const lastDay = new Date(Date.UTC(year, number, 0)).toISOString().slice(0, 10);
  return { start: `${month}-01T00:00:00+05:30`, end: `${next}-01T00:00:00+05:30`, lastDay };
}

const unresolvedList = sql.raw(UNRESOLVED_STATUSES.map((status) => `'${status}'`).join(', '));

function figuresOf(row: Record<string, unknown>): GrievanceFigures {
  const median = row.median_hours;
  return {
    received: Number(row.received),
    resolvedInTime: Number(row.resolved_in_time),
    resolvedLate: Number(row.resolved_late),
    overdue: Number(row.overdue),
    medianHoursToResolve:
      median === null || median === undefined ? null : Math.round(Number(median) * 10) / 10,
  };
}

/**
 * A month's grievances in the caller's scope: received, resolved within and after the deadline,
 * still overdue, and the median time to resolve; in all, by category and by franchise (the
 * franchise of the driver each is about), in one pass over the month's grievances.
 */
export async function grievanceReport(db: DbExecutor, caller: ScopeCaller, month: string) {
  const { start, end } = monthBounds(month);
  const scope = grievanceScope(caller);
  const rows = rowsOf(
    await db.execute(sql`
      select grouping(${grievances.category}) as no_category, grouping(${drivers.franchiseId}) as no_franchise,
        ${grievances.category} as category, ${drivers.franchiseId} as franchise_id,
        min(coalesce(${accounts.displayName}, ${accounts.email})) as franchise_name,
        count(*)::int as received,
        (count(*) filter (where ${grievances.resolvedAt} <= ${grievances.dueAt}))::int as resolved_in_time,
        (count(*) filter (where ${grievances.resolvedAt} > ${grievances.dueAt}))::int as resolved_late,
        (count(*) filter (where ${grievances.status} in (${unresolvedList}) and ${grievances.dueAt} < now()))::int as overdue,
        percentile_cont(0.5) within group (
          order by extract(epoch from ${grievances.resolvedAt} - ${grievances.receivedAt}) / 3600
        ) filter (where ${grievances.resolvedAt} is not null) as median_hours
      from ${grievances}
        left join ${drivers} on ${drivers.id} = ${grievances.driverId}
        left join ${accounts} on ${accounts.id} = ${drivers.franchiseId}
      where ${grievances.receivedAt} >= ${start}::timestamptz and ${grievances.receivedAt} < ${end}::timestamptz
        ${scope ? sql`and ${scope}` : sql``}
      group by grouping sets ((), (${grievances.category}), (${drivers.franchiseId}))`),
  );
  const empty: GrievanceFigures = {
    received: 0,
    resolvedInTime: 0,
    resolvedLate: 0,
    overdue: 0,
    medianHoursToResolve: null,
  };
  const total = rows.find((row) => Number(row.no_category) === 1 && Number(row.no_franchise) === 1);
  const byCategory = rows
    .filter((row) => Number(row.no_category) === 0)
    .map((row) => ({ category: row.category as GrievanceCategory, ...figuresOf(row) }))
    .sort((a, b) => GRIEVANCE_CATEGORIES.indexOf(a.category) - GRIEVANCE_CATEGORIES.indexOf(b.category));
  const byFranchise = rows
    .filter((row) => Number(row.no_franchise) === 0)
    .map((row) => ({
      franchiseId: (row.franchise_id as string | null) ?? null,
      franchiseName: (row.franchise_name as string | null) ?? null,
      ...figuresOf(row),
    }))
    .sort(
      (a, b) => b.received - a.received || String(a.franchiseName).localeCompare(String(b.franchiseName)),
    );
  return { month, total: total ? figuresOf(total) : empty, byCategory, byFranchise };
}

/**
 * The drivers in the caller's scope who need action in a month, by the rules of each driver's
 * state in effect on the month's last day (today for this month): complaints about them reaching
 * the state's share of their completed rides, or ratings below LOW_RATING stars exceeding its
 * share of their ratings; a state without such a rule calls for none. Only drivers with a
 * complaint or a low rating that month are looked at, so the month's rides are counted for a few
 * drivers, through their index.
 */
export async function findDriversNeedingAction(
  db: DbExecutor,
  caller: ScopeCaller,
  month: string,
  driverId?: string,
): Promise<DriverNeedingAction[]> {
  const { start, end, lastDay } = monthBounds(month);
  const today = indianToday();
  const rules = await deskRulesInEffect(db, lastDay < today ? lastDay : today);
  const inMonth = (column: typeof grievances.receivedAt | typeof driverRatings.createdAt) =>
    sql`${column} >= ${start}::timestamptz and ${column} < ${end}::timestamptz`;
  const oneDriver = (column: typeof grievances.driverId | typeof driverRatings.driverId) =>
    driverId ? sql`and ${column} = ${driverId}::uuid` : sql``;
  const rows = rowsOf(
    await db.execute(sql`
      with complaints as (
        select ${grievances.driverId} as driver_id, count(*)::int as complaints from ${grievances}
        where ${grievances.driverId} is not null and ${inMonth(grievances.receivedAt)} ${oneDriver(grievances.driverId)}
        group by ${grievances.driverId}
      ), ratings as (
        select ${driverRatings.driverId} as driver_id, count(*)::int as ratings,
          (count(*) filter (where ${driverRatings.rating} < ${LOW_RATING}))::int as low_ratings
        from ${driverRatings}
        where ${inMonth(driverRatings.createdAt)} ${oneDriver(driverRatings.driverId)}
        group by ${driverRatings.driverId}
        having count(*) filter (where ${driverRatings.rating} < ${LOW_RATING}) > 0
      ), candidates as (
        select driver_id from complaints union select driver_id from ratings
      )
      select ${drivers.id} as driver_id, ${drivers.name} as driver_name, ${drivers.state} as state,
        coalesce(${accounts.displayName}, ${accounts.email}) as franchise_name,
        coalesce(complaints.complaints, 0) as complaints,
        coalesce(ratings.ratings, 0) as ratings, coalesce(ratings.low_ratings, 0) as low_ratings,
        (select count(*)::int from ${trips} where ${trips.driverId} = ${drivers.id} and ${trips.status} = 'completed'
          and ${trips.createdAt} >= ${start}::timestamptz and ${trips.createdAt} < ${end}::timestamptz) as rides
      from candidates
        join ${drivers} on ${drivers.id} = candidates.driver_id
        left join ${accounts} on ${accounts.id} = ${drivers.franchiseId}
        left join complaints on complaints.driver_id = candidates.driver_id
        left join ratings on ratings.driver_id = candidates.driver_id
      where ${driverScope(caller)}`),
  );
  const found: DriverNeedingAction[] = [];
  for (const row of rows) {
    const figures = {
      rides: Number(row.rides),
      complaints: Number(row.complaints),
      ratings: Number(row.ratings),
      lowRatings: Number(row.low_ratings),
    };
    const { complaintPercent, lowRatingPercent } = rulesIn(rules, (row.state as string | null) ?? null);
    const reasons: DriverNeedingAction['reasons'] = [];
    if (
      complaintPercent !== null &&
      figures.complaints > 0 &&
      figures.complaints * 100 >= complaintPercent * figures.rides
    )
      reasons.push('complaints');
    if (lowRatingPercent !== null && figures.lowRatings * 100 > lowRatingPercent * figures.ratings)
      reasons.push('low_ratings');
    if (reasons.length === 0) continue;
    found.push({
      driverId: String(row.driver_id),
      driverName: String(row.driver_name),
      franchiseName: (row.franchise_name as string | null) ?? null,
      ...figures,
      reasons,
    });
  }
  return found.sort(
    (a, b) =>
      b.complaints - a.complaints || b.lowRatings - a.lowRatings || a.driverName.localeCompare(b.driverName),
  );
}
