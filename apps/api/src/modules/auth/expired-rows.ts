import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import {
  downloadTickets,
  passwordResetTokens,
  secondFactorChallenges,
  sessions,
  signInAttempts,
} from '../../db/schema';

/** The advisory lock of the clean-up: with several instances, one of them does it each time. */
export const CLEANUP_LOCK = 7_420_241_125;

const DAY_MS = 86_400_000;

export type Removed = {
  sessions: number;
  signInAttempts: number;
  resetTokens: number;
  downloadTickets: number;
  secondFactorChallenges: number;
};

async function countDeleted(tx: Db, statement: SQL): Promise<number> {
  const [row] = rowsOf(
    await tx.execute(sql`with gone as (${statement} returning 1) select count(*)::int as n from gone`),
  );
  return Number(row?.n ?? 0);
}

/**
 * Deletes the rows nothing reads any more: sessions ended or expired a day ago, sign-in and reset
 * counters whose window (15 minutes) closed a day ago, reset links and download tickets expired a
 * day ago, and second-step challenges expired a day ago. Null when another instance holds the lock (it is doing it).
 */
export async function removeExpiredRows(db: Db, now = new Date()): Promise<Removed | null> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const [lock] = rowsOf(await tx.execute(sql`select pg_try_advisory_xact_lock(${CLEANUP_LOCK}) as taken`));
    if (!lock?.taken) return null;
    const dayAgo = sql`${new Date(now.getTime() - DAY_MS).toISOString()}::timestamptz`;
    const nowSql = sql`${now.toISOString()}::timestamptz`;
    return {
      sessions: await countDeleted(
        tx,
        sql`delete from ${sessions} where ${sessions.expiresAt} < ${dayAgo} or ${sessions.revokedAt} < ${dayAgo}`,
      ),
      signInAttempts: await countDeleted(
        tx,
        sql`delete from ${signInAttempts} where ${signInAttempts.windowStartedAt} < ${dayAgo}
          and (${signInAttempts.lockedUntil} is null or ${signInAttempts.lockedUntil} < ${nowSql})`,
      ),
      resetTokens: await countDeleted(
        tx,
        sql`delete from ${passwordResetTokens} where ${passwordResetTokens.expiresAt} < ${dayAgo}`,
      ),
      downloadTickets: await countDeleted(
        tx,
        sql`delete from ${downloadTickets} where ${downloadTickets.expiresAt} < ${dayAgo}`,
      ),
      secondFactorChallenges: await countDeleted(
        tx,
        sql`delete from ${secondFactorChallenges} where ${secondFactorChallenges.expiresAt} < ${dayAgo}`,
      ),
    };
  });
}
