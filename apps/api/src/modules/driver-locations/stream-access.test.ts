import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema';
import { createAccount } from '../../seed/factories';
import { getTestDatabase } from '../../../test/test-database';
import { issueToken } from '../../../test/test-app';
import { findActiveSession } from '../../lib/sessions';
import { createScope } from '../../../test/location-support';
import { findStreamAccess, findVisibleDriver } from './repository';

describe('findStreamAccess', () => {
  let db: Awaited<ReturnType<typeof getTestDatabase>>['db'];
  let s: Awaited<ReturnType<typeof createScope>>;
  beforeAll(async () => {
    ({ db } = await getTestDatabase());
    s = await createScope(db);
  });

  it('answers, in one batch, what the session check and the driver scope answer one by one', async () => {
    const disabled = await createAccount(db, { role: 'admin', disabled: true });
    const callers = [
      ...[s.admin, s.dealer, s.franchise, s.sisterFranchise, s.otherDealer, s.otherFranchise].map(
        (staff) => staff.account,
      ),
      disabled,
    ];
    const opened = await Promise.all(
      callers.map(async (account) => ({ account, ...(await issueToken(db, account)) })),
    );
    // One session revoked: its account's drivers no longer count.
    const revoked = { ...opened[0]!, ...(await issueToken(db, opened[0]!.account)) };
    await db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, revoked.sessionId));
    const driverIds = [
      s.driver.id,
      s.sisterDriver.id,
      s.otherDriver.id,
      s.unassignedDriver.id,
      s.unlocatedDriver.id,
      s.deletedDriver.id,
      '00000000-0000-4000-8000-000000000000',
    ];
    const checks = [...opened, revoked].flatMap((caller) =>
      driverIds.map((driverId) => ({ sessionId: caller.sessionId, accountId: caller.account.id, driverId })),
    );
    // A session presented with another account's id is no session of that account.
    checks.push({ sessionId: opened[1]!.sessionId, accountId: s.admin.account.id, driverId: s.driver.id });

    const expected = await Promise.all(
      checks.map(async (check) => {
        const session = await findActiveSession(db, check.sessionId, check.accountId);
        return session !== null && (await findVisibleDriver(db, session, check.driverId)) !== null;
      }),
    );
    expect(await findStreamAccess(db, checks)).toEqual(expected);
    // Every kind of answer is among them.
    expect(expected.filter(Boolean).length).toBeGreaterThan(5);
    expect(expected.filter((allowed) => !allowed).length).toBeGreaterThan(20);
    expect(await findStreamAccess(db, [])).toEqual([]);
  });
});
