import { randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SearchResults } from '@bmet/shared/schemas/search';
import { createCustomer, createDriver, createTrip } from '../../seed/factories';
import { useTestApp } from '../../../test/test-app';
import { createStaff, uniqueTag, type Staff } from '../../../test/trip-fixtures';

const t = useTestApp();

const search = (who: Staff, q: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'GET',
    url: `/api/search?${new URLSearchParams({ q }).toString()}`,
    headers: { ...who.headers, ...headers },
  });

async function resultsOf(who: Staff, q: string): Promise<SearchResults> {
  const response = await search(who, q);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: SearchResults }>().data;
}

const names = (items: { name: string }[] | undefined) => items?.map((item) => item.name);
const ids = (items: { id: string }[] | undefined) => items?.map((item) => item.id).sort();

/**
 * Two city dealers (A in Maharashtra, B in Karnataka), franchises A1 and A2 under A and B1 under
 * B, a driver of each franchise with a trip, and a customer: every name carries the world's tag.
 */
async function createSearchWorld() {
  const tag = uniqueTag();
  const admin = await createStaff(t.db, { role: 'admin' });
  const dealerA = await createStaff(t.db, {
    role: 'city_dealer',
    state: 'maharashtra',
    displayName: `Dealer ${tag} A`,
  });
  const dealerB = await createStaff(t.db, {
    role: 'city_dealer',
    state: 'karnataka',
    displayName: `Dealer ${tag} B`,
  });
  const franchise = (name: string, dealer: Staff) =>
    createStaff(t.db, {
      role: 'franchise',
      state: dealer.state,
      dealerId: dealer.id,
      displayName: `Cabs ${tag} ${name}`,
    });
  const franchises = {
    a1: await franchise('A1', dealerA),
    a2: await franchise('A2', dealerA),
    b1: await franchise('B1', dealerB),
  };
  const customer = await createCustomer(t.db, { name: `Customer ${tag}` });
  const driverAndTrip = async (key: keyof typeof franchises) => {
    const driver = await createDriver(t.db, {
      name: `Driver ${tag} ${key}`,
      phoneNumber: `+91 9${String(randomInt(1e9)).padStart(9, '0')}`,
      franchiseId: franchises[key].id,
      state: key === 'b1' ? 'karnataka' : 'maharashtra',
    });
    const trip = await createTrip(t.db, {
      customer,
      driver: { id: driver.id, state: driver.state as 'maharashtra', carType: driver.carType },
      status: 'completed',
      overrides: { title: `Ride ${tag} ${key}` },
    });
    return { driver, trip };
  };
  const records = {
    a1: await driverAndTrip('a1'),
    a2: await driverAndTrip('a2'),
    b1: await driverAndTrip('b1'),
  };
  return { tag, admin, dealerA, dealerB, franchises, customer, records };
}

let world: Awaited<ReturnType<typeof createSearchWorld>>;
beforeAll(async () => {
  world = await createSearchWorld();
});

