import { and, eq, gte, isNull, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  StatsCarTypes,
  StatsDaily,
  StatsFranchises,
  StatsHours,
  StatsOverview,
  StatsStates,
} from '@bmet/shared/schemas/dashboard';
import { m } from '@bmet/shared/paraglide/messages';
import { driverDocuments, drivers, trips } from '../../db/schema';
import { useTestApp } from '../../../test/test-app';
import { getAs, type Staff } from '../../../test/trip-fixtures';
import { addDays, createDashboardWorld, type DashboardWorld } from '../../../test/dashboard-fixtures';

const t = useTestApp();
let w: DashboardWorld;

beforeAll(async () => {
  w = await createDashboardWorld(t.db);
});

const query = (period: { from: string; to: string }) =>
  `from=${encodeURIComponent(period.from)}&to=${encodeURIComponent(period.to)}`;

async function stats<T>(who: Staff, path: string, period = w.period): Promise<T> {
  const response = await getAs(t, who, `/api/stats/${path}?${query(period)}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: T }>().data;
}

const overview = (who: Staff, period = w.period) => stats<StatsOverview>(who, 'overview', period);

describe('GET /api/stats/overview', () => {
  it("counts a city dealer's trips of the period, and never another dealer's", async () => {
    expect(await overview(w.dealerA)).toMatchObject({
      trips: 6,
      completed: 2,
      cancelled: 3,
      cancellationRate: 0.5,
      cancelReasons: [
        { reason: 'Changed my plans', trips: 2 },
        { reason: '', trips: 1 },
      ],
      revenue: 500.5,
      averageFare: 250.25,
      averageDistanceKm: 11,
      activeDrivers: 1,
      pendingReviews: 1,
      newCustomers: null,
    });
    expect(await overview(w.dealerB)).toMatchObject({
      trips: 2,
      completed: 1,
      cancelled: 1,
      cancellationRate: 0.5,
      cancelReasons: [{ reason: 'Driver took too long', trips: 1 }],
      revenue: 150,
      averageFare: 150,
      averageDistanceKm: 5,
      activeDrivers: 1,
      pendingReviews: 1,
      newCustomers: null,
    });
  });

  it("counts a franchise's own drivers' trips only", async () => {
    expect(await overview(w.franchiseA1)).toMatchObject({
      trips: 3,
      completed: 2,
      cancelled: 1,
      revenue: 500.5,
      activeDrivers: 1,
      pendingReviews: 1,
      newCustomers: null,
    });
    expect(await overview(w.franchiseA2)).toMatchObject({
      trips: 3,
      completed: 0,
      cancelled: 2,
      revenue: 0,
      averageFare: null,
      averageDistanceKm: null,
      activeDrivers: 0,
      pendingReviews: 0,
    });
  });

  it('counts every trip for an admin, with or without a driver, and the new customers', async () => {
    expect(await overview(w.admin)).toMatchObject({
      trips: 11,
      completed: 3,
      cancelled: 5,
      cancellationRate: 0.4545,
      cancelReasons: [
        { reason: 'Changed my plans', trips: 2 },
        { reason: '', trips: 1 },
        { reason: 'Booked by mistake', trips: 1 },
        { reason: 'Driver took too long', trips: 1 },
      ],
      revenue: 650.5,
      averageFare: 216.83,
      averageDistanceKm: 9,
      newCustomers: 2,
    });
  });

  it("counts an admin's active drivers and drivers awaiting review over every driver", async () => {
    const [active] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(drivers)
      .where(and(isNull(drivers.deletedAt), gte(drivers.positionAt, sql`now() - interval '10 minutes'`)));
    const [pending] = await t.db
      .select({ n: sql<number>`count(distinct ${driverDocuments.driverId})::int` })
      .from(driverDocuments)
      .innerJoin(drivers, eq(drivers.id, driverDocuments.driverId))
      .where(and(isNull(drivers.deletedAt), eq(driverDocuments.status, 'submitted')));
    expect(await overview(w.admin)).toMatchObject({ activeDrivers: active!.n, pendingReviews: pending!.n });
  });

  it('answers zeros and nulls for a period without trips', async () => {
    const empty = { from: addDays(w.day, 10), to: addDays(w.day, 11) };
    expect(await overview(w.dealerA, empty)).toMatchObject({
      trips: 0,
      completed: 0,
      cancelled: 0,
      cancellationRate: null,
      cancelReasons: [],
      revenue: 0,
      averageFare: null,
      averageDistanceKm: null,
    });
  });

  it('reads a period given as moments to the minute, the ends of its days from the trips', async () => {
    // From D 08:15 to D+2 12:00 in India: D+1 whole, a2Off (D 08:00) and a2Going (D+2 23:59) out.
    const period = { from: `${w.day}T08:15:00+05:30`, to: `${addDays(w.day, 2)}T06:30:00Z` };
    expect(await overview(w.dealerA, period)).toMatchObject({
      trips: 4,
      completed: 2,
      cancelled: 2,
      revenue: 500.5,
      cancelReasons: [
        { reason: '', trips: 1 },
        { reason: 'Changed my plans', trips: 1 },
      ],
    });
    // Within two days, no whole day: D 08:15 to D+1 18:30 inclusive (a1Late starts at 18:30).
    const twoEnds = { from: `${w.day}T08:15:00+05:30`, to: `${addDays(w.day, 1)}T13:00:00Z` };
    expect(await overview(w.dealerA, twoEnds)).toMatchObject({ trips: 4, completed: 2, revenue: 500.5 });
    // Short ends, read from the trips and added to D+1: D 20:00 to D+2 03:00.
    const night = { from: `${w.day}T20:00:00+05:30`, to: `${addDays(w.day, 2)}T03:00:00+05:30` };
    expect(await overview(w.dealerA, night)).toMatchObject({
      trips: 2,
      completed: 1,
      cancelled: 1,
      revenue: 300.5,
    });
    const morning = { from: `${w.day}T07:00:00+05:30`, to: `${w.day}T08:45:00+05:30` };
    expect(await overview(w.dealerA, morning)).toMatchObject({ trips: 2, cancelled: 2 });
  });

  it('follows a driver to another franchise, and a trip through its statuses', async () => {
    const before = await overview(w.dealerB);
    const extra = await t.db
      .insert(trips)
      .values({
        title: 'Moved ride',
        driverId: w.drivers.a2.id,
        status: 'requested',
        carType: 'suv',
        price: 55,
        distanceKm: 1,
        createdAt: new Date(`${w.day}T15:00:00+05:30`),
      })
      .returning();
    await t.db.update(drivers).set({ franchiseId: w.franchiseB1.id }).where(eq(drivers.id, w.drivers.a2.id));
    try {
      expect(await overview(w.dealerB)).toMatchObject({
        trips: before.trips + 4,
        cancelled: before.cancelled + 2,
      });
      expect((await overview(w.dealerA)).trips).toBe(3);
      await t.db.update(trips).set({ status: 'completed' }).where(eq(trips.id, extra[0]!.id));
      expect(await overview(w.dealerB)).toMatchObject({
        completed: before.completed + 1,
        revenue: before.revenue + 55,
      });
    } finally {
      await t.db.delete(trips).where(eq(trips.id, extra[0]!.id));
      await t.db
        .update(drivers)
        .set({ franchiseId: w.franchiseA2.id })
        .where(eq(drivers.id, w.drivers.a2.id));
    }
    expect(await overview(w.dealerB)).toMatchObject(before);
    expect((await overview(w.dealerA)).trips).toBe(6);
  });

  it("keeps a deleted driver's trips, as the trip list does, but no longer counts the driver", async () => {
    await t.db.update(drivers).set({ deletedAt: new Date() }).where(eq(drivers.id, w.drivers.b1.id));
    try {
      expect(await overview(w.franchiseB1)).toMatchObject({ trips: 2, activeDrivers: 0, pendingReviews: 0 });
    } finally {
      await t.db.update(drivers).set({ deletedAt: null }).where(eq(drivers.id, w.drivers.b1.id));
    }
  });

  it('counts a document review as it happens', async () => {
    await t.db
      .update(driverDocuments)
      .set({ status: 'approved' })
      .where(eq(driverDocuments.driverId, w.drivers.b1.id));
    expect((await overview(w.dealerB)).pendingReviews).toBe(0);
    await t.db
      .update(driverDocuments)
      .set({ status: 'submitted' })
      .where(eq(driverDocuments.driverId, w.drivers.b1.id));
    expect((await overview(w.dealerB)).pendingReviews).toBe(1);
  });
});

describe('GET /api/stats/daily', () => {
  it('answers every day of the period by status, zeros included', async () => {
    const days = await stats<StatsDaily>(w.dealerA, 'daily');
    const zero = { requested: 0, assigned: 0, started: 0, completed: 0, cancelled: 0 };
    expect(days).toEqual([
      { day: w.day, ...zero, completed: 1, cancelled: 2 },
      { day: addDays(w.day, 1), ...zero, completed: 1, cancelled: 1 },
      { day: addDays(w.day, 2), ...zero, started: 1 },
    ]);
    const admin = await stats<StatsDaily>(w.admin, 'daily');
    expect(admin[0]).toEqual({
      day: w.day,
      requested: 1,
      assigned: 1,
      started: 0,
      completed: 2,
      cancelled: 2,
    });
  });
});

describe('GET /api/stats/car-types', () => {
  it('answers trips, completed trips and revenue per car type, the most revenue first', async () => {
    expect(await stats<StatsCarTypes>(w.dealerA, 'car-types')).toEqual([
      { carType: 'sedan', trips: 3, completed: 2, revenue: 500.5 },
      { carType: 'suv', trips: 3, completed: 0, revenue: 0 },
    ]);
    expect(await stats<StatsCarTypes>(w.admin, 'car-types')).toEqual([
      { carType: 'sedan', trips: 3, completed: 2, revenue: 500.5 },
      { carType: 'mini', trips: 3, completed: 1, revenue: 150 },
      { carType: 'suv', trips: 3, completed: 0, revenue: 0 },
      { carType: 'auto', trips: 2, completed: 0, revenue: 0 },
    ]);
  });
});

describe('GET /api/stats/hours', () => {
  it('answers the trips of each hour of the day in India', async () => {
    const hours = await stats<StatsHours>(w.dealerA, 'hours');
    expect(hours).toHaveLength(24);
    expect(hours.filter((hour) => hour.trips > 0)).toEqual([
      { hour: 8, trips: 2 },
      { hour: 9, trips: 1 },
      { hour: 10, trips: 1 },
      { hour: 18, trips: 1 },
      { hour: 23, trips: 1 },
    ]);
  });
});

describe('GET /api/stats/franchises', () => {
  it("answers a dealer's franchises with their names, and an admin's trips of no franchise", async () => {
    const dealer = await stats<StatsFranchises>(w.dealerA, 'franchises');
    expect(dealer).toEqual({
      rows: [
        {
          franchiseId: w.franchiseA1.id,
          name: w.franchiseA1.displayName,
          trips: 3,
          completed: 2,
          revenue: 500.5,
        },
        {
          franchiseId: w.franchiseA2.id,
          name: w.franchiseA2.displayName,
          trips: 3,
          completed: 0,
          revenue: 0,
        },
      ],
      others: null,
    });
    const admin = await stats<StatsFranchises>(w.admin, 'franchises');
    expect(admin.rows).toContainEqual({ franchiseId: null, name: null, trips: 3, completed: 0, revenue: 0 });
    expect(admin.rows).toContainEqual({
      franchiseId: w.franchiseB1.id,
      name: w.franchiseB1.displayName,
      trips: 2,
      completed: 1,
      revenue: 150,
    });
  });

  it('is refused to a franchise', async () => {
    const response = await getAs(t, w.franchiseA1, `/api/stats/franchises?${query(w.period)}`);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('GET /api/stats/states', () => {
  it("answers an admin's trips by the drivers' state", async () => {
    expect(await stats<StatsStates>(w.admin, 'states')).toEqual({
      rows: [
        { state: 'maharashtra', trips: 6, completed: 2, revenue: 500.5 },
        { state: null, trips: 3, completed: 0, revenue: 0 },
        { state: 'karnataka', trips: 2, completed: 1, revenue: 150 },
      ],
      others: null,
    });
  });

  it('is refused to city dealers and franchises', async () => {
    for (const who of [w.dealerA, w.franchiseA1]) {
      const response = await getAs(t, who, `/api/stats/states?${query(w.period)}`);
      expect(response.statusCode).toBe(403);
    }
  });
});

describe('the period', () => {
  const paths = ['overview', 'daily', 'car-types', 'hours', 'franchises', 'states'];

  it.each(paths)('is required by /api/stats/%s, both ends', async (path) => {
    const response = await getAs(t, w.admin, `/api/stats/${path}?from=${w.day}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION',
      fieldErrors: { to: ['This field is required.'] },
    });
  });

  it('refuses a period that ends before it starts, or lasts more than 366 days', async () => {
    const backwards = await getAs(t, w.admin, `/api/stats/overview?from=${addDays(w.day, 1)}&to=${w.day}`);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json()).toMatchObject({
      error: 'to: The period must end on or after the day it starts.',
      code: 'VALIDATION',
    });
    const long = await getAs(t, w.admin, `/api/stats/daily?from=${w.day}&to=${addDays(w.day, 366)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ error: 'to: A period can be at most 366 days long.' });
    const leap = await getAs(t, w.admin, `/api/stats/daily?from=${w.day}&to=${addDays(w.day, 365)}`);
    expect(leap.statusCode).toBe(200);
  });

  it('refuses what is not a date, in the language of the request', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/stats/overview?from=yesterday&to=2026-13-01',
      headers: { ...w.admin.headers, 'accept-language': 'hi' },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json<{ fieldErrors: Record<string, string[]> }>();
    expect(body.fieldErrors).toEqual({
      from: [m.tripDateBoundInvalid({}, { locale: 'hi' })],
      to: [m.tripDateBoundInvalid({}, { locale: 'hi' })],
    });
  });

  it('refuses the year 0, which the database cannot read', async () => {
    const response = await getAs(t, w.admin, '/api/stats/overview?from=0000-01-01&to=0000-01-02');
    expect(response.statusCode).toBe(400);
  });

  it('answers 401 without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/api/stats/overview?${query(w.period)}` });
    expect(response.statusCode).toBe(401);
  });
});
