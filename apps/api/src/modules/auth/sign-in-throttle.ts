import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts, knownSignInAddresses, signInAttempts } from '../../db/schema';
import { escapeLikePattern } from '../../lib/paging';

/**
 * Sign-in throttling that slows guessing without handing attackers a way to lock staff out.
 *
 * - Guesses are limited per (email, address) pair and per address; only wrong passwords count.
 * - An address where the account signed in with its password within the last 30 days is known:
 *   the right password from there is never refused, whatever others did there or elsewhere.
 * - Per account (distributed guessing from many addresses) there are only growing delays.
 * - A burst of parallel attempts cannot check more passwords than the limits allow: attempts in
 *   flight count against the limit, and those over it wait for the others' outcome, so that
 *   right passwords (which never count) never push anyone out.
 * Unknown emails go through exactly the same steps, so neither answers nor timing tell them apart.
 */

export type Limit = { maxFailures: number; windowMs: number; lockMs: number };

export const PAIR_LIMIT: Limit = { maxFailures: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
export const ADDRESS_LIMIT: Limit = { maxFailures: 20, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
/** Failures of an account from anywhere, counted for the delays only. */
const ACCOUNT_WINDOW_MS = 15 * 60_000;
export const KNOWN_ADDRESS_DAYS = 30;
const DELAY_AFTER_FAILURES = 3;
const MAX_DELAY_MS = 5000;
// How long an attempt over the in-flight allowance waits for the others before it is refused.
const MAX_QUEUE_MS = 10_000;
const QUEUE_POLL_MS = 25;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The delay before an account's password is checked, from its recent failures. */
export function accountDelayMs(failures: number): number {
  if (failures < DELAY_AFTER_FAILURES) return 0;
  return Math.min(250 * 2 ** (failures - DELAY_AFTER_FAILURES), MAX_DELAY_MS);
}

type Counter = { failures: number; lockedUntil: Date | null };

async function readCounters(db: Db, keys: Record<string, number>): Promise<Map<string, Counter>> {
  const now = Date.now();
  const rows = await db
    .select()
    .from(signInAttempts)
    .where(sql`${signInAttempts.key} in ${Object.keys(keys)}`);
  const counters = new Map<string, Counter>();
  for (const row of rows) {
    const windowMs = keys[row.key] ?? 0;
    const lockedUntil = row.lockedUntil && row.lockedUntil.getTime() > now ? row.lockedUntil : null;
    const inWindow = row.windowStartedAt.getTime() > now - windowMs;
    counters.set(row.key, { failures: inWindow || lockedUntil ? row.failures : 0, lockedUntil });
  }
  return counters;
}

/** Counts one failure under a key, atomically; reaching the limit locks the key. */
async function recordFailure(db: Db, key: string, windowMs: number, limit?: Limit): Promise<void> {
  const now = new Date();
  const nowSql = sql`${now.toISOString()}::timestamptz`;
  const windowStart = sql`${new Date(now.getTime() - windowMs).toISOString()}::timestamptz`;
  const restart = sql`(${signInAttempts.windowStartedAt} < ${windowStart} and (${signInAttempts.lockedUntil} is null or ${signInAttempts.lockedUntil} <= ${nowSql}))`;
  const failures = sql`case when ${restart} then 1 else ${signInAttempts.failures} + 1 end`;
  const lockUntil = limit
    ? sql`case when ${failures} >= ${limit.maxFailures} and (${signInAttempts.lockedUntil} is null or ${signInAttempts.lockedUntil} <= ${nowSql}) then ${new Date(now.getTime() + limit.lockMs).toISOString()}::timestamptz when ${restart} then null else ${signInAttempts.lockedUntil} end`
    : sql`null`;
  await db
    .insert(signInAttempts)
    .values({ key, failures: 1, windowStartedAt: now })
    .onConflictDoUpdate({
      target: signInAttempts.key,
      set: {
        failures,
        windowStartedAt: sql`case when ${restart} then ${nowSql} else ${signInAttempts.windowStartedAt} end`,
        lockedUntil: lockUntil,
      },
    });
}

/** Whether the account of this email signed in from this address within the last 30 days. */
async function isKnownAddress(db: Db, email: string, address: string): Promise<boolean> {
  const since = new Date(Date.now() - KNOWN_ADDRESS_DAYS * 86_400_000);
  const rows = await db
    .select({ accountId: knownSignInAddresses.accountId })
    .from(knownSignInAddresses)
    .innerJoin(accounts, eq(accounts.id, knownSignInAddresses.accountId))
    .where(
      and(
        sql`lower(${accounts.email}) = lower(${email})`,
        eq(knownSignInAddresses.address, address),
        gt(knownSignInAddresses.lastSuccessAt, since),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export type Admission =
  | { admitted: true; finish: (outcome: 'right' | 'wrong', accountId?: string) => Promise<void> }
  | { admitted: false; retryAfterSeconds: number };

/** Creates the throttle of one server process (attempts in flight are counted per process). */
export function createSignInThrottle(db: Db) {
  const inFlight = new Map<string, number>();
  const take = (key: string) => inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
  const give = (key: string) => {
    const left = (inFlight.get(key) ?? 1) - 1;
    if (left > 0) inFlight.set(key, left);
    else inFlight.delete(key);
  };

  return {
    /**
     * Waits until this attempt may check a password, or answers when it is refused. Call
     * `finish` with the outcome once the password is checked.
     */
    async admit(emailInput: string, address: string): Promise<Admission> {
      const email = emailInput.toLowerCase();
      const pairKey = `pair:${email}|${address}`;
      const addressKey = `ip:${address}`;
      const accountKey = `email:${email}`;
      const windows = {
        [pairKey]: PAIR_LIMIT.windowMs,
        [addressKey]: ADDRESS_LIMIT.windowMs,
        [accountKey]: ACCOUNT_WINDOW_MS,
      };
      const known = await isKnownAddress(db, email, address);
      // A known pair under attack is checked one attempt at a time, each after the delay.
      const allowance = (limit: Limit) => (known ? 1 : limit.maxFailures);
      const queuedUntil = Date.now() + MAX_QUEUE_MS;

      for (;;) {
        const counters = await readCounters(db, windows);
        const pair = counters.get(pairKey) ?? { failures: 0, lockedUntil: null };
        const addr = counters.get(addressKey) ?? { failures: 0, lockedUntil: null };
        const account = counters.get(accountKey) ?? { failures: 0, lockedUntil: null };
        const pairLocked = pair.lockedUntil !== null || pair.failures >= PAIR_LIMIT.maxFailures;
        const addressLocked = addr.lockedUntil !== null || addr.failures >= ADDRESS_LIMIT.maxFailures;

        if (!known && (pairLocked || addressLocked)) {
          const until = Math.max(pair.lockedUntil?.getTime() ?? 0, addr.lockedUntil?.getTime() ?? 0);
          const seconds = until
            ? Math.ceil((until - Date.now()) / 1000)
            : Math.ceil(PAIR_LIMIT.lockMs / 1000);
          return { admitted: false, retryAfterSeconds: Math.max(1, seconds) };
        }

        // Attempts in flight may all turn out wrong: together with the failures they must fit
        // the limits. Known pairs go one at a time once someone fails there.
        const pairRoom = known
          ? !pairLocked || (inFlight.get(pairKey) ?? 0) < allowance(PAIR_LIMIT)
          : pair.failures + (inFlight.get(pairKey) ?? 0) < PAIR_LIMIT.maxFailures;
        const addressRoom =
          known || addr.failures + (inFlight.get(addressKey) ?? 0) < ADDRESS_LIMIT.maxFailures;
        if (pairRoom && addressRoom) {
          take(pairKey);
          take(addressKey);
          const delay = !known || pairLocked ? accountDelayMs(account.failures) : 0;
          let finished = false;
          const finish = async (outcome: 'right' | 'wrong', accountId?: string) => {
            if (finished) return;
            finished = true;
            try {
              if (outcome === 'wrong') {
                await recordFailure(db, pairKey, PAIR_LIMIT.windowMs, PAIR_LIMIT);
                await recordFailure(db, addressKey, ADDRESS_LIMIT.windowMs, ADDRESS_LIMIT);
                await recordFailure(db, accountKey, ACCOUNT_WINDOW_MS);
              } else {
                // The owner is in: the delays and this pair's count start afresh.
                await db.delete(signInAttempts).where(sql`${signInAttempts.key} in ${[pairKey, accountKey]}`);
                if (accountId) await rememberAddress(db, accountId, address);
              }
            } finally {
              give(pairKey);
              give(addressKey);
            }
          };
          if (delay) await sleep(delay);
          return { admitted: true, finish };
        }
        if (Date.now() > queuedUntil) {
          return { admitted: false, retryAfterSeconds: Math.ceil(QUEUE_POLL_MS / 1000) + 1 };
        }
        await sleep(QUEUE_POLL_MS);
      }
    },
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;

async function rememberAddress(db: Db, accountId: string, address: string): Promise<void> {
  const now = new Date();
  await db
    .insert(knownSignInAddresses)
    .values({ accountId, address, lastSuccessAt: now })
    .onConflictDoUpdate({
      target: [knownSignInAddresses.accountId, knownSignInAddresses.address],
      set: { lastSuccessAt: now },
    });
}

/**
 * Forgets an account's failures everywhere (its password was just reset or set by an admin): the
 * delays end and no address stays locked for it.
 */
export async function clearAccountFailures(db: Db, emailInput: string): Promise<void> {
  const email = emailInput.toLowerCase();
  const pairs = `pair:${escapeLikePattern(email)}|%`;
  await db
    .delete(signInAttempts)
    .where(sql`${signInAttempts.key} = ${`email:${email}`} or ${signInAttempts.key} like ${pairs}`);
}
