import { and, eq, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { grievanceDeadline, indianDayOf, UNRESOLVED_STATUSES } from '@bmet/shared/grievance-rules';
import type { DbExecutor } from '../../db/client';
import { grievances, holidays } from '../../db/schema';

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

/** The deadline of a grievance whose clock starts at `from`, in a state (or nationally). */
export async function deadlineOf(db: DbExecutor, state: string | null, from: Date): Promise<Date> {
  return grievanceDeadline(from, await holidaysFrom(db, state, from));
}

/**
 * Works out again the deadlines a listed or removed holiday may move: those of the unresolved
 * grievances whose clock started within the horizon before that day, in its state (or any state
 * for a national one). Answers how many changed.
 */
export async function moveDeadlines(db: DbExecutor, day: string, state: string | null): Promise<number> {
  const from = new Date(Date.parse(`${day}T00:00:00+05:30`) - HORIZON_DAYS * DAY_MS);
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
        gte(grievances.clockFrom, from),
        lte(grievances.clockFrom, sql`${`${day}T23:59:59+05:30`}::timestamptz`),
        state ? eq(grievances.state, state) : undefined,
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
