import { and, asc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Db, DbExecutor } from '../../db/client';
import { accounts, firebaseHashParams, passwordResetTokens, sessions, signInAttempts } from '../../db/schema';

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
  db: DbExecutor,
  input: { accountId: string; expiresAt: Date; ip: string | null; userAgent: string | null },
) {
  const [session] = await db.insert(sessions).values(input).returning({ id: sessions.id });
  return session!;
}

export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, sessionId));
}

/**
 * Ends every session of an account (password change, disabling, deletion); `except` keeps one,
 * so that people who change their own password stay signed in where they did it.
 */
export async function revokeAccountSessions(
  db: DbExecutor,
  accountId: string,
  options: { except?: string } = {},
): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(sessions.accountId, accountId),
        isNull(sessions.revokedAt),
        options.except ? ne(sessions.id, options.except) : undefined,
      ),
    );
}

export type ThrottleRule = { maxFailures: number; windowMs: number; lockMs: number };

/**
 * Takes one attempt for a key, atomically, before the work it guards: concurrent requests each get
 * their own count, so a burst cannot slip past the limit between a check and a count. Answers the
 * attempts in the current window and, when this attempt is over the limit or the key is locked,
 * the time until which it is locked. A lock that has run out starts a fresh window.
 */
export async function takeAttempt(
  db: Db,
  key: string,
  rule: ThrottleRule,
): Promise<{ attempts: number; lockedUntil: Date | null }> {
  const now = new Date();
  const nowSql = sql`${now.toISOString()}::timestamptz`;
  const windowStart = sql`${new Date(now.getTime() - rule.windowMs).toISOString()}::timestamptz`;
  const restart = sql`(${signInAttempts.windowStartedAt} < ${windowStart} or ${signInAttempts.lockedUntil} <= ${nowSql})`;
  const [row] = await db
    .insert(signInAttempts)
    .values({ key, failures: 1, windowStartedAt: now })
    .onConflictDoUpdate({
      target: signInAttempts.key,
      set: {
        failures: sql`case when ${restart} then 1 else ${signInAttempts.failures} + 1 end`,
        windowStartedAt: sql`case when ${restart} then ${nowSql} else ${signInAttempts.windowStartedAt} end`,
        lockedUntil: sql`case when ${restart} then null else ${signInAttempts.lockedUntil} end`,
      },
    })
    .returning({ failures: signInAttempts.failures, lockedUntil: signInAttempts.lockedUntil });
  const attempts = row?.failures ?? 1;
  if (row?.lockedUntil && row.lockedUntil > now) return { attempts, lockedUntil: row.lockedUntil };
  if (attempts <= rule.maxFailures) return { attempts, lockedUntil: null };
  const lockedUntil = new Date(now.getTime() + rule.lockMs);
  await db.update(signInAttempts).set({ lockedUntil }).where(eq(signInAttempts.key, key));
  return { attempts, lockedUntil };
}

/**
 * Ends an account's live sessions but the newest `keep` (the one just opened always among them):
 * the revocation is announced like a sign-out's, so their streams end on every instance.
 */
export async function revokeSessionsBeyond(
  db: DbExecutor,
  accountId: string,
  newest: string,
  keep: number,
): Promise<void> {
  await db.execute(sql`
    update ${sessions} set revoked_at = now()
    where ${sessions.accountId} = ${accountId} and ${sessions.revokedAt} is null
      and ${sessions.id} <> ${newest}
      and ${sessions.id} not in (
        select ${sessions.id} from ${sessions}
        where ${sessions.accountId} = ${accountId} and ${sessions.revokedAt} is null
          and ${sessions.expiresAt} > now()
        order by (${sessions.id} = ${newest}) desc, ${sessions.createdAt} desc
        limit ${keep}
      )`);
}

