import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { m } from '@bmet/shared/paraglide/messages';
import { auditLog, carRateHistory, tripFeedback, trips } from '../../db/schema';
import { createDriver, createTrip } from '../../seed/factories';
import { useTestApp } from '../../../test/test-app';
import {
  createStaff,
  createTripWorld,
  getAs,
  notFoundBody,
  postAs,
  type Staff,
  type TripWorld,
} from '../../../test/trip-fixtures';

const t = useTestApp();
let w: TripWorld;

beforeAll(async () => {
  w = await createTripWorld(t.db);
});

const feedbackOf = (tripId: string) =>
  t.db.select().from(tripFeedback).where(eq(tripFeedback.tripId, tripId)).orderBy(tripFeedback.createdAt);

describe('GET /api/trips/:id', () => {
  it('answers an admin the trip with its customer phone, driver and (no) feedback', async () => {
    const response = await getAs(t, w.admin, `/api/trips/${w.trips.a1.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      id: w.trips.a1.id,
      title: `Ravi Kumar ${w.tag}`,
      phoneNumber: '+919812345678',
      driver: true,
      driver_info: { name: w.drivers.a1.name, Car: 'Sedan', rating: null },
      feedback: [],
    });
  });

  it('answers a trip without a driver to an admin', async () => {
    const response = await getAs(t, w.admin, `/api/trips/${w.trips.requested.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ driver: false, driver_info: null, driverId: null });
  });

  it("answers a dealer and a franchise their trips, without the customer's phone", async () => {
    for (const who of [w.dealerA, w.franchiseA1]) {
      const response = await getAs(t, who, `/api/trips/${w.trips.a1.id}`);
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatchObject({ id: w.trips.a1.id, phoneNumber: null });
    }
  });

  it('answers 404 for a trip outside the scope, as for one that does not exist', async () => {
    const cases: [Staff, string][] = [
      [w.dealerA, w.trips.b1.id],
      [w.dealerA, w.trips.loose.id],
      [w.dealerA, w.trips.requested.id],
      [w.dealerB, w.trips.a1.id],
      [w.franchiseA1, w.trips.a2.id],
      [w.franchiseB1, w.trips.cancelled.id],
      [w.admin, randomUUID()],
    ];
    for (const [who, id] of cases) {
      const response = await getAs(t, who, `/api/trips/${id}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(notFoundBody);
    }
  });

  it('answers 400 for an id that is not an id', async () => {
    const response = await getAs(t, w.admin, '/api/trips/not-an-id');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION' });
  });
});

describe('POST /api/trips/:id/feedback', () => {
  it.each([
    ['no rating', { feedback: 'Smooth ride' }],
    ['a rating of 0', { feedback: 'Smooth ride', rating: 0 }],
    ['a rating of 6', { rating: 6 }],
    ['a rating of 2.5', { rating: 2.5 }],
    ['a rating as text', { rating: '5' }],
    ['a null rating', { feedback: 'x', rating: null }],
    ['an empty body', {}],
  ])('refuses %s with the rating message and stores nothing', async (_case, body) => {
    const response = await postAs(t, w.admin, `/api/trips/${w.trips.b1.id}/feedback`, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: m.tripRatingRequired(),
      code: 'VALIDATION',
      fieldErrors: { rating: [m.tripRatingRequired()] },
    });
    expect(await feedbackOf(w.trips.b1.id)).toEqual([]);
  });

  it('refuses feedback longer than 2000 characters and stores nothing', async () => {
    const response = await postAs(t, w.admin, `/api/trips/${w.trips.b1.id}/feedback`, {
      feedback: 'a'.repeat(2001),
      rating: 4,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: 'Feedback must be at most 2000 characters.',
      code: 'VALIDATION',
    });
    expect(await feedbackOf(w.trips.b1.id)).toEqual([]);
  });

  it('refuses feedback holding the NUL character and stores nothing', async () => {
    const response = await postAs(t, w.admin, `/api/trips/${w.trips.b1.id}/feedback`, {
      feedback: 'a\u0000b',
      rating: 3,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: 'feedback: Must not contain the NUL character.',
      fieldErrors: { feedback: ['Must not contain the NUL character.'] },
    });
    expect(await feedbackOf(w.trips.b1.id)).toEqual([]);
  });

  it('names the rating first when both fields are wrong', async () => {
    const response = await postAs(t, w.admin, `/api/trips/${w.trips.b1.id}/feedback`, {
      feedback: 'a'.repeat(2001),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: m.tripRatingRequired(),
      fieldErrors: {
        feedback: ['Feedback must be at most 2000 characters.'],
        rating: [m.tripRatingRequired()],
      },
    });
  });

  it('answers 404 for a trip outside the scope and stores nothing', async () => {
    const cases: [Staff, string][] = [
      [w.dealerA, w.trips.b1.id],
      [w.franchiseA1, w.trips.a2.id],
      [w.dealerB, w.trips.requested.id],
      [w.admin, randomUUID()],
    ];
    for (const [who, id] of cases) {
      const response = await postAs(t, who, `/api/trips/${id}/feedback`, { feedback: 'Nice', rating: 5 });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(notFoundBody);
    }
    expect(await feedbackOf(w.trips.b1.id)).toEqual([]);
    expect(await feedbackOf(w.trips.a2.id)).toEqual([]);
    expect(await feedbackOf(w.trips.requested.id)).toEqual([]);
  });

  it('answers 400 for a trip id that is not an id', async () => {
    const response = await postAs(t, w.admin, '/api/trips/nope/feedback', { rating: 5 });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION', fieldErrors: { id: ['Not a valid id.'] } });
  });

  it('saves feedback with its author and time, shows it in the trip, and writes the audit log', async () => {
    const before = Date.now();
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/trips/${w.trips.a1.id}/feedback`,
      headers: { ...w.dealerA.headers, 'x-request-id': `req-${randomUUID()}` },
      payload: { feedback: '  Driver was courteous.  ', rating: 4 },
    });
    expect(response.statusCode, response.body).toBe(201);
    const saved = response.json().data;
    expect(saved).toEqual({
      id: expect.any(String),
      feedback: 'Driver was courteous.',
      rating: 4,
      author: { id: w.dealerA.id, name: w.dealerA.displayName },
      createdAt: expect.any(String),
    });
    expect(Date.parse(saved.createdAt)).toBeGreaterThanOrEqual(before - 1000);

    const [row] = await feedbackOf(w.trips.a1.id);
    expect(row).toMatchObject({
      id: saved.id,
      authorId: w.dealerA.id,
      feedback: 'Driver was courteous.',
      rating: 4,
    });

    const audit = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resource, 'trip-feedback'), eq(auditLog.resourceId, saved.id)));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actorId: w.dealerA.id,
      action: 'create',
      before: null,
      after: {
        tripId: w.trips.a1.id,
        feedback: 'Driver was courteous.',
        rating: 4,
        authorId: w.dealerA.id,
        createdAt: saved.createdAt,
      },
      requestId: response.headers['x-request-id'],
    });

    const detail = await getAs(t, w.franchiseA1, `/api/trips/${w.trips.a1.id}`);
    expect(detail.json().data.feedback).toEqual([saved]);
  });

  it('lists feedback newest first, with an empty text when none was written', async () => {
    const sibling = await createStaff(t.db, { role: 'franchise', dealerId: w.dealerA.id });
    const trip = w.trips.a2.id;
    const first = await postAs(t, w.admin, `/api/trips/${trip}/feedback`, { feedback: 'First', rating: 5 });
    const second = await postAs(t, w.franchiseA2, `/api/trips/${trip}/feedback`, { rating: 1 });
    // A franchise of the same dealer, but not this driver's: outside its scope.
    const outside = await postAs(t, sibling, `/api/trips/${trip}/feedback`, { rating: 3 });
    expect([first.statusCode, second.statusCode, outside.statusCode]).toEqual([201, 201, 404]);
    expect(second.json().data).toMatchObject({
      feedback: '',
      rating: 1,
      author: { name: w.franchiseA2.displayName },
    });

    const detail = await getAs(t, w.admin, `/api/trips/${trip}`);
    const feedback = detail.json().data.feedback;
    expect(feedback.map((entry: { id: string }) => entry.id)).toEqual([
      second.json().data.id,
      first.json().data.id,
    ]);
    expect(feedback[1]).toMatchObject({ feedback: 'First', rating: 5, author: { id: w.admin.id } });
  });

  it('names an author without a display name by email', async () => {
    const admin = await createStaff(t.db, { role: 'admin', displayName: null });
    const response = await postAs(t, admin, `/api/trips/${w.trips.loose.id}/feedback`, { rating: 2 });
    expect(response.statusCode).toBe(201);
    expect(response.json().data.author).toEqual({ id: admin.id, name: admin.email });
  });
});

