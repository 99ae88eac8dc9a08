import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { signInAttempts } from '../../db/schema';

/**
 * Sign-in throttling that slows guessing without handing attackers a way to lock staff out, after
 * OWASP's device-cookie scheme (device-cookie.ts).
 *
 * - A browser holding a device entry for the account (it signed in there before) is trusted: only
 *   the failures made with that very entry count against it (5 in 15 minutes lock that entry, and
 *   no other). Others' guesses, from the same address or anywhere, never lock it out or slow it.
 * - Every other attempt is untrusted and limited the same wherever it comes from: 5 failures per
 *   account in 15 minutes lock the account to untrusted browsers, with growing delays before, and
 *   20 failures from one address (any emails) lock that address to untrusted browsers.
 * - A burst of parallel attempts cannot check more passwords than the limits allow: attempts in
 *   flight count against the limit, and those over it wait for the others' outcome, so that
 *   right passwords (which never count) never push anyone out.
 * - The second step of a sign-in goes through the same counters: a wrong code is a failure.
 * Unknown emails go through exactly the same steps, so neither answers nor timing tell them apart.
 */

export type Limit = { maxFailures: number; windowMs: number; lockMs: number };

/** Failures of one trusted browser (its device entry) for its account. */
export const DEVICE_LIMIT: Limit = { maxFailures: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
/** Failures for one account from all untrusted browsers together. */
export const UNTRUSTED_LIMIT: Limit = { maxFailures: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
/** Failures from one address without a device entry, any emails. */
export const ADDRESS_LIMIT: Limit = { maxFailures: 20, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
const DELAY_AFTER_FAILURES = 3;
const MAX_DELAY_MS = 5000;
// How long an attempt over the in-flight allowance waits for the others before it is refused.
const MAX_QUEUE_MS = 10_000;
const QUEUE_POLL_MS = 25;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The delay before an untrusted attempt is checked, from the account's recent untrusted failures. */
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
async function recordFailure(db: Db, key: string, limit: Limit): Promise<void> {
  const now = new Date();
  const nowSql = sql`${now.toISOString()}::timestamptz`;
  const windowStart = sql`${new Date(now.getTime() - limit.windowMs).toISOString()}::timestamptz`;
  const restart = sql`(${signInAttempts.windowStartedAt} < ${windowStart} and (${signInAttempts.lockedUntil} is null or ${signInAttempts.lockedUntil} <= ${nowSql}))`;
  const failures = sql`case when ${restart} then 1 else ${signInAttempts.failures} + 1 end`;
  const lockUntil = sql`case when ${failures} >= ${limit.maxFailures} and (${signInAttempts.lockedUntil} is null or ${signInAttempts.lockedUntil} <= ${nowSql}) then ${new Date(now.getTime() + limit.lockMs).toISOString()}::timestamptz when ${restart} then null else ${signInAttempts.lockedUntil} end`;
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

export type Admission =
  | { admitted: true; finish: (outcome: 'right' | 'wrong') => Promise<void> }
  | { admitted: false; retryAfterSeconds: number };

/** Who is trying: the email typed, the client address, and the browser's device entry for that account. */
export type Attempt = { email: string; address: string; deviceNonce: string | null };

/** The counters an attempt is held to, with their limits. */
function countersOf(attempt: Attempt): { keys: [string, Limit][]; delayKey: string | null } {
  const email = attempt.email.toLowerCase();
  if (attempt.deviceNonce) return { keys: [[`device:${attempt.deviceNonce}`, DEVICE_LIMIT]], delayKey: null };
  const untrusted = `untrusted:${email}`;
  return {
    keys: [
      [untrusted, UNTRUSTED_LIMIT],
      [`ip:${attempt.address}`, ADDRESS_LIMIT],
    ],
    delayKey: untrusted,
  };
}

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
     * Waits until this attempt may check a password (or a second-factor code), or answers when it
     * is refused. Call `finish` with the outcome once it is checked.
     */
    async admit(attempt: Attempt): Promise<Admission> {
      const { keys, delayKey } = countersOf(attempt);
      const windows = Object.fromEntries(keys.map(([key, limit]) => [key, limit.windowMs]));
      const queuedUntil = Date.now() + MAX_QUEUE_MS;

      for (;;) {
        const counters = await readCounters(db, windows);
        const counter = (key: string) => counters.get(key) ?? { failures: 0, lockedUntil: null };
        const locked = keys.filter(([key, limit]) => {
          const { failures, lockedUntil } = counter(key);
          return lockedUntil !== null || failures >= limit.maxFailures;
        });
        if (locked.length > 0) {
          const until = Math.max(...locked.map(([key]) => counter(key).lockedUntil?.getTime() ?? 0));
          const seconds = until
            ? Math.ceil((until - Date.now()) / 1000)
            : Math.ceil(UNTRUSTED_LIMIT.lockMs / 1000);
          return { admitted: false, retryAfterSeconds: Math.max(1, seconds) };
        }

        // Attempts in flight may all turn out wrong: together with the failures they must fit
        // the limits.
        const room = keys.every(
          ([key, limit]) => counter(key).failures + (inFlight.get(key) ?? 0) < limit.maxFailures,
        );
        if (room) {
          for (const [key] of keys) take(key);
          const delay = delayKey ? accountDelayMs(counter(delayKey).failures) : 0;
          let finished = false;
          const finish = async (outcome: 'right' | 'wrong') => {
            if (finished) return;
            finished = true;
            try {
              if (outcome === 'wrong') {
                for (const [key, limit] of keys) await recordFailure(db, key, limit);
              } else {
                // The owner is in: the count of this browser (or of untrusted ones) starts afresh;
                // an address's count of other emails stays.
                await db.delete(signInAttempts).where(eq(signInAttempts.key, keys[0]![0]));
              }
            } finally {
              for (const [key] of keys) give(key);
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

/**
 * Forgets an account's failures everywhere (its password was just reset or set by an admin): the
 * delays end and no address stays locked for it.
 */
export async function clearAccountFailures(db: Db, emailInput: string): Promise<void> {
  const email = emailInput.toLowerCase();
  await db.delete(signInAttempts).where(eq(signInAttempts.key, `untrusted:${email}`));
}
