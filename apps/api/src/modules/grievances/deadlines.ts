import { and, eq, gte, inArray, isNull, lte, or } from 'drizzle-orm';
import { grievanceDeadline, indianDayOf, UNRESOLVED_STATUSES } from '@bmet/shared/grievance-rules';
import type { DbExecutor } from '../../db/client';
import { grievances, holidays } from '../../db/schema';
import { deskRulesOf } from './desk-rules';

/** A deadline never reaches further than this past its start, even across a long run of holidays. */
const HORIZON_DAYS = 60;
const DAY_MS = 86_400_000;

/**
 * The holidays that count for a state from a day on (the national ones and the state's own), as
 * the test the deadline's arithmetic takes.
 */
export async function holidaysFrom(
  db: DbExecutor,
  state: string | null,
  from: Date,
): Promise<(day: string) => boolean> {
  const first = indianDayOf(from);
  const last = indianDayOf(new Date(from.getTime() + HORIZON_DAYS * DAY_MS));
  const rows = await db
    .select({ day: holidays.day })
    .from(holidays)
    .where(
      and(
        gte(holidays.day, first),
        lte(holidays.day, last),
        state ? or(isNull(holidays.state), eq(holidays.state, state)) : isNull(holidays.state),
      ),
    );
  const days = new Set(rows.map((row) => row.day));
  return (day) => days.has(day);
}

/**
 * The deadline of a grievance whose clock starts at `from`, in a state (or nationally): as many
 * working days as the state's rules in effect that day give.
 */
export async function deadlineOf(db: DbExecutor, state: string | null, from: Date): Promise<Date> {
  const [isHoliday, rules] = await Promise.all([
    holidaysFrom(db, state, from),
    deskRulesOf(db, state, indianDayOf(from)),
  ]);
  return grievanceDeadline(from, isHoliday, rules.workingDays);
}

/** The horizon before a day within which a grievance's deadline may reach that day. */
export const deadlinesReaching = (day: string): { from: Date; to: Date } => ({
  from: new Date(Date.parse(`${day}T00:00:00+05:30`) - HORIZON_DAYS * DAY_MS),
  to: new Date(`${day}T23:59:59+05:30`),
});

/**
 * Works out again the deadlines of the unresolved grievances whose clock started between `from`
 * and `to` (now when left out), in a state (or any state when none is named): after a holiday is
 * listed or removed, or a state's rules change. Answers how many changed.
 */
export async function moveDeadlines(
  db: DbExecutor,
  within: { state: string | null; from: Date; to?: Date },
): Promise<number> {
  const affected = await db
    .select({
      id: grievances.id,
      state: grievances.state,
      clockFrom: grievances.clockFrom,
      dueAt: grievances.dueAt,
    })
    .from(grievances)
    .where(
      and(
        inArray(grievances.status, [...UNRESOLVED_STATUSES]),
        gte(grievances.clockFrom, within.from),
        within.to ? lte(grievances.clockFrom, within.to) : undefined,
        within.state ? eq(grievances.state, within.state) : undefined,
      ),
    );
  let moved = 0;
  for (const row of affected) {
    const dueAt = await deadlineOf(db, row.state, row.clockFrom);
    if (dueAt.getTime() === row.dueAt.getTime()) continue;
    await db.update(grievances).set({ dueAt }).where(eq(grievances.id, row.id));
    moved += 1;
  }
  return moved;
}