describe('GET /api/trips/:id: timeline and fare', () => {
  it('stamps each step as the status changes, keeping steps it did not see unknown', async () => {
    const trip = await createTrip(t.db, { status: 'requested', overrides: { title: `Timeline ${w.tag}` } });
    const before = Date.now();
    await t.db
      .update(trips)
      .set({ status: 'assigned', driverId: w.drivers.a1.id })
      .where(eq(trips.id, trip.id));
    await t.db.update(trips).set({ status: 'completed' }).where(eq(trips.id, trip.id));
    const { timeline } = (await getAs(t, w.admin, `/api/trips/${trip.id}`)).json().data;
    expect(timeline.requestedAt).toBe(trip.createdAt.toISOString());
    expect(Date.parse(timeline.assignedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(timeline.finishedAt)).toBeGreaterThanOrEqual(Date.parse(timeline.assignedAt));
    expect(timeline.startedAt).toBeNull();
    expect(timeline.cancelledAt).toBeNull();
  });

  it('keeps a step’s time that the writer gave', async () => {
    const trip = await createTrip(t.db, { status: 'requested' });
    const cancelledAt = new Date('2026-01-05T10:00:00Z');
    await t.db.update(trips).set({ status: 'cancelled', cancelledAt }).where(eq(trips.id, trip.id));
    const { timeline } = (await getAs(t, w.admin, `/api/trips/${trip.id}`)).json().data;
    expect(timeline.cancelledAt).toBe(cancelledAt.toISOString());
  });

  // Mizoram's sedan rates: one set before the trips below were booked, another after.
  beforeAll(async () => {
    const rates = (basePrice: number, perKm: number, nightCharge: number) => ({
      basePrice,
      per_km: perKm,
      nightCharge,
      waitingCharge: 0,
      rushHour: 0,
      surCharges: 0,
      extra: 0,
    });
    await t.db.insert(carRateHistory).values([
      {
        state: 'mizoram',
        carType: 'sedan',
        action: 'create',
        version: 1,
        after: rates(60, 12, 30),
        changedAt: new Date('2026-01-01T00:00:00Z'),
      },
      {
        state: 'mizoram',
        carType: 'sedan',
        action: 'update',
        version: 2,
        after: rates(99, 20, 50),
        changedAt: new Date('2026-03-01T00:00:00Z'),
      },
    ]);
  });

  it('makes the fare from the rates of the driver’s state as they stood at booking', async () => {
    const driver = await createDriver(t.db, { state: 'mizoram', carType: 'sedan' });
    // 22:10 in India: the night charge applies.
    const bookedAt = new Date('2026-02-10T16:40:00Z');
    const trip = await createTrip(t.db, {
      driver: { id: driver.id, state: 'mizoram', carType: 'sedan' },
      status: 'completed',
      createdAt: bookedAt,
      overrides: { carType: 'sedan', distanceKm: 8.4, price: 60 + 12 * 8 + 30 },
    });
    const { fare } = (await getAs(t, w.admin, `/api/trips/${trip.id}`)).json().data;
    expect(fare).toEqual({
      base: 60,
      perKm: 12,
      km: 8,
      distance: 96,
      night: 30,
      total: 186,
      matchesPrice: true,
      state: 'mizoram',
      ratesFrom: '2026-01-01T00:00:00.000Z',
    });
  });

  it('says when the parts do not add up to the recorded price, and has no fare without rates', async () => {
    const driver = await createDriver(t.db, { state: 'mizoram', carType: 'sedan' });
    const priced = await createTrip(t.db, {
      driver: { id: driver.id, state: 'mizoram', carType: 'sedan' },
      status: 'completed',
      createdAt: new Date('2026-02-10T06:00:00Z'),
      overrides: { carType: 'sedan', distanceKm: 5, price: 500 },
    });
    const { fare } = (await getAs(t, w.admin, `/api/trips/${priced.id}`)).json().data;
    expect(fare).toMatchObject({ total: 120, night: 0, matchesPrice: false });
    const unpriced = (await getAs(t, w.admin, `/api/trips/${w.trips.requested.id}`)).json().data;
    expect(unpriced.fare).toBeNull();
  });
});
