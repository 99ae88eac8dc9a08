import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { m } from '@bmet/shared/paraglide/messages';
import type { TripListResponse } from '@bmet/shared/schemas/trip';
import { trips } from '../../db/schema';
import { createCustomer, createDriver, createTrip, insertDriverRatings } from '../../seed/factories';
import { useTestApp } from '../../../test/test-app';
import {
  createStaff,
  createTripWorld,
  getAs,
  idsOf,
  postAs,
  uniqueTag,
  type Staff,
  type TripWorld,
} from '../../../test/trip-fixtures';

const t = useTestApp();
let w: TripWorld;

beforeAll(async () => {
  w = await createTripWorld(t.db);
  await insertDriverRatings(t.db, w.drivers.a1.id, [
    { customerName: 'Meera', description: 'Polite', rating: 5 },
    { customerName: 'Arjun', description: 'On time', rating: 4 },
    { customerName: 'Sara', description: 'No stars given', rating: null },
    { customerName: 'Dev', description: 'Fine', rating: 4 },
  ]);
});

const list = async (who: Staff, query = '') => {
  const response = await getAs(t, who, `/api/trips${query ? `?${query}` : ''}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TripListResponse>();
};
const filter = async (who: Staff, body: Record<string, unknown>) => {
  const response = await postAs(t, who, '/api/trips/filter-trips', body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TripListResponse>();
};

describe('GET /api/trips', () => {
  it('answers an admin every trip, drivers or not, keyed by id newest first', async () => {
    const body = await list(w.admin, `q=${w.tag}`);
    const { a1, a2, b1, loose, requested, cancelled } = w.trips;
    expect(idsOf(body)).toEqual([a1.id, a2.id, b1.id, loose.id, requested.id, cancelled.id]);
    expect(body.nextCursor).toBeNull();
  });

  it('shows a trip with the spec field names, its driver and the driver average rating', async () => {
    const body = await list(w.admin, `q=${w.tag}`);
    const { a1 } = w.trips;
    const driver = w.drivers.a1;
    expect(body.data[a1.id]).toEqual({
      id: a1.id,
      title: `Ravi Kumar ${w.tag}`,
      body: a1.body,
      phoneNumber: '+919812345678',
      'pick-up': { location: a1.pickupLocation, lat: a1.pickupLat, long: a1.pickupLong },
      destination: { location: a1.destinationLocation, lat: a1.destinationLat, long: a1.destinationLong },
      status: 'completed',
      paid: true,
      completed: true,
      driver: true,
      driverId: driver.id,
      driver_info: {
        name: driver.name,
        phoneNumber: driver.phoneNumber,
        // (5 + 4 + 4) / 3, one decimal; the entry without stars does not count.
        rating: 4.3,
        Car: 'Sedan',
        vehicleNumber: driver.vehicleNumber,
      },
      carType: 'sedan',
      distance: a1.distanceKm,
      price: a1.price,
      cancelReason: null,
      createdAt: a1.createdAt.toISOString(),
    });
  });

  it('answers driver false and no driver_info for a trip nobody took, and null rating without ratings', async () => {
    const body = await list(w.admin, `q=${w.tag}`);
    expect(body.data[w.trips.requested.id]).toMatchObject({
      status: 'requested',
      driver: false,
      driverId: null,
      driver_info: null,
      completed: false,
      paid: false,
    });
    expect(body.data[w.trips.cancelled.id]).toMatchObject({
      status: 'cancelled',
      driver: false,
      driver_info: null,
    });
    expect(body.data[w.trips.a2.id]?.driver_info).toMatchObject({ rating: null, name: w.drivers.a2.name });
  });

  it("shows the driver's rating as ratings are written, changed, moved and deleted", async () => {
    const tag = uniqueTag();
    const customer = await createCustomer(t.db, { name: `Kavya ${tag}` });
    const [first, second] = [await createDriver(t.db), await createDriver(t.db)];
    const trips = [first!, second!].map((driver) =>
      createTrip(t.db, {
        customer,
        driver: { id: driver.id, state: 'maharashtra', carType: driver.carType },
        status: 'completed',
      }),
    );
    const [firstTrip, secondTrip] = await Promise.all(trips);
    const ratings = async () => {
      const body = await list(w.admin, `q=${tag}`);
      return [body.data[firstTrip!.id]?.driver_info?.rating, body.data[secondTrip!.id]?.driver_info?.rating];
    };
    expect(await ratings()).toEqual([null, null]);
    await insertDriverRatings(t.db, first!.id, [
      { customerName: 'Meera', description: 'Polite', rating: 5 },
      { customerName: 'Arjun', description: 'Late', rating: 2 },
      { customerName: 'Sara', description: 'No stars', rating: null },
      { customerName: 'Old', description: 'Out of range', rating: 9 },
    ]);
    expect(await ratings()).toEqual([3.5, null]);
    await t.db.execute(
      sql`update driver_ratings set rating = 4 where driver_id = ${first!.id} and rating = 2`,
    );
    expect(await ratings()).toEqual([4.5, null]);
    // The out-of-range entry becomes a rating; the one without stars moves to the other driver.
    await t.db.execute(
      sql`update driver_ratings set rating = 3 where driver_id = ${first!.id} and rating = 9`,
    );
    await t.db.execute(
      sql`update driver_ratings set driver_id = ${second!.id}, rating = 1 where driver_id = ${first!.id} and rating is null`,
    );
    expect(await ratings()).toEqual([4, 1]);
    await t.db.execute(sql`delete from driver_ratings where driver_id = ${first!.id} and rating >= 4`);
    expect(await ratings()).toEqual([3, 1]);
    await t.db.execute(sql`delete from driver_ratings where driver_id in (${first!.id}, ${second!.id})`);
    expect(await ratings()).toEqual([null, null]);
  });

  it("names the vehicle by the driver's car type when the trip has none", async () => {
    const tag = uniqueTag();
    const customer = await createCustomer(t.db, { name: `Nisha ${tag}` });
    const driver = await createDriver(t.db, { carType: 'suv' });
    const trip = await createTrip(t.db, {
      customer,
      driver: { id: driver.id, state: 'maharashtra', carType: 'suv' },
      status: 'assigned',
      overrides: { carType: null },
    });
    const body = await list(w.admin, `q=${tag}`);
    expect(body.data[trip.id]).toMatchObject({ carType: null, driver_info: { Car: 'SUV' } });
  });

  it("answers a city dealer only its franchises' drivers' trips, without the customer's phone", async () => {
    const body = await list(w.dealerA);
    expect(idsOf(body)).toEqual([w.trips.a1.id, w.trips.a2.id]);
    for (const trip of Object.values(body.data)) expect(trip.phoneNumber).toBeNull();
    expect(idsOf(await list(w.dealerB))).toEqual([w.trips.b1.id]);
  });

  it("answers a franchise only its own drivers' trips, without the customer's phone", async () => {
    const body = await list(w.franchiseA1);
    expect(idsOf(body)).toEqual([w.trips.a1.id]);
    expect(body.data[w.trips.a1.id]).toMatchObject({ phoneNumber: null, driver_info: { rating: 4.3 } });
    expect(idsOf(await list(w.franchiseA2))).toEqual([w.trips.a2.id]);
    expect(idsOf(await list(w.franchiseB1))).toEqual([w.trips.b1.id]);
  });

  it('answers nothing to a dealer or franchise without drivers', async () => {
    const dealer = await createStaff(t.db, { role: 'city_dealer' });
    const franchise = await createStaff(t.db, { role: 'franchise', dealerId: dealer.id });
    expect(await list(dealer)).toEqual({ data: {}, nextCursor: null });
    expect(await list(franchise)).toEqual({ data: {}, nextCursor: null });
  });

  it('does not count an account of another role as a franchise of the dealer', async () => {
    // A city dealer account pointing at dealer A is not one of its franchises.
    const stray = await createStaff(t.db, { role: 'city_dealer', dealerId: w.dealerA.id });
    const driver = await createDriver(t.db, { franchiseId: stray.id });
    const trip = await createTrip(t.db, {
      driver: { id: driver.id, state: 'maharashtra', carType: 'mini' },
      status: 'completed',
    });
    expect(idsOf(await list(w.dealerA))).not.toContain(trip.id);
  });
});

describe('POST /api/trips/filter-trips', () => {
  it('answers the same list as GET for each role when no ids are sent', async () => {
    for (const who of [w.dealerA, w.dealerB, w.franchiseA1, w.franchiseB1]) {
      expect(await filter(who, {})).toEqual(await list(who));
    }
    expect(await filter(w.admin, { q: w.tag })).toEqual(await list(w.admin, `q=${w.tag}`));
  });

  it("narrows to the ids sent, within the caller's scope only", async () => {
    const { a1, a2, b1, loose } = w.drivers;
    expect(idsOf(await filter(w.dealerA, { ids: [a1.id, a2.id] }))).toEqual([w.trips.a1.id, w.trips.a2.id]);
    expect(idsOf(await filter(w.dealerA, { ids: [a2.id] }))).toEqual([w.trips.a2.id]);
    // Another dealer's drivers, or drivers of no franchise: nothing of theirs.
    expect(idsOf(await filter(w.dealerA, { ids: [b1.id, loose.id] }))).toEqual([]);
    expect(idsOf(await filter(w.dealerA, { ids: [a1.id, b1.id] }))).toEqual([w.trips.a1.id]);
    expect(idsOf(await filter(w.dealerB, { ids: [a1.id, a2.id, b1.id] }))).toEqual([w.trips.b1.id]);
  });

  it("gives a franchise nothing of its sibling franchise's drivers", async () => {
    const { a1, a2 } = w.drivers;
    expect(idsOf(await filter(w.franchiseA1, { ids: [a2.id] }))).toEqual([]);
    expect(idsOf(await filter(w.franchiseA1, { ids: [a1.id, a2.id] }))).toEqual([w.trips.a1.id]);
  });

  it('lets an admin narrow to any drivers, and answers nothing for an empty list', async () => {
    const { b1, loose } = w.drivers;
    expect(idsOf(await filter(w.admin, { ids: [b1.id, loose.id] }))).toEqual([
      w.trips.b1.id,
      w.trips.loose.id,
    ]);
    expect(await filter(w.admin, { ids: [] })).toEqual({ data: {}, nextCursor: null });
    expect(await filter(w.dealerA, { ids: [randomUUID()] })).toEqual({ data: {}, nextCursor: null });
  });

  it('applies the filters of the body', async () => {
    const body = await filter(w.admin, { q: w.tag, paid: false, status: 'completed' });
    expect(idsOf(body)).toEqual([w.trips.b1.id]);
    const page = await filter(w.dealerA, { ids: [w.drivers.a1.id, w.drivers.a2.id], limit: 1 });
    expect(idsOf(page)).toEqual([w.trips.a1.id]);
    const next = await filter(w.dealerA, {
      ids: [w.drivers.a1.id, w.drivers.a2.id],
      limit: 1,
      cursor: page.nextCursor,
    });
    expect(idsOf(next)).toEqual([w.trips.a2.id]);
    expect(next.nextCursor).toBeNull();
  });

  it('refuses ids that are not ids', async () => {
    const response = await postAs(t, w.dealerA, '/api/trips/filter-trips', { ids: ['not-an-id'] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION',
      fieldErrors: { 'ids.0': ['Not a valid id.'] },
    });
  });
});

describe('search', () => {
  const tag = uniqueTag();
  const titled: Record<string, string> = {};

  beforeAll(async () => {
    const customer = await createCustomer(t.db, { name: 'Search Customer' });
    const titles = [
      `Priya ${tag.toUpperCase()} Sharma`,
      `${tag} 100% Sure`,
      `${tag} 1000 Sure`,
      `${tag} a_b`,
      `${tag} axb`,
      `${tag} back\\slash`,
    ];
    for (const [i, title] of titles.entries()) {
      const trip = await createTrip(t.db, {
        customer,
        createdAt: new Date(Date.now() - i * 60_000),
        overrides: { title },
      });
      titled[title] = trip.id;
    }
  });

  const search = async (q: string) => {
    const body = await list(w.admin, new URLSearchParams({ q }).toString());
    return Object.values(body.data).map((trip) => trip.title);
  };

  it('matches a substring of the title, whatever its case', async () => {
    expect(await search(`priya ${tag}`)).toEqual([`Priya ${tag.toUpperCase()} Sharma`]);
    expect(await search(`${tag.toUpperCase()} SHARMA`)).toEqual([`Priya ${tag.toUpperCase()} Sharma`]);
    expect(await search(tag.slice(2, 7))).toHaveLength(6);
  });

  it('takes % and _ and \\ literally', async () => {
    expect(await search(`${tag} 100%`)).toEqual([`${tag} 100% Sure`]);
    expect(await search(`${tag} a_b`)).toEqual([`${tag} a_b`]);
    expect(await search(`${tag} back\\s`)).toEqual([`${tag} back\\slash`]);
    expect(await search('%%%')).toEqual([]);
  });

  it('ignores surrounding spaces and an empty search', async () => {
    expect(await search(`  ${tag} axb  `)).toEqual([`${tag} axb`]);
    const all = await list(w.admin, 'q=%20%20&limit=3');
    expect(idsOf(all)).toHaveLength(3);
  });

  it('refuses a search holding the NUL character, which PostgreSQL text cannot hold', async () => {
    const body = { error: 'q: Must not contain the NUL character.', code: 'VALIDATION' };
    const response = await getAs(t, w.admin, '/api/trips?q=a%00b');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject(body);
    const posted = await postAs(t, w.dealerA, '/api/trips/filter-trips', { q: 'a\u0000b' });
    expect(posted.statusCode).toBe(400);
    expect(posted.json()).toMatchObject(body);
  });

  it('searches within the scope of a dealer', async () => {
    const body = await list(w.dealerA, `q=${w.tag.toUpperCase()}`);
    expect(idsOf(body)).toEqual([w.trips.a1.id, w.trips.a2.id]);
    expect(idsOf(await list(w.dealerA, `q=${tag}`))).toEqual([]);
  });
});

describe('search as staff hear it on the phone', () => {
  const tag = uniqueTag();
  const digits = `9${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
  const letters = () =>
    Array.from({ length: 2 }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join('');
  const plate = `MH 12 ${letters()} ${1000 + Math.floor(Math.random() * 9000)}`;
  const laterPlate = `MH 14 ${letters()} ${1000 + Math.floor(Math.random() * 9000)}`;
  let tripId = '';

  beforeAll(async () => {
    const driver = await createDriver(t.db, {
      name: `Suresh ${tag} Naidu`,
      franchiseId: w.franchiseA1.id,
      state: 'maharashtra',
      vehicleNumber: plate,
    });
    const customer = await createCustomer(t.db, { name: `Meena ${tag} Iyer`, phoneNumber: `+91 ${digits}` });
    const trip = await createTrip(t.db, {
      customer,
      driver: { id: driver.id, state: 'maharashtra', carType: 'sedan' },
      // Cancelled: the dealer's completed trips stay the world's, which other tests count.
      status: 'cancelled',
      overrides: {
        title: `Meena ${tag} Iyer`,
        phoneNumber: `+91 ${digits.slice(0, 5)} ${digits.slice(5)}`,
        pickupLocation: `14 Temple Road ${tag}, Pune`,
        destinationLocation: 'Pune Airport',
      },
    });
    tripId = trip.id;
    // The driver changes cars since: the trip is still found by the vehicle they drove.
    await t.db.execute(sql`update drivers set vehicle_number = ${laterPlate} where id = ${driver.id}`);
  });

  const found = async (who: Staff, q: string) =>
    idsOf(await list(who, new URLSearchParams({ q, limit: '200' }).toString()));

  it('finds a trip by the customer’s phone in any form', async () => {
    for (const phone of [
      digits,
      `+91 ${digits}`,
      `91${digits}`,
      `0${digits}`,
      `${digits.slice(0, 5)}-${digits.slice(5)}`,
    ]) {
      expect(await found(w.admin, phone), phone).toEqual([tripId]);
    }
  });

  it('finds it by a vehicle its driver drove, in any spacing', async () => {
    expect(await found(w.admin, plate.toLowerCase().replace(/ /g, ''))).toContain(tripId);
    expect(await found(w.admin, plate.replace(/ /g, '-'))).toContain(tripId);
    expect(await found(w.admin, laterPlate)).toContain(tripId);
  });

  it('finds it by a place, by the customer’s name in any order, and by its id or short id', async () => {
    expect(await found(w.admin, `temple road ${tag}`)).toEqual([tripId]);
    expect(await found(w.admin, `${tag} Road temple`)).toEqual([tripId]);
    expect(await found(w.admin, `Iyer ${tag} MEENA`)).toEqual([tripId]);
    expect(await found(w.admin, tripId)).toEqual([tripId]);
    expect(await found(w.admin, tripId.slice(-6).toUpperCase())).toContain(tripId);
  });

  it('finds nothing outside the caller’s scope', async () => {
    expect(await found(w.dealerA, digits)).toEqual([tripId]);
    expect(await found(w.dealerB, digits)).toEqual([]);
    expect(await found(w.franchiseB1, `temple road ${tag}`)).toEqual([]);
  });
});

describe('a name search, title by title or along the newest trips', () => {
  // An admin's search reads the titles first (decision 040): up to MANY_TITLES matching titles
  // title by title, beyond that along the newest trips. Both must answer the same list.
  const base = Date.now() - 3 * 86_400_000;
  const tag = uniqueTag();
  let expected: { id: string; status: string; title: string }[] = [];

  beforeAll(async () => {
    const customer = await createCustomer(t.db, { name: 'Titles Customer' });
    const made: { id: string; at: Date; status: string; title: string }[] = [];
    // 20 titles holding the tag (more than MANY_TITLES), 3 trips each, a minute apart and
    // interleaved across titles; and one trip whose title does not hold it but its pick-up does.
    for (let i = 0; i < 60; i++) {
      const at = new Date(base - i * 60_000);
      const status = i % 3 === 0 ? 'cancelled' : 'completed';
      const title = `${i % 20 === 0 ? 'Zoya' : 'Anil'} ${tag}${String(i % 20).padStart(2, '0')} Rao`;
      const trip = await createTrip(t.db, { customer, createdAt: at, status, overrides: { title } });
      made.push({ id: trip.id, at, status, title });
    }
    const byPlace = await createTrip(t.db, {
      customer,
      createdAt: new Date(base - 30_500),
      status: 'completed',
      overrides: { title: 'Someone Else', pickupLocation: `Gate 2, ${tag}05 Rao Nagar` },
    });
    made.push({ id: byPlace.id, at: new Date(base - 30_500), status: 'completed', title: 'Someone Else' });
    expected = made.sort((a, b) => b.at.getTime() - a.at.getTime());
  });

  async function walk(query: Record<string, string>, limit: number) {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const params = new URLSearchParams({ ...query, limit: String(limit), ...(cursor ? { cursor } : {}) });
      const body = await list(w.admin, params.toString());
      seen.push(...idsOf(body));
      cursor = body.nextCursor;
      pages++;
    } while (cursor && pages < 40);
    return seen;
  }

  it('walks a name of many titles page by page, newest first, each trip once', async () => {
    const ids = expected.map((trip) => trip.id);
    expect(await walk({ q: `${tag} rao` }, 7)).toEqual(ids);
    expect(await walk({ q: `rao ${tag}` }, 50)).toEqual(ids);
  });

  it('walks a name of a few titles page by page, with a place that also matches, each trip once', async () => {
    const ofTitle = (n: string) => expected.filter((trip) => trip.title.includes(`${tag}${n} `));
    // Title 05's three trips and the trip from "Gate 2, …05 Rao Nagar", between two of them.
    const place = expected.find((trip) => trip.title === 'Someone Else')!;
    const fifth = expected.filter((trip) => ofTitle('05').includes(trip) || trip === place);
    expect(fifth).toHaveLength(4);
    expect(await walk({ q: `${tag}05` }, 2)).toEqual(fifth.map((trip) => trip.id));
    expect(await walk({ q: `zoya ${tag}` }, 2)).toEqual(ofTitle('00').map((trip) => trip.id));
  });

  it('applies the filters to either way of reading the titles', async () => {
    const cancelled = expected.filter((trip) => trip.status === 'cancelled').map((trip) => trip.id);
    expect(await walk({ q: `${tag} rao`, status: 'cancelled' }, 4)).toEqual(cancelled);
    const zoya = await walk({ q: `zoya ${tag}`, status: 'cancelled' }, 50);
    expect(zoya.length).toBeGreaterThan(0);
    expect(zoya.every((id) => cancelled.includes(id))).toBe(true);
  });

  it('finds a trip by the name it was changed to, and no longer by the old one', async () => {
    const renamed = expected[10]!.id;
    const newName = `Farida ${uniqueTag()} Khan`;
    await t.db.execute(sql`update trips set title = ${newName} where id = ${renamed}`);
    expect(await walk({ q: newName.toLowerCase() }, 50)).toEqual([renamed]);
    expect(await walk({ q: `${tag} rao` }, 50)).not.toContain(renamed);
    await t.db.execute(sql`update trips set title = ${`Anil ${tag}99 Rao`} where id = ${renamed}`);
  });
});

describe('filters', () => {
  it('filters by status', async () => {
    const ids = async (status: string) => idsOf(await list(w.admin, `q=${w.tag}&status=${status}`));
    expect(await ids('completed')).toEqual([w.trips.a1.id, w.trips.b1.id]);
    expect(await ids('started')).toEqual([w.trips.a2.id]);
    expect(await ids('assigned')).toEqual([w.trips.loose.id]);
    expect(await ids('requested')).toEqual([w.trips.requested.id]);
    expect(await ids('cancelled')).toEqual([w.trips.cancelled.id]);
  });

  it('filters by paid', async () => {
    const paid = await list(w.admin, `q=${w.tag}&paid=true`);
    expect(idsOf(paid)).toEqual([w.trips.a1.id]);
    const unpaid = await list(w.admin, `q=${w.tag}&paid=false`);
    expect(idsOf(unpaid)).not.toContain(w.trips.a1.id);
    expect(idsOf(unpaid)).toHaveLength(5);
  });

  it('filters by car type', async () => {
    expect(idsOf(await list(w.admin, `q=${w.tag}&carType=mini`))).toEqual([
      w.trips.b1.id,
      w.trips.requested.id,
    ]);
    expect(idsOf(await list(w.admin, `q=${w.tag}&carType=erickshaw`))).toEqual([w.trips.cancelled.id]);
    expect(idsOf(await list(w.dealerA, 'carType=suv'))).toEqual([w.trips.a2.id]);
    expect(idsOf(await list(w.dealerA, 'carType=mini'))).toEqual([]);
  });

  it('combines filters with the scope', async () => {
    expect(idsOf(await list(w.dealerA, 'status=completed&paid=true'))).toEqual([w.trips.a1.id]);
    expect(idsOf(await list(w.dealerA, 'status=completed&paid=false'))).toEqual([]);
  });

  it('answers 400 for a value outside the lists', async () => {
    for (const query of [
      'status=finished',
      'paid=yes',
      'carType=bus',
      'limit=0',
      'limit=201',
      'from=yesterday',
    ]) {
      const response = await getAs(t, w.admin, `/api/trips?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().code).toBe('VALIDATION');
    }
  });

  describe('by date, in India Standard Time', () => {
    const tag = uniqueTag();
    const at: Record<string, string> = {};

    beforeAll(async () => {
      const customer = await createCustomer(t.db, { name: `Dated ${tag}` });
      // IST is UTC+05:30: 18:29:59Z is 23:59:59 IST on the 10th; 18:30Z is midnight of the 11th.
      const times = {
        before: '2024-03-09T18:29:59.999Z',
        start: '2024-03-09T18:30:00.000Z',
        lastMoment: '2024-03-10T18:29:59.999Z',
        nextDay: '2024-03-10T18:30:00.000Z',
      };
      for (const [name, time] of Object.entries(times)) {
        const trip = await createTrip(t.db, {
          customer,
          createdAt: new Date(time),
          overrides: { title: `Dated ${tag}` },
        });
        at[name] = trip.id;
      }
    });

    const ids = async (query: string) => idsOf(await list(w.admin, `q=${tag}&${query}`));

    it('reads a bare date as a whole day in IST, both bounds included', async () => {
      expect(await ids('from=2024-03-10&to=2024-03-10')).toEqual([at.lastMoment, at.start]);
      expect(await ids('from=2024-03-11')).toEqual([at.nextDay]);
      expect(await ids('to=2024-03-09')).toEqual([at.before]);
    });

    it('includes an exact date-time bound', async () => {
      expect(await ids(`from=${encodeURIComponent('2024-03-10T00:00:00+05:30')}`)).toEqual([
        at.nextDay,
        at.lastMoment,
        at.start,
      ]);
      expect(await ids('to=2024-03-10T18:29:59.999Z')).toEqual([at.lastMoment, at.start, at.before]);
      expect(await ids('from=2024-03-10T18:29:59.999Z&to=2024-03-10T18:29:59.999Z')).toEqual([at.lastMoment]);
    });

    it('answers nothing when from is after to, and 400 for a date that does not exist', async () => {
      expect(await ids('from=2024-03-11&to=2024-03-10')).toEqual([]);
      for (const query of ['from=2024-02-30', 'to=0000-01-01', 'from=0000-06-01T00:00:00Z']) {
        const response = await getAs(t, w.admin, `/api/trips?${query}`);
        expect(response.statusCode, query).toBe(400);
        expect(response.json().code).toBe('VALIDATION');
      }
    });
  });
});

describe('paging', () => {
  const tag = uniqueTag();
  let expected: string[] = [];

  beforeAll(async () => {
    const customer = await createCustomer(t.db, { name: `Paged ${tag}` });
    const base = Date.parse('2025-01-15T10:00:00.000Z');
    const created: { id: string; at: string }[] = [];
    // Groups of trips at the very same instant, so the id decides their order.
    for (let i = 0; i < 23; i++) {
      const createdAt = new Date(base - Math.floor(i / 4) * 60_000);
      const trip = await createTrip(t.db, { customer, createdAt, overrides: { title: `Paged ${tag}` } });
      created.push({ id: trip.id, at: createdAt.toISOString() });
    }
    expected = created
      .sort((a, b) => (a.at === b.at ? (a.id < b.id ? 1 : -1) : a.at < b.at ? 1 : -1))
      .map((trip) => trip.id);
  });

  async function walk(pageSize: number, fetchPage: (cursor: string | null) => Promise<TripListResponse>) {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const body = await fetchPage(cursor);
      expect(idsOf(body).length).toBeLessThanOrEqual(pageSize);
      seen.push(...idsOf(body));
      cursor = body.nextCursor;
      pages++;
    } while (cursor && pages < 50);
    return { seen, pages };
  }

  it('walks every trip once, newest first, then answers a null cursor', async () => {
    const { seen, pages } = await walk(5, (cursor) =>
      list(w.admin, `q=${tag}&limit=5${cursor ? `&cursor=${cursor}` : ''}`),
    );
    expect(seen).toEqual(expected);
    expect(pages).toBe(5);
  });

  it('walks the same way on the POST path', async () => {
    const { seen } = await walk(4, (cursor) =>
      filter(w.admin, { q: tag, limit: 4, ...(cursor ? { cursor } : {}) }),
    );
    expect(seen).toEqual(expected);
  });

  it('answers a null cursor when the last page is exactly full', async () => {
    const { seen, pages } = await walk(23, (cursor) =>
      list(w.admin, `q=${tag}&limit=23${cursor ? `&cursor=${cursor}` : ''}`),
    );
    expect(seen).toEqual(expected);
    expect(pages).toBe(1);
  });

  it('tells apart trips a microsecond apart', async () => {
    const tag2 = uniqueTag();
    const customer = await createCustomer(t.db, { name: `Micro ${tag2}` });
    const ids: string[] = [];
    for (const micro of ['000003', '000002', '000001']) {
      const trip = await createTrip(t.db, { customer, overrides: { title: `Micro ${tag2}` } });
      await t.db.execute(
        // A JavaScript Date holds milliseconds only: set the microseconds in SQL.
        sqlSetCreatedAt(trip.id, `2025-02-01T00:00:00.${micro}Z`),
      );
      ids.push(trip.id);
    }
    const { seen } = await walk(1, (cursor) =>
      list(w.admin, `q=${tag2}&limit=1${cursor ? `&cursor=${cursor}` : ''}`),
    );
    expect(seen).toEqual(ids);
  });

  it('answers 400 Invalid cursor. for a cursor it did not hand out', async () => {
    const forged = [
      'garbage!',
      'bm90LWpzb24',
      Buffer.from(JSON.stringify({ at: '2025-01-01', id: randomUUID() })).toString('base64url'),
      Buffer.from(JSON.stringify({ name: 'x', id: randomUUID() })).toString('base64url'),
      Buffer.from(JSON.stringify({ at: '2025-01-01T00:00:00.000000Z', id: 'x' })).toString('base64url'),
      ...['2025-02-30T00:00:00.000000Z', '0000-01-01T00:00:00.000000Z', '2025-13-01T25:00:00.000000Z'].map(
        (at) => Buffer.from(JSON.stringify({ at, id: randomUUID() })).toString('base64url'),
      ),
    ];
    for (const cursor of forged) {
      const response = await getAs(t, w.admin, `/api/trips?cursor=${encodeURIComponent(cursor)}`);
      expect(response.statusCode, cursor).toBe(400);
      expect(response.json()).toEqual({
        error: m.invalidCursor(),
        code: 'VALIDATION',
        fieldErrors: { cursor: [m.invalidCursor()] },
      });
      const posted = await postAs(t, w.dealerA, '/api/trips/filter-trips', { cursor });
      expect(posted.statusCode, cursor).toBe(400);
      expect(posted.json()).toEqual({
        error: m.invalidCursor(),
        code: 'VALIDATION',
        fieldErrors: { cursor: [m.invalidCursor()] },
      });
    }
  });
});

function sqlSetCreatedAt(id: string, at: string) {
  return sql`update ${trips} set created_at = ${at}::timestamptz where id = ${id}`;
}

describe('POST /api/trips/count', () => {
  const count = async (who: Staff, body: Record<string, unknown>) => {
    const response = await postAs(t, who, '/api/trips/count', body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };

  it("counts the list a caller would see with the same filters, in the caller's scope", async () => {
    const q = w.tag;
    expect(await count(w.admin, { q })).toEqual({ total: 6, totalCapped: false });
    expect(await count(w.dealerA, { q })).toEqual({ total: 2, totalCapped: false });
    expect(await count(w.franchiseA1, { q })).toEqual({ total: 1, totalCapped: false });
    expect(await count(w.dealerB, { q })).toEqual({ total: 1, totalCapped: false });
    expect(await count(w.admin, { q, status: 'completed' })).toEqual({ total: 2, totalCapped: false });
    expect(await count(w.admin, { q, paid: true })).toEqual({ total: 1, totalCapped: false });
    // The count agrees with the list it stands beside.
    const shown = idsOf(await filter(w.dealerA, { q }));
    expect(shown).toHaveLength(2);
  });

  it('counts only chosen drivers within the scope, never beyond it', async () => {
    expect(await count(w.dealerA, { q: w.tag, ids: [w.drivers.a1.id, w.drivers.b1.id] })).toEqual({
      total: 1,
      totalCapped: false,
    });
    expect(await count(w.admin, { q: w.tag, ids: [] })).toEqual({ total: 0, totalCapped: false });
  });

  it('refuses bad filters with a message and answers 401 without a session', async () => {
    const bad = await postAs(t, w.admin, '/api/trips/count', { status: 'flying' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION' });
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/trips/count', payload: {} });
    expect(anonymous.statusCode).toBe(401);
  });
});
