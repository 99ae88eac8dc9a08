import { beforeAll, describe, expect, it } from 'vitest';
import type { TripListResponse } from '@bmet/shared/schemas/trip';
import { useTestApp } from '../../../test/test-app';
import { findTrips } from './list-repository';
import { createTripWorld, getAs, idsOf, postAs, type TripWorld } from '../../../test/trip-fixtures';

/**
 * The filters the dashboard's links set on the trip list: the trips of a franchise's drivers, of
 * drivers of a state, of an hour of the day in India. They narrow the caller's scope, never widen it.
 */
const t = useTestApp();
let w: TripWorld;

beforeAll(async () => {
  w = await createTripWorld(t.db);
});

const list = async (who: TripWorld['admin'], query: string) => {
  const response = await getAs(t, who, `/api/trips?q=${w.tag}&${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return idsOf(response.json<TripListResponse>());
};

/** The hour of the day in India of a moment. */
const indianHour = (moment: Date) => new Date(moment.getTime() + 5.5 * 3_600_000).getUTCHours();

describe('the trip list by franchise', () => {
  it("answers the franchise's drivers' trips within the caller's scope", async () => {
    expect(await list(w.admin, `franchiseId=${w.franchiseB1.id}`)).toEqual([w.trips.b1.id]);
    expect(await list(w.dealerA, `franchiseId=${w.franchiseA2.id}`)).toEqual([w.trips.a2.id]);
    expect(await list(w.franchiseA1, `franchiseId=${w.franchiseA1.id}`)).toEqual([w.trips.a1.id]);
  });

  it("never shows another dealer's franchise, nor another franchise's trips to a franchise", async () => {
    expect(await list(w.dealerA, `franchiseId=${w.franchiseB1.id}`)).toEqual([]);
    expect(await list(w.franchiseA1, `franchiseId=${w.franchiseA2.id}`)).toEqual([]);
  });

  it('takes the same filter on the spec path of city dealers and franchises', async () => {
    const response = await postAs(t, w.dealerA, '/api/trips/filter-trips', {
      q: w.tag,
      franchiseId: w.franchiseA1.id,
    });
    expect(idsOf(response.json<TripListResponse>())).toEqual([w.trips.a1.id]);
  });
});

describe('the trip list by state and hour', () => {
  it('answers the trips of drivers of a state; trips without a driver have none', async () => {
    expect(await list(w.admin, 'state=karnataka')).toEqual([w.trips.b1.id]);
    expect(await list(w.admin, 'state=maharashtra')).toEqual([w.trips.a1.id, w.trips.a2.id]);
    expect(await list(w.dealerB, 'state=maharashtra')).toEqual([]);
  });

  it('answers the trips created in an hour of the day in India', async () => {
    const hour = indianHour(w.trips.b1.createdAt);
    expect(await list(w.admin, `hour=${hour}`)).toEqual([w.trips.b1.id]);
    expect(await list(w.dealerA, `hour=${hour}`)).toEqual([]);
  });

  it('reads a sparse state driver by driver, and finds the same trips', async () => {
    // A tuning that sends any scoped list past the window of newest trips.
    const page = await findTrips(
      t.db,
      w.admin,
      { q: w.tag, state: 'karnataka', limit: 50 },
      { recentWindow: 1, fewDrivers: 1, directDrivers: 0 },
    );
    expect(page.trips.map((trip) => trip.id)).toEqual([w.trips.b1.id]);
  });

  it('refuses what is not a franchise id, a state or an hour', async () => {
    for (const query of ['franchiseId=12', 'state=atlantis', 'hour=24', 'hour=-1', 'hour=noon']) {
      const response = await getAs(t, w.admin, `/api/trips?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().code).toBe('VALIDATION');
    }
  });
});
