import { randomInt } from 'node:crypto';
import type { CarType, TripStatus } from '@bmet/shared/constants';
import type { Db } from '../src/db/client';
import { and, gte, lt } from 'drizzle-orm';
import { driverDocuments, trips } from '../src/db/schema';
import { createCustomer, createDriver, createTrip, type TripRow } from '../src/seed/factories';
import { createStaff, type Staff } from './trip-fixtures';

const DAY = 86_400_000;

/** A date of a day `offset` days after `day` (YYYY-MM-DD). */
export function addDays(day: string, offset: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + offset * DAY).toISOString().slice(0, 10);
}

/** A moment of a day in India: `at('2005-03-01', '18:30')`. */
export const at = (day: string, time: string) => new Date(`${day}T${time}:00+05:30`);

/**
 * A day years ago with no trip within 10 days of it: the tests share their worker's database, so
 * an admin's figures over a period around it count this world only.
 */
async function quietDay(db: Db): Promise<string> {
  for (;;) {
    // 2001 to about 2017: long before any trip the factories date relative to now.
    const day = new Date(Date.UTC(2001, 0, 1) + randomInt(0, 6000) * DAY).toISOString().slice(0, 10);
    const [near] = await db
      .select({ id: trips.id })
      .from(trips)
      .where(
        and(
          gte(trips.createdAt, at(addDays(day, -10), '00:00')),
          lt(trips.createdAt, at(addDays(day, 10), '00:00')),
        ),
      )
      .limit(1);
    if (!near) return day;
  }
}

/**
 * Two city dealers (two franchises under A, one under B), a driver of each franchise and one of no
 * franchise, and trips over three days D to D+2 in India, with a trip just before and one just
 * after the period. Fares and distances are round so that totals can be written out:
 *
 * | trip       | driver | day, time (IST) | status    | car   | fare  | km | reason              |
 * | a1Done     | a1     | D 09:00         | completed | sedan | 200   | 10 |                     |
 * | a1Late     | a1     | D+1 18:30       | completed | sedan | 300.5 | 12 |                     |
 * | a1Off      | a1     | D+1 10:00       | cancelled | sedan | 90    | 3  | Changed my plans    |
 * | a2Going    | a2     | D+2 23:59:59    | started   | suv   | 400   | 20 |                     |
 * | a2Off      | a2     | D 08:00         | cancelled | suv   | 100   | 4  | Changed my plans    |
 * | a2Silent   | a2     | D 08:30         | cancelled | suv   | null  | null | (none)            |
 * | b1Done     | b1     | D 12:00         | completed | mini  | 150   | 5  |                     |
 * | b1Off      | b1     | D+1 07:15       | cancelled | mini  | 80    | 2  | Driver took too long|
 * | loose      | loose  | D 13:00         | assigned  | auto  | 120   | 6  |                     |
 * | waiting    | none   | D 14:00         | requested | mini  | 110   | 5  |                     |
 * | mistake    | none   | D+2 01:00       | cancelled | auto  | 70    | 2  | Booked by mistake   |
 * | before     | a1     | D-1 23:59       | completed | sedan | 999   | 9  |                     |
 * | after      | b1     | D+3 00:00       | completed | mini  | 999   | 9  |                     |
 *
 * Drivers now: a1 reported a position 5 minutes ago and has two documents awaiting review; a2
 * reported 20 minutes ago and has an approved one; b1 reported a minute ago and has one awaiting
 * review; the loose driver has no position. Two customers joined in the period, one before it.
 */
