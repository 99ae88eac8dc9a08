import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { driverDocuments, drivers } from '../db/schema';
import { createAccount, createDriver } from '../seed/factories';
import { getTestDatabase } from '../../test/test-database';
import { storePositions } from './apply';

// Two transactions at once need two connections: only a server database has them.
describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'positions from the apps beside a review of documents',
  () => {
    it('are stored although the two took the same drivers in opposite order', async () => {
      const { db } = await getTestDatabase();
      const franchise = await createAccount(db, { role: 'franchise' });
      const run = randomUUID().slice(0, 8);
      const first = await createDriver(db, { franchiseId: franchise.id });
      const second = await createDriver(db, { franchiseId: franchise.id });
      await db
        .update(drivers)
        .set({ firebaseKey: `first-${run}` })
        .where(eq(drivers.id, first.id));
      await db
        .update(drivers)
        .set({ firebaseKey: `second-${run}` })
        .where(eq(drivers.id, second.id));

      // Staff submit a document of the second driver, then of the first, in one transaction: each
      // statement's triggers take its driver's row. Between the two, the link stores a batch of
      // positions of both drivers, the first before the second: it takes the first driver's row and
      // waits for the second's, which the review holds while it waits for the first's.
      let submittedSecond!: () => void;
      const holding = new Promise<void>((resolve) => (submittedSecond = resolve));
      let positionsWaiting!: () => void;
      const waiting = new Promise<void>((resolve) => (positionsWaiting = resolve));
      const review = db.transaction(async (tx) => {
        await tx
          .insert(driverDocuments)
          .values({ driverId: second.id, key: 'driverLicence', status: 'submitted' });
        submittedSecond();
        await waiting;
        await tx
          .insert(driverDocuments)
          .values({ driverId: first.id, key: 'driverLicence', status: 'submitted' });
      });
      await holding;
      const stored = storePositions(db, [
        { key: `first-${run}`, lat: 19.07, long: 72.87 },
        { key: `second-${run}`, lat: 18.52, long: 73.85 },
      ]);
      // Long enough for the batch to take the first driver's row and wait for the second's.
      await new Promise((resolve) => setTimeout(resolve, 300));
      positionsWaiting();

      const [reviewed, events] = await Promise.allSettled([review, stored]);
      // The database ends a deadlock by failing one of the two: whichever it is, it tries again.
      expect(reviewed.status).toBe('fulfilled');
      expect(events.status).toBe('fulfilled');
      const rows = await db
        .select({ id: drivers.id, lat: drivers.lat, long: drivers.long })
        .from(drivers)
        .where(inArray(drivers.id, [first.id, second.id]));
      expect(Object.fromEntries(rows.map((row) => [row.id, [row.lat, row.long]]))).toEqual({
        [first.id]: [19.07, 72.87],
        [second.id]: [18.52, 73.85],
      });
      const documents = await db
        .select({ driverId: driverDocuments.driverId })
        .from(driverDocuments)
        .where(inArray(driverDocuments.driverId, [first.id, second.id]));
      expect(documents).toHaveLength(2);
    });
  },
);
