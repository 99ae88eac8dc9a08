import { randomInt, randomUUID } from 'node:crypto';
import type { TripStatus } from '@bmet/shared/constants';
import type { TripListResponse } from '@bmet/shared/schemas/trip';
import type { Db } from '../src/db/client';
import { accounts } from '../src/db/schema';
import { createCustomer, createDriver, createTrip, type TripRow } from '../src/seed/factories';
import { authHeader, issueToken, type TestApp } from './test-app';

/** A word of letters no other test uses: trips titled with it are found by searching for it. */
export function uniqueTag(): string {
  return Array.from({ length: 8 }, () => String.fromCharCode(97 + randomInt(26))).join('');
}

export type Staff = typeof accounts.$inferSelect & { headers: { authorization: string } };

/**
 * An account of a role with a token. Nobody signs in with a password here, so the account is
 * stored without hashing one (argon2 takes a while on a busy machine) and the token is issued
 * directly.
 */
export async function createStaff(
  db: Db,
  input: Omit<typeof accounts.$inferInsert, 'email' | 'passwordHash'> & { email?: string },
): Promise<Staff> {
  const [account] = await db
    .insert(accounts)
    .values({
      displayName: `Staff ${uniqueTag()}`,
      ...input,
      email: input.email ?? `${input.role}.${randomUUID()}@test.bookmyetaxi.in`,
      passwordHash: 'not-a-password-hash',
    })
    .returning();
  const { token } = await issueToken(db, account!);
  return { ...account!, headers: authHeader(token) };
}

const HOUR = 3_600_000;

/**
 * Two city dealers, their franchises (two under A, one under B), a driver of each franchise and
 * one of no franchise, and trips titled with `tag`, one hour apart, newest first in this order:
 * a1's completed and paid sedan trip, a2's started suv trip, b1's completed mini trip, the loose
 * driver's assigned auto trip, a requested mini trip without a driver, an erickshaw trip cancelled
 * before any driver took it.
 */
export async function createTripWorld(db: Db) {
  const tag = uniqueTag();
  const admin = await createStaff(db, { role: 'admin', displayName: `Admin ${tag}` });
  const dealerA = await createStaff(db, { role: 'city_dealer', state: 'maharashtra' });
  const dealerB = await createStaff(db, { role: 'city_dealer', state: 'karnataka' });
  const franchiseA1 = await createStaff(db, {
    role: 'franchise',
    state: 'maharashtra',
    dealerId: dealerA.id,
  });
  const franchiseA2 = await createStaff(db, {
    role: 'franchise',
    state: 'maharashtra',
    dealerId: dealerA.id,
  });
  const franchiseB1 = await createStaff(db, { role: 'franchise', state: 'karnataka', dealerId: dealerB.id });
  const drivers = {
    a1: await createDriver(db, { franchiseId: franchiseA1.id, state: 'maharashtra', carType: 'sedan' }),
    a2: await createDriver(db, { franchiseId: franchiseA2.id, state: 'maharashtra', carType: 'suv' }),
    b1: await createDriver(db, { franchiseId: franchiseB1.id, state: 'karnataka', carType: 'mini' }),
    loose: await createDriver(db, { franchiseId: null, state: null, carType: 'auto' }),
  };
  const customer = await createCustomer(db, { name: `Ravi Kumar ${tag}`, phoneNumber: '+919812345678' });
  const start = Date.now() - 10 * HOUR;
  const trip = (
    n: number,
    driver: { id: string; carType: string | null } | null,
    status: TripStatus,
    overrides: Partial<TripRow> = {},
  ) =>
    createTrip(db, {
      customer,
      driver: driver ? { id: driver.id, state: 'maharashtra', carType: driver.carType } : null,
      status,
      createdAt: new Date(start - n * HOUR),
      overrides: { title: `Ravi Kumar ${tag}`, ...overrides },
    });
  const trips = {
    a1: await trip(0, drivers.a1, 'completed', { paid: true, carType: 'sedan' }),
    a2: await trip(1, drivers.a2, 'started', { paid: false, carType: 'suv' }),
    b1: await trip(2, drivers.b1, 'completed', { paid: false, carType: 'mini' }),
    loose: await trip(3, drivers.loose, 'assigned', { carType: 'auto' }),
    requested: await trip(4, null, 'requested', { carType: 'mini' }),
    cancelled: await trip(5, null, 'cancelled', { driverId: null, carType: 'erickshaw' }),
  };
  return {
    tag,
    admin,
    dealerA,
    dealerB,
    franchiseA1,
    franchiseA2,
    franchiseB1,
    drivers,
    customer,
    trips,
  };
}

export type TripWorld = Awaited<ReturnType<typeof createTripWorld>>;

export const notFoundBody = { error: 'Not found.', code: 'NOT_FOUND' };

export const idsOf = (body: TripListResponse) => Object.keys(body.data);

/** GET as a staff member. */
export const getAs = (t: TestApp, who: Staff, url: string) =>
  t.app.inject({ method: 'GET', url, headers: who.headers });

/** POST JSON as a staff member. */
export const postAs = (t: TestApp, who: Staff, url: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url, headers: who.headers, payload: payload as Record<string, unknown> });