export async function createDashboardWorld(db: Db) {
  const day = await quietDay(db);
  const admin = await createStaff(db, { role: 'admin' });
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
  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
  const drivers = {
    a1: await createDriver(db, {
      franchiseId: franchiseA1.id,
      state: 'maharashtra',
      carType: 'sedan',
      positionAt: minutesAgo(5),
    }),
    a2: await createDriver(db, {
      franchiseId: franchiseA2.id,
      state: 'maharashtra',
      carType: 'suv',
      positionAt: minutesAgo(20),
    }),
    b1: await createDriver(db, {
      franchiseId: franchiseB1.id,
      state: 'karnataka',
      carType: 'mini',
      positionAt: minutesAgo(1),
    }),
    loose: await createDriver(db, { franchiseId: null, state: null, carType: 'auto', positionAt: null }),
  };
  await db.insert(driverDocuments).values([
    { driverId: drivers.a1.id, key: 'panCard', status: 'submitted', objectKey: 'images/x/pan.jpg' },
    { driverId: drivers.a1.id, key: 'driverLicence', status: 'submitted', objectKey: 'images/x/dl.jpg' },
    { driverId: drivers.a2.id, key: 'panCard', status: 'approved', objectKey: 'images/x/pan.jpg' },
    { driverId: drivers.b1.id, key: 'rcCertificate', status: 'submitted', objectKey: 'images/x/rc.jpg' },
  ]);
  const customer = await createCustomer(db, { createdAt: at(addDays(day, -30), '10:00') });
  const joined = [
    await createCustomer(db, { createdAt: at(day, '00:00') }),
    await createCustomer(db, { createdAt: at(addDays(day, 2), '23:00') }),
    await createCustomer(db, { createdAt: at(addDays(day, -1), '23:59') }),
  ];

  const trip = (
    driver: { id: string; carType: string | null } | null,
    status: TripStatus,
    moment: Date,
    carType: CarType,
    fare: number | null,
    km: number | null,
    cancelReason: string | null = null,
  ) => {
    const overrides: Partial<TripRow> = {
      carType,
      price: fare,
      distanceKm: km,
      cancelReason,
      driverId: driver?.id ?? null,
    };
    return createTrip(db, {
      customer,
      driver: driver ? { id: driver.id, state: 'maharashtra', carType: driver.carType } : null,
      status,
      createdAt: moment,
      overrides,
    });
  };
  const d = (offset: number) => addDays(day, offset);
  const made = {
    a1Done: await trip(drivers.a1, 'completed', at(d(0), '09:00'), 'sedan', 200, 10),
    a1Late: await trip(drivers.a1, 'completed', at(d(1), '18:30'), 'sedan', 300.5, 12),
    a1Off: await trip(drivers.a1, 'cancelled', at(d(1), '10:00'), 'sedan', 90, 3, 'Changed my plans'),
    a2Going: await trip(drivers.a2, 'started', new Date(`${d(2)}T23:59:59.999+05:30`), 'suv', 400, 20),
    a2Off: await trip(drivers.a2, 'cancelled', at(d(0), '08:00'), 'suv', 100, 4, 'Changed my plans'),
    a2Silent: await trip(drivers.a2, 'cancelled', at(d(0), '08:30'), 'suv', null, null),
    b1Done: await trip(drivers.b1, 'completed', at(d(0), '12:00'), 'mini', 150, 5),
    b1Off: await trip(drivers.b1, 'cancelled', at(d(1), '07:15'), 'mini', 80, 2, 'Driver took too long'),
    loose: await trip(drivers.loose, 'assigned', at(d(0), '13:00'), 'auto', 120, 6),
    waiting: await trip(null, 'requested', at(d(0), '14:00'), 'mini', 110, 5),
    mistake: await trip(null, 'cancelled', at(d(2), '01:00'), 'auto', 70, 2, 'Booked by mistake'),
    before: await trip(drivers.a1, 'completed', at(d(-1), '23:59'), 'sedan', 999, 9),
    after: await trip(drivers.b1, 'completed', at(d(3), '00:00'), 'mini', 999, 9),
  };
  return {
    day,
    period: { from: day, to: d(2) },
    admin,
    dealerA,
    dealerB,
    franchiseA1,
    franchiseA2,
    franchiseB1,
    drivers,
    joined,
    trips: made,
  };
}

export type DashboardWorld = Awaited<ReturnType<typeof createDashboardWorld>>;
export type { Staff };
