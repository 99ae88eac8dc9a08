import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { State } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import { driverRatings, trips } from '../../db/schema';
import { createCustomer, createDriver, createTrip, insertDriverRatings } from '../../seed/factories';
import { useTestApp } from '../../../test/test-app';
import {
  createDriverWorld,
  getAs,
  notFoundBody,
  type DriverWorld,
  type Staff,
} from '../../../test/driver-fixtures';

const t = useTestApp();
let w: DriverWorld;

beforeAll(async () => {
  w = await createDriverWorld(t.db);
});

type Page<T> = { data: T[]; nextCursor: string | null };

/** Follows nextCursor to the end, checking every page's size. */
async function walk<T extends { id: string }>(who: Staff, url: string, limit: number) {
  const seen: T[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const response = await getAs(t, who, `${url}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<Page<T>>();
    expect(body.data.length).toBeLessThanOrEqual(limit);
    seen.push(...body.data);
    cursor = body.nextCursor;
    pages++;
  } while (cursor && pages < 50);
  return { seen, pages };
}

describe('GET /api/drivers/driver/:id/history', () => {
  let driver: Awaited<ReturnType<typeof createDriver>>;
  let completed: Awaited<ReturnType<typeof createTrip>>[];

  beforeAll(async () => {
    driver = await createDriver(t.db, { franchiseId: w.franchiseA1.id, state: 'maharashtra' });
    const other = await createDriver(t.db, { franchiseId: w.franchiseA1.id, state: 'maharashtra' });
    const customer = await createCustomer(t.db, { name: 'Kavita Joshi' });
    const as = (d: typeof driver) => ({ id: d.id, state: d.state as State, carType: d.carType });
    const base = Date.UTC(2026, 9, 1, 12, 0, 0);
    completed = [];
    for (let i = 0; i < 7; i++) {
      completed.push(
        await createTrip(t.db, {
          customer,
          driver: as(driver),
          status: 'completed',
          // Three trips share one instant: the id orders them.
          createdAt: new Date(base + Math.min(i, 4) * 60_000),
        }),
      );
    }
    for (const status of ['cancelled', 'started', 'assigned'] as const) {
      await createTrip(t.db, { customer, driver: as(driver), status, createdAt: new Date(base + 3_600_000) });
    }
    await createTrip(t.db, { customer, driver: as(other), status: 'completed', createdAt: new Date(base) });
  });

  it("answers the driver's completed trips, newest first, with the spec's field names", async () => {
    const response = await getAs(t, w.franchiseA1, `/api/drivers/driver/${driver.id}/history?limit=100`);
    expect(response.statusCode).toBe(200);
    const body = response.json<Page<{ id: string }>>();
    expect(body.nextCursor).toBeNull();
    const expected = [...completed].sort((a, b) =>
      a.createdAt.getTime() === b.createdAt.getTime()
        ? a.id < b.id
          ? 1
          : -1
        : b.createdAt.getTime() - a.createdAt.getTime(),
    );
    expect(body.data.map((entry) => entry.id)).toEqual(expected.map((trip) => trip.id));
    const trip = expected[0]!;
    expect(body.data[0]).toEqual({
      id: trip.id,
      customerName: 'Kavita Joshi',
      pickUpLocation: trip.pickupLocation,
      destinationLocation: trip.destinationLocation,
      distance: trip.distanceKm,
      price: trip.price,
      dateTime: trip.createdAt.toISOString(),
    });
  });

  it('pages with the cursor: every trip once, across equal times', async () => {
    const { seen, pages } = await walk<{ id: string }>(
      w.admin,
      `/api/drivers/driver/${driver.id}/history`,
      2,
    );
    expect(pages).toBe(4);
    expect(seen.map((entry) => entry.id).sort()).toEqual(completed.map((trip) => trip.id).sort());
  });

  it('keeps times finer than a millisecond apart in the cursor', async () => {
    const fine = await createDriver(t.db, { franchiseId: w.franchiseA1.id, state: 'maharashtra' });
    const made = [];
    for (let i = 0; i < 5; i++) {
      made.push(
        await createTrip(t.db, {
          driver: { id: fine.id, state: 'maharashtra', carType: fine.carType },
          status: 'completed',
        }),
      );
    }
    // Microseconds apart: a cursor at millisecond precision would skip or repeat some.
    for (const [i, trip] of made.entries()) {
      await t.db
        .update(trips)
        .set({
          createdAt: sql`timestamptz '2026-10-02 10:00:00.000100+00' + ${i * 100} * interval '1 microsecond'`,
        })
        .where(eq(trips.id, trip.id));
    }
    const { seen } = await walk<{ id: string }>(w.admin, `/api/drivers/driver/${fine.id}/history`, 1);
    expect(seen.map((entry) => entry.id)).toEqual(made.map((trip) => trip.id).reverse());
  });

  it('answers an empty history', async () => {
    const response = await getAs(t, w.admin, `/api/drivers/driver/${w.drivers.loose.id}/history`);
    expect(response.json()).toEqual({ data: [], nextCursor: null });
  });

  it('answers 400 to a cursor it did not hand out', async () => {
    const forged = Buffer.from(JSON.stringify({ at: '2026-01-01', id: randomUUID() })).toString('base64url');
    for (const cursor of ['%%%', forged]) {
      const response = await getAs(t, w.admin, `/api/drivers/driver/${driver.id}/history?cursor=${cursor}`);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: m.invalidCursor(),
        code: 'VALIDATION',
        fieldErrors: { cursor: [m.invalidCursor()] },
      });
    }
  });

  it.each(['dealerB', 'franchiseA2'] as const)(
    'answers a %s 404 for a driver outside its scope',
    async (who) => {
      const response = await getAs(t, w[who], `/api/drivers/driver/${driver.id}/history`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(notFoundBody);
    },
  );
});

describe('GET /api/drivers/driver/:id/ratings', () => {
  let driver: Awaited<ReturnType<typeof createDriver>>;

  beforeAll(async () => {
    driver = await createDriver(t.db, { franchiseId: w.franchiseB1.id });
    const day = 86_400_000;
    const now = Date.now();
    await insertDriverRatings(t.db, driver.id, [
      { customerName: 'Asha', description: 'Smooth ride', rating: 5, createdAt: new Date(now - 5 * day) },
      { customerName: 'Bala', description: 'Late', rating: 2, createdAt: new Date(now - 4 * day) },
      {
        customerName: 'Chitra',
        description: 'No stars given',
        rating: null,
        createdAt: new Date(now - 3 * day),
      },
      { customerName: 'Dev', description: 'Polite', rating: 4, createdAt: new Date(now - 2 * day) },
      { customerName: 'Esha', description: 'Clean car', rating: 5, createdAt: new Date(now - day) },
    ]);
  });

  it('answers entries newest first, "not rated" as null, and the average and count of the rated', async () => {
    const response = await getAs(t, w.dealerB, `/api/drivers/driver/${driver.id}/ratings`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.summary).toEqual({ average: 4, count: 4 });
    expect(body.nextCursor).toBeNull();
    expect(body.data.map((entry: { customerName: string }) => entry.customerName)).toEqual([
      'Esha',
      'Dev',
      'Chitra',
      'Bala',
      'Asha',
    ]);
    expect(body.data[2]).toEqual({
      id: expect.any(String),
      customerName: 'Chitra',
      description: 'No stars given',
      rating: null,
      date: expect.any(String),
    });
  });

  it('pages with the cursor, the summary always over every entry', async () => {
    const first = await getAs(t, w.admin, `/api/drivers/driver/${driver.id}/ratings?limit=2`);
    expect(first.json().summary).toEqual({ average: 4, count: 4 });
    const { seen, pages } = await walk<{ id: string; customerName: string }>(
      w.admin,
      `/api/drivers/driver/${driver.id}/ratings`,
      2,
    );
    expect(pages).toBe(3);
    expect(seen.map((entry) => entry.customerName)).toEqual(['Esha', 'Dev', 'Chitra', 'Bala', 'Asha']);
  });

  it('shows a rating outside 1 to 5 stored by an old app as not rated, and leaves it out of the average', async () => {
    const odd = await createDriver(t.db, { franchiseId: w.franchiseB1.id });
    await t.db.insert(driverRatings).values([
      { driverId: odd.id, customerName: 'X', rating: 0 },
      { driverId: odd.id, customerName: 'Y', rating: 3 },
    ]);
    const body = (await getAs(t, w.admin, `/api/drivers/driver/${odd.id}/ratings`)).json();
    expect(body.summary).toEqual({ average: 3, count: 1 });
    expect(body.data.map((entry: { rating: number | null }) => entry.rating).sort()).toEqual([3, null]);
  });

  it('answers an empty list with a null average', async () => {
    const response = await getAs(t, w.admin, `/api/drivers/driver/${w.drivers.loose.id}/ratings`);
    expect(response.json()).toEqual({ data: [], summary: { average: null, count: 0 }, nextCursor: null });
  });

  it.each(['dealerA', 'franchiseA1'] as const)(
    'answers a %s 404 for a driver outside its scope',
    async (who) => {
      const response = await getAs(t, w[who], `/api/drivers/driver/${driver.id}/ratings`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(notFoundBody);
    },
  );

  it('refuses a page size over 100', async () => {
    const response = await getAs(t, w.admin, `/api/drivers/driver/${driver.id}/ratings?limit=101`);
    expect(response.statusCode).toBe(400);
  });
});