describe('GET /api/search', () => {
  it('answers an admin every kind, each item small, found by its own list', async () => {
    const { tag, records, customer } = world;
    const found = await resultsOf(world.admin, tag);

    expect(Object.keys(found).sort()).toEqual(['cityDealers', 'customers', 'drivers', 'franchises', 'trips']);
    expect(ids(found.trips)).toEqual(ids([records.a1.trip, records.a2.trip, records.b1.trip]));
    const trip = found.trips!.find((item) => item.id === records.a1.trip.id);
    expect(trip).toEqual({
      id: records.a1.trip.id,
      title: `Ride ${tag} a1`,
      createdAt: records.a1.trip.createdAt.toISOString(),
      pickup: records.a1.trip.pickupLocation,
      destination: records.a1.trip.destinationLocation,
    });
    expect(names(found.drivers)).toEqual([`Driver ${tag} a1`, `Driver ${tag} a2`, `Driver ${tag} b1`]);
    expect(found.drivers![0]).toEqual({
      id: records.a1.driver.id,
      name: `Driver ${tag} a1`,
      phoneNumber: records.a1.driver.phoneNumber,
      vehicleNumber: records.a1.driver.vehicleNumber,
    });
    expect(found.customers).toEqual([
      { id: customer.id, name: `Customer ${tag}`, phoneNumber: customer.phoneNumber, email: customer.email },
    ]);
    // Accounts by name, A to Z, with nothing of the lists' counts.
    expect(names(found.cityDealers)).toEqual([`Dealer ${tag} A`, `Dealer ${tag} B`]);
    expect(found.cityDealers![0]).toEqual({
      id: world.dealerA.id,
      name: `Dealer ${tag} A`,
      email: world.dealerA.email,
      state: 'maharashtra',
    });
    expect(names(found.franchises)).toEqual([`Cabs ${tag} A1`, `Cabs ${tag} A2`, `Cabs ${tag} B1`]);
  });

  it('finds what each list finds: a driver by phone, a trip by the end of its ID', async () => {
    const { records } = world;
    const byPhone = await resultsOf(world.admin, records.b1.driver.phoneNumber!);
    expect(ids(byPhone.drivers)).toEqual([records.b1.driver.id]);

    const byShortId = await resultsOf(world.admin, records.a2.trip.id.slice(-6));
    expect(ids(byShortId.trips)).toContain(records.a2.trip.id);
  });

  it('answers a franchise its own drivers and trips only', async () => {
    const { tag, records } = world;
    const found = await resultsOf(world.franchises.a1, tag);

    expect(Object.keys(found).sort()).toEqual(['drivers', 'trips']);
    expect(ids(found.drivers)).toEqual([records.a1.driver.id]);
    expect(ids(found.trips)).toEqual([records.a1.trip.id]);
    // Another franchise's driver, searched by phone, is not found at all.
    const other = await resultsOf(world.franchises.a1, records.a2.driver.phoneNumber!);
    expect(other.drivers).toEqual([]);
  });

  it('answers a city dealer no customers or city dealers, and its own franchises and their records', async () => {
    const { tag, records } = world;
    const found = await resultsOf(world.dealerA, tag);

    expect(Object.keys(found).sort()).toEqual(['drivers', 'franchises', 'trips']);
    expect(names(found.franchises)).toEqual([`Cabs ${tag} A1`, `Cabs ${tag} A2`]);
    expect(ids(found.drivers)).toEqual(ids([records.a1.driver, records.a2.driver]));
    expect(ids(found.trips)).toEqual(ids([records.a1.trip, records.a2.trip]));
  });

  it('answers at most 5 of each kind', async () => {
    const tag = uniqueTag();
    for (let i = 0; i < 7; i++) await createDriver(t.db, { name: `Many ${tag} ${i}` });
    const found = await resultsOf(world.admin, tag);
    expect(found.drivers).toHaveLength(5);
    expect(found.trips).toEqual([]);
  });

  it.each([
    ['no q', null],
    ['an empty q', ''],
    ['one character once trimmed', '  a  '],
    ['101 characters', 'x'.repeat(101)],
  ])('refuses %s, saying what it takes', async (_case, q) => {
    const response = await t.app.inject({
      method: 'GET',
      url: q === null ? '/api/search' : `/api/search?${new URLSearchParams({ q }).toString()}`,
      headers: world.admin.headers,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION',
      error: 'q: Type 2 to 100 characters to search.',
    });
  });

  it('says so in Hindi to a Hindi reader, and takes a trimmed query of 2', async () => {
    const refused = await search(world.admin, 'a', { 'accept-language': 'hi' });
    expect(refused.json()).toMatchObject({ error: 'q: खोजने के लिए 2 से 100 अक्षर लिखें।' });
    const found = await resultsOf(world.admin, `  ${world.tag.slice(0, 2)}  `);
    expect(found.drivers).toBeDefined();
  });

  it('answers 401 without a session', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/api/search?q=${world.tag}` });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
