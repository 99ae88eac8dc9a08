import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import {
  downloadTickets,
  passwordResetTokens,
  secondFactorChallenges,
  sessions,
  signInAttempts,
} from '../../db/schema';
import { createAccount } from '../../seed/factories';
import { getTestDatabase } from '../../../test/test-database';
import { CLEANUP_LOCK, removeExpiredRows } from './expired-rows';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('removeExpiredRows', () => {
  it('deletes what nothing reads any more and keeps the rest', async () => {
    const { db } = await getTestDatabase();
    const now = new Date();
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const account = await createAccount(db, { role: 'franchise' });
    const session = (expiresAt: Date, revokedAt: Date | null = null) => ({
      id: randomUUID(),
      accountId: account.id,
      expiresAt,
      revokedAt,
    });
    const gone = [session(ago(2 * DAY)), session(new Date(now.getTime() + DAY), ago(2 * DAY))];
    const kept = [
      session(ago(HOUR)),
      session(new Date(now.getTime() + DAY)),
      session(new Date(now.getTime() + DAY), ago(HOUR)),
    ];
    await db.insert(sessions).values([...gone, ...kept]);

    const key = (name: string) => `${name}:${account.id}`;
    await db.insert(signInAttempts).values([
      { key: key('old'), failures: 3, windowStartedAt: ago(2 * DAY) },
      {
        key: key('old-but-locked'),
        failures: 9,
        windowStartedAt: ago(2 * DAY),
        lockedUntil: new Date(now.getTime() + HOUR),
      },
      { key: key('recent'), failures: 1, windowStartedAt: ago(HOUR) },
    ]);
    await db.insert(passwordResetTokens).values([
      { accountId: account.id, tokenHash: `old-${account.id}`, expiresAt: ago(2 * DAY) },
      { accountId: account.id, tokenHash: `live-${account.id}`, expiresAt: new Date(now.getTime() + HOUR) },
    ]);
    const ticket = (name: string, expiresAt: Date) => ({
      tokenHash: `${name}-${account.id}`,
      sessionId: kept[1]!.id,
      accountId: account.id,
      path: '/api/trips/export.csv',
      query: '',
      expiresAt,
    });
    await db
      .insert(downloadTickets)
      .values([ticket('old', ago(2 * DAY)), ticket('live', new Date(now.getTime() + 60_000))]);
    await db.insert(secondFactorChallenges).values([
      { tokenHash: `old-${account.id}`, accountId: account.id, purpose: 'sign-in', expiresAt: ago(2 * DAY) },
      { tokenHash: `live-${account.id}`, accountId: account.id, purpose: 'sign-in', expiresAt: ago(HOUR) },
    ]);

    const removed = await removeExpiredRows(db, now);
    // Other tests' rows may be removed too: at least ours, and none that must stay.
    expect(removed!.sessions).toBeGreaterThanOrEqual(2);

    const left = await db
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.accountId, account.id));
    expect(left.map((row) => row.id).sort()).toEqual(kept.map((row) => row.id).sort());
    const attempts = await db
      .select({ key: signInAttempts.key })
      .from(signInAttempts)
      .where(inArray(signInAttempts.key, [key('old'), key('old-but-locked'), key('recent')]));
    expect(attempts.map((row) => row.key).sort()).toEqual([key('old-but-locked'), key('recent')]);
    const tokens = await db
      .select({ hash: passwordResetTokens.tokenHash })
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.accountId, account.id));
    expect(tokens.map((row) => row.hash)).toEqual([`live-${account.id}`]);
    const tickets = await db
      .select({ hash: downloadTickets.tokenHash })
      .from(downloadTickets)
      .where(eq(downloadTickets.accountId, account.id));
    expect(tickets.map((row) => row.hash)).toEqual([`live-${account.id}`]);
    const challenges = await db
      .select({ hash: secondFactorChallenges.tokenHash })
      .from(secondFactorChallenges)
      .where(eq(secondFactorChallenges.accountId, account.id));
    expect(challenges.map((row) => row.hash)).toEqual([`live-${account.id}`]);

    expect(await removeExpiredRows(db, now)).toMatchObject({
      resetTokens: 0,
      downloadTickets: 0,
      secondFactorChallenges: 0,
    });
  });

  // Two instances need two connections: only a server database has them.
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'is skipped by an instance while another one does it',
    async () => {
      const { db } = await getTestDatabase();
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const taken = new Promise<void>((resolve) => (locked = resolve));
      const other = db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${CLEANUP_LOCK})`);
        locked();
        await held;
      });
      await taken;
      try {
        expect(await removeExpiredRows(db as Db)).toBeNull();
      } finally {
        release();
        await other;
      }
      expect(await removeExpiredRows(db as Db)).not.toBeNull();
    },
  );
});
