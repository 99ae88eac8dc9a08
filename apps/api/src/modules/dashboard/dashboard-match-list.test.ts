import { beforeAll, describe, expect, it } from 'vitest';
import type {
  StatsCarTypes,
  StatsDaily,
  StatsFranchises,
  StatsHours,
  StatsOverview,
  StatsStates,
} from '@bmet/shared/schemas/dashboard';
import type { Trip, TripListResponse } from '@bmet/shared/schemas/trip';
import { useTestApp } from '../../../test/test-app';
import { getAs, type Staff } from '../../../test/trip-fixtures';
import { addDays, createDashboardWorld, type DashboardWorld } from '../../../test/dashboard-fixtures';

/**
 * The dashboard's figures equal what the trip list shows the same caller for the same period and
 * filter: every figure is checked against the list, paged to its end, for every role.
 */
const t = useTestApp();
let w: DashboardWorld;
let callers: [string, Staff][];

beforeAll(async () => {
  w = await createDashboardWorld(t.db);
  callers = [
    ['admin', w.admin],
    ['city dealer A', w.dealerA],
    ['city dealer B', w.dealerB],
    ['franchise A1', w.franchiseA1],
    ['franchise B1', w.franchiseB1],
  ];
});

type Filters = Record<string, string | number>;

/** Every trip the list shows, following the cursor to the last page. */
async function listAll(who: Staff, filters: Filters): Promise<Trip[]> {
  const found: Trip[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams({ ...filters, limit: '200', ...(cursor ? { cursor } : {}) } as never);
    const response = await getAs(t, who, `/api/trips?${params.toString()}`);
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json<TripListResponse>();
    found.push(...Object.values(page.data));
    cursor = page.nextCursor;
  } while (cursor);
  return found;
}

const revenueOf = (trips: Trip[]) =>
  Math.round(
    trips.filter((trip) => trip.status === 'completed').reduce((sum, trip) => sum + (trip.price ?? 0), 0) *
      100,
  ) / 100;

async function stats<T>(who: Staff, path: string, period: { from: string; to: string }): Promise<T> {
  const params = new URLSearchParams(period);
  const response = await getAs(t, who, `/api/stats/${path}?${params.toString()}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: T }>().data;
}

describe('the overview equals the trip list', () => {
  const periods = () => [
    w.period,
    { from: `${w.day}T08:15:00+05:30`, to: `${addDays(w.day, 2)}T06:30:00Z` },
    { from: addDays(w.day, -1), to: addDays(w.day, 3) },
    { from: `${w.day}T20:00:00+05:30`, to: `${addDays(w.day, 2)}T03:00:00+05:30` },
    { from: `${w.day}T08:29:59.999999+05:30`, to: `${addDays(w.day, 1)}T10:00:00.000001+05:30` },
    { from: `${addDays(w.day, 2)}T23:59:59.999+05:30`, to: `${addDays(w.day, 2)}T23:59:59.999+05:30` },
  ];

  it('for every role and period: trips, completed, cancelled and revenue', async () => {
    for (const [name, who] of callers) {
      for (const period of periods()) {
        const listed = await listAll(who, period);
        const figures = await stats<StatsOverview>(who, 'overview', period);
        const context = `${name} ${JSON.stringify(period)}`;
        expect(figures.trips, context).toBe(listed.length);
        expect(figures.completed, context).toBe(listed.filter((trip) => trip.status === 'completed').length);
        expect(figures.cancelled, context).toBe(listed.filter((trip) => trip.status === 'cancelled').length);
        expect(figures.revenue, context).toBe(revenueOf(listed));
      }
    }
  });
});

describe('each chart equals the trip list filtered as its bars link', () => {
  it('trips per day and status', async () => {
    for (const [name, who] of callers) {
      for (const day of await stats<StatsDaily>(who, 'daily', w.period)) {
        const listed = await listAll(who, { from: day.day, to: day.day });
        for (const status of ['requested', 'assigned', 'started', 'completed', 'cancelled'] as const) {
          const count = listed.filter((trip) => trip.status === status).length;
          expect(day[status], `${name} ${day.day} ${status}`).toBe(count);
        }
      }
    }
  });

  it('revenue by car type', async () => {
    for (const [name, who] of callers) {
      for (const row of await stats<StatsCarTypes>(who, 'car-types', w.period)) {
        if (!row.carType) continue;
        const listed = await listAll(who, { ...w.period, carType: row.carType });
        expect(row, `${name} ${row.carType}`).toEqual({
          carType: row.carType,
          trips: listed.length,
          completed: listed.filter((trip) => trip.status === 'completed').length,
          revenue: revenueOf(listed),
        });
      }
    }
  });

  it('busiest hours', async () => {
    for (const [name, who] of callers) {
      for (const row of await stats<StatsHours>(who, 'hours', w.period)) {
        const listed = await listAll(who, { ...w.period, hour: row.hour });
        expect(row.trips, `${name} ${row.hour}:00`).toBe(listed.length);
      }
    }
  });

  it('trips and revenue by franchise', async () => {
    for (const [name, who] of callers.slice(0, 3)) {
      const { rows } = await stats<StatsFranchises>(who, 'franchises', w.period);
      for (const row of rows) {
        if (!row.franchiseId) continue;
        const listed = await listAll(who, { ...w.period, franchiseId: row.franchiseId });
        expect([row.trips, row.revenue], `${name} ${row.name}`).toEqual([listed.length, revenueOf(listed)]);
      }
    }
  });

  it('trips and revenue by state', async () => {
    const { rows } = await stats<StatsStates>(w.admin, 'states', w.period);
    for (const row of rows) {
      if (!row.state) continue;
      const listed = await listAll(w.admin, { ...w.period, state: row.state });
      expect([row.trips, row.revenue], row.state).toEqual([listed.length, revenueOf(listed)]);
    }
  });

  it("never lets a franchise filter widen a caller's scope", async () => {
    const listed = await listAll(w.dealerB, { ...w.period, franchiseId: w.franchiseA1.id });
    expect(listed).toEqual([]);
  });
});
