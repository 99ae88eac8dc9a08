import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Role } from '@bmet/shared/constants';
import type { Db } from '../../db/client';
import { accounts, sessions, signInAttempts } from '../../db/schema';

export async function findAccountByEmail(db: Db, email: string) {
  const [account] = await db
    .select()
    .from(accounts)
    .where(sql`lower(${accounts.email}) = lower(${email})`)
    .limit(1);
  return account ?? null;
}

export async function findAccountById(db: Db, id: string) {
  const [account] = await db.select().from(accounts).where(eq(accounts.id, id)).limit(1);
  return account ?? null;
}

export async function createSession(
  db: Db,
  input: { accountId: string; expiresAt: Date; ip: string | null; userAgent: string | null },
) {
  const [session] = await db.insert(sessions).values(input).returning({ id: sessions.id });
  return session!;
}

/** The account behind a live session: not revoked, not expired, account not disabled. */
export async function findActiveSession(db: Db, sessionId: string, accountId: string) {
  const [row] = await db
    .select({
      id: accounts.id,
      email: accounts.email,
      displayName: accounts.displayName,
      role: accounts.role,
      state: accounts.state,
      dealerId: accounts.dealerId,
    })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(
      and(
        sql`${sessions.id} = ${sessionId}::uuid`,
        eq(sessions.accountId, accountId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, new Date()),
        eq(accounts.disabled, false),
      ),
    )
    .limit(1);
  return row ? { ...row, role: row.role as Role } : null;
}

export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, sessionId));
}

/** Ends every session of an account (password change, disabling). */
export async function revokeAccountSessions(db: Db, accountId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.accountId, accountId), isNull(sessions.revokedAt)));
}

export type ThrottleRule = { maxFailures: number; windowMs: number; lockMs: number };

/** The time until which a key is locked out, or null. */
export async function findLock(db: Db, key: string): Promise<Date | null> {
  const [row] = await db
    .select({ lockedUntil: signInAttempts.lockedUntil })
    .from(signInAttempts)
    .where(eq(signInAttempts.key, key));
  return row?.lockedUntil && row.lockedUntil > new Date() ? row.lockedUntil : null;
}

/** Counts one failure for a key in its window (atomically) and answers the count so far. */
export async function recordFailure(db: Db, key: string, rule: ThrottleRule): Promise<number> {
  const now = new Date();
  const windowStart = new Date(now.getTime() - rule.windowMs);
  const lockUntil = new Date(now.getTime() + rule.lockMs);
  const [row] = await db
    .insert(signInAttempts)
    .values({ key, failures: 1, windowStartedAt: now })
    .onConflictDoUpdate({
      target: signInAttempts.key,
      set: {
        failures: sql`case when ${signInAttempts.windowStartedAt} < ${windowStart.toISOString()}::timestamptz then 1 else ${signInAttempts.failures} + 1 end`,
        windowStartedAt: sql`case when ${signInAttempts.windowStartedAt} < ${windowStart.toISOString()}::timestamptz then ${now.toISOString()}::timestamptz else ${signInAttempts.windowStartedAt} end`,
      },
    })
    .returning({ failures: signInAttempts.failures });
  const failures = row?.failures ?? 1;
  if (failures >= rule.maxFailures) {
    await db
      .update(signInAttempts)
      .set({ lockedUntil: lockUntil, failures: 0, windowStartedAt: now })
      .where(eq(signInAttempts.key, key));
  }
  return failures;
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.delete(signInAttempts).where(eq(signInAttempts.key, key));
}