/** The emails of the admins who can sign in, for the admin reset page's dropdown. */
export async function findAdminEmails(db: Db): Promise<string[]> {
  const rows = await db
    .select({ email: accounts.email })
    .from(accounts)
    .where(and(eq(accounts.role, 'admin'), eq(accounts.disabled, false), isNull(accounts.deletedAt)))
    .orderBy(asc(sql`lower(${accounts.email})`));
  return rows.map((row) => row.email);
}

export async function insertResetToken(
  db: Db,
  input: { accountId: string; tokenHash: string; expiresAt: Date; requestedIp: string | null },
): Promise<void> {
  await db.insert(passwordResetTokens).values(input);
}

/** The unused, unexpired reset token with this hash, of an account that may still sign in. */
export async function findUsableResetToken(db: DbExecutor, tokenHash: string) {
  const [row] = await db
    .select({ id: passwordResetTokens.id, account: accounts })
    .from(passwordResetTokens)
    .innerJoin(accounts, eq(accounts.id, passwordResetTokens.accountId))
    .where(
      and(
        eq(passwordResetTokens.tokenHash, tokenHash),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, new Date()),
        eq(accounts.disabled, false),
        isNull(accounts.deletedAt),
      ),
    )
    .limit(1);
  return row ?? null;
}

/**
 * Marks a reset token used, only if it still was usable: of two requests racing with the same
 * link, exactly one wins.
 */
export async function consumeResetToken(db: DbExecutor, id: string): Promise<boolean> {
  const rows = await db
    .update(passwordResetTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(passwordResetTokens.id, id),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, new Date()),
      ),
    )
    .returning({ id: passwordResetTokens.id });
  return rows.length === 1;
}

/** Voids the account's outstanding reset links: a password just set must not be reset by an older mail. */
export async function voidResetTokens(db: DbExecutor, accountId: string): Promise<void> {
  await db
    .update(passwordResetTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordResetTokens.accountId, accountId), isNull(passwordResetTokens.usedAt)));
}

/** Stores a new password hash and records when it changed. */
export async function setPasswordHash(db: DbExecutor, accountId: string, passwordHash: string) {
  const changedAt = new Date();
  await db
    .update(accounts)
    .set({ passwordHash, passwordChangedAt: changedAt, ...NO_FIREBASE_PASSWORD })
    .where(eq(accounts.id, accountId));
  return changedAt;
}

// A password set here ends an imported one: the Firebase hash must never sign in again.
const NO_FIREBASE_PASSWORD = {
  firebasePasswordHash: null,
  firebasePasswordSalt: null,
  firebaseHashParamsId: null,
} as const;

/**
 * Replaces a still imported Firebase password with its argon2id hash, once: of two sign-ins racing
 * with it, the second finds it replaced already and changes nothing.
 */
export async function replaceFirebasePassword(
  db: Db,
  account: { id: string; firebasePasswordHash: string },
  passwordHash: string,
): Promise<void> {
  await db
    .update(accounts)
    .set({ passwordHash, ...NO_FIREBASE_PASSWORD })
    .where(and(eq(accounts.id, account.id), eq(accounts.firebasePasswordHash, account.firebasePasswordHash)));
}

/** A project's stored hash parameters, sealed secrets included. */
/** The costliest scrypt cost of the imported projects (rounds, mem_cost), or null when none was imported. */
export async function findCostliestFirebaseHashCost(
  db: Db,
): Promise<{ rounds: number; memCost: number } | null> {
  const [row] = await db
    .select({ rounds: firebaseHashParams.rounds, memCost: firebaseHashParams.memCost })
    .from(firebaseHashParams)
    .orderBy(sql`${firebaseHashParams.memCost} desc, ${firebaseHashParams.rounds} desc`)
    .limit(1);
  return row ?? null;
}

export async function findFirebaseHashParams(db: Db, id: string) {
  const [row] = await db.select().from(firebaseHashParams).where(eq(firebaseHashParams.id, id)).limit(1);
  return row ?? null;
}
