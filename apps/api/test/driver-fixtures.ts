import { randomInt } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { State } from '@bmet/shared/constants';
import type { Db } from '../src/db/client';
import { auditLog, driverChecks } from '../src/db/schema';
import { createAccount, createDriver, type AccountRow } from '../src/seed/factories';
import { authHeader, issueToken, type TestApp } from './test-app';

/** A word of letters no other test uses: drivers named with it are found by searching for it. */
export function uniqueTag(): string {
  return Array.from({ length: 8 }, () => String.fromCharCode(97 + randomInt(26))).join('');
}

export type Staff = AccountRow & { headers: { authorization: string } };

/** An account of a role with a token (issued directly: no argon2 round trip per account). */
export async function createStaff(db: Db, input: Parameters<typeof createAccount>[1]): Promise<Staff> {
  const account = await createAccount(db, input);
  const { token } = await issueToken(db, account);
  return { ...account, headers: authHeader(token) };
}

/**
 * Two city dealers in two states, their franchises, and a driver of each franchise plus one of no
 * franchise; every driver's name carries `tag`.
 */
export async function createDriverWorld(db: Db) {
  const tag = uniqueTag();
  const admin = await createStaff(db, { role: 'admin', displayName: `Admin ${tag}` });
  const dealerA = await createStaff(db, { role: 'city_dealer', state: 'maharashtra' });
  const dealerB = await createStaff(db, { role: 'city_dealer', state: 'karnataka' });
  const franchiseA1 = await createStaff(db, {
    role: 'franchise',
    state: 'maharashtra',
    dealerId: dealerA.id,
    displayName: `Pune ${tag} Cabs`,
  });
  const franchiseA2 = await createStaff(db, {
    role: 'franchise',
    state: 'maharashtra',
    dealerId: dealerA.id,
  });
  const franchiseB1 = await createStaff(db, { role: 'franchise', state: 'karnataka', dealerId: dealerB.id });
  const driver = (name: string, franchiseId: string | null, state: State | null) =>
    createDriver(db, { name: `${name} ${tag}`, franchiseId, state });
  const drivers = {
    a1: await driver('Anil Pawar', franchiseA1.id, 'maharashtra'),
    a2: await driver('Bhavna Kulkarni', franchiseA2.id, 'maharashtra'),
    b1: await driver('Chetan Gowda', franchiseB1.id, 'karnataka'),
    loose: await driver('Deepa Nair', null, null),
  };
  return { tag, admin, dealerA, dealerB, franchiseA1, franchiseA2, franchiseB1, drivers };
}

export type DriverWorld = Awaited<ReturnType<typeof createDriverWorld>>;

/** The audit rows of one record, oldest first. */
export function auditRowsOf(db: Db, resource: string, resourceId: string) {
  return db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.resource, resource), eq(auditLog.resourceId, resourceId)))
    .orderBy(auditLog.id);
}

export const notFoundBody = { error: 'Not found.', code: 'NOT_FOUND' };

/** GET as a staff member. */
export const getAs = (t: TestApp, who: Staff, url: string) =>
  t.app.inject({ method: 'GET', url, headers: who.headers });

/** India's date `days` from today (YYYY-MM-DD). */
export const indiaDay = (days = 0) =>
  new Date(Date.now() + 330 * 60_000 + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Records every check the guidelines ask of a driver, in order: verification and fitness passed
 * and valid for a year, an induction of 40 hours a month ago, health and term cover of the amounts
 * asked. A driver with these and the mandatory documents in order is compliant.
 */
export async function recordChecksInOrder(db: Db, driverId: string): Promise<void> {
  const done = indiaDay(-30);
  const until = indiaDay(335);
  await db.insert(driverChecks).values([
    {
      driverId,
      kind: 'police_verification',
      doneOn: done,
      reference: 'PV',
      result: 'passed',
      expiresOn: until,
    },
    { driverId, kind: 'medical_fitness', doneOn: done, reference: 'MED', result: 'passed', expiresOn: until },
    { driverId, kind: 'induction_training', doneOn: done, reference: 'IND', hours: 40 },
    { driverId, kind: 'health_insurance', doneOn: done, reference: 'HI', amount: 500_000, expiresOn: until },
    { driverId, kind: 'term_insurance', doneOn: done, reference: 'TI', amount: 1_000_000, expiresOn: until },
  ]);
}

/** What a driver without any check lacks: every check the guidelines ask. */
export const NO_CHECKS = [
  { check: 'police_verification', problem: 'missing' },
  { check: 'medical_fitness', problem: 'missing' },
  { check: 'induction_training', problem: 'missing' },
  { check: 'refresher_training', problem: 'overdue' },
  { check: 'health_insurance', problem: 'missing' },
  { check: 'term_insurance', problem: 'missing' },
] as const;
