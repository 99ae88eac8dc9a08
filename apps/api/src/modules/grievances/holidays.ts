import { and, asc, eq, gte, lte } from 'drizzle-orm';
import { STATES, type State } from '@bmet/shared/constants';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import type { Holiday } from '@bmet/shared/schemas/grievance';
import type { Db } from '../../db/client';
import { holidays } from '../../db/schema';
import { recordAudit } from '../../infra/audit';
import type { ChangeCaller } from '../../lib/scope';
import { deadlinesReaching, moveDeadlines } from './deadlines';

const toHoliday = (row: { id: string; day: string; state: string | null; name: string }): Holiday => ({
  ...row,
  state: (STATES as readonly string[]).includes(row.state ?? '') ? (row.state as State) : null,
});

/** The holidays of a year (this year in India unless named), by day, national ones first. */
export async function findHolidays(db: Db, year: number): Promise<Holiday[]> {
  const rows = await db
    .select({ id: holidays.id, day: holidays.day, state: holidays.state, name: holidays.name })
    .from(holidays)
    .where(and(gte(holidays.day, `${year}-01-01`), lte(holidays.day, `${year}-12-31`)))
    .orderBy(asc(holidays.day), asc(holidays.state));
  return rows.map(toHoliday);
}

const isUniqueViolation = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  'code' in error &&
  (error as { code: unknown }).code === '23505';

/**
 * Lists a holiday; the deadlines of unresolved grievances it falls within move with it, in the
 * same transaction, so that no clock shows a deadline the holidays no longer give.
 */
export async function createHoliday(
  db: Db,
  caller: ChangeCaller,
  body: { day: string; state?: State | null; name: string },
): Promise<Holiday> {
  const state = body.state ?? null;
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(holidays)
        .values({ day: body.day, state, name: body.name, createdBy: caller.id })
        .returning({ id: holidays.id, day: holidays.day, state: holidays.state, name: holidays.name });
      const moved = await moveDeadlines(tx, { state, ...deadlinesReaching(body.day) });
      await recordAudit(tx, caller, {
        action: 'create',
        resource: 'holidays',
        resourceId: row!.id,
        before: null,
        after: { day: body.day, state, name: body.name, deadlinesMoved: moved },
      });
      return toHoliday(row!);
    });
  } catch (error) {
    if (isUniqueViolation(error) || isUniqueViolation((error as { cause?: unknown }).cause)) {
      throw new AppError('CONFLICT', m.holidayExists(), { fieldErrors: { day: [m.holidayExists()] } });
    }
    throw error;
  }
}

export async function deleteHoliday(db: Db, caller: ChangeCaller, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(holidays).where(eq(holidays.id, id)).returning();
    if (!row) throw new AppError('NOT_FOUND', m.notFound());
    const moved = await moveDeadlines(tx, { state: row.state, ...deadlinesReaching(row.day) });
    await recordAudit(tx, caller, {
      action: 'delete',
      resource: 'holidays',
      resourceId: id,
      before: { day: row.day, state: row.state, name: row.name },
      after: { deadlinesMoved: moved },
    });
  });
}
