import { beforeAll, describe, expect, it } from 'vitest';
import { createTrip, insertDriverRatings } from '../../seed/factories';
import { useTestApp } from '../../../test/test-app';
import { buildTripListQueries, findScopedKeys, LIST_TUNING, type ListTuning } from './list-planner';
import { findTrips } from './list-repository';
import type { TripListOptions } from './list-filters';
import { type ScopeCaller } from '../../lib/scope';
import { createTripWorld, type TripWorld } from '../../../test/trip-fixtures';

/**
 * A scoped list is answered from the newest trips when it can, else driver by driver or by the
 * planner (see buildTripListQueries). Every path must give the same pages: these tests tune the
 * choice so that each path runs on a small database.
 */

const t = useTestApp();
let w: TripWorld;

beforeAll(async () => {
  w = await createTripWorld(t.db);
  // More trips for a1 and a2, interleaved in time, two of them at the very same instant.
  const base = Date.now() - 30 * 3_600_000;
  const at = (minutes: number) => new Date(base - minutes * 60_000);
  const add = (driver: 'a1' | 'a2', minutes: number, overrides = {}) =>
    createTrip(t.db, {
      customer: w.customer,
      driver: { id: w.drivers[driver].id, state: 'maharashtra', carType: w.drivers[driver].carType },
      status: 'completed',
      createdAt: at(minutes),
      overrides: { title: `Ravi Kumar ${w.tag}`, ...overrides },
    });
  for (const minutes of [1, 3, 5, 5, 9]) await add('a1', minutes);
  for (const minutes of [2, 4, 5, 8]) await add('a2', minutes, { paid: true });
  await add('a1', 6, { title: `Other ${w.tag}`, status: 'cancelled' });
  await insertDriverRatings(t.db, w.drivers.a1.id, [
    { customerName: 'Meera', description: 'Polite', rating: 5 },
    { customerName: 'Dev', description: 'Fine', rating: 4 },
  ]);
});

/** Every page of a list, walked to the end. */
async function walk(
  caller: ScopeCaller,
  options: Omit<TripListOptions, 'cursor'>,
  tuning: ListTuning = LIST_TUNING,
) {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const result = await findTrips(t.db, caller, { ...options, cursor }, tuning);
    ids.push(...result.trips.map((trip) => trip.id));
    if (!result.nextCursor) return ids;
    cursor = result.nextCursor;
  }
  throw new Error('The walk did not end');
}

const TUNINGS: [string, ListTuning][] = [
  // A window this wide holds every trip of the test database: pages come from `recent`, the
  // scope's drivers joined to the window or checked trip by trip.
  ['the newest trips', { recentWindow: 1_000_000, fewDrivers: 0, directDrivers: 0, rowByRowShare: 2 }],
  [
    'the newest trips, trip by trip',
    { recentWindow: 1_000_000, fewDrivers: 0, directDrivers: 0, rowByRowShare: 0 },
  ],
  // A window of one trip leaves every page short.
  ['driver by driver', { recentWindow: 1, fewDrivers: 1000, directDrivers: 0 }],
  [
    'driver by driver, after a window checked trip by trip',
    { recentWindow: 1, fewDrivers: 1000, directDrivers: 0, rowByRowShare: 0 },
  ],
  ['driver by driver at once', { recentWindow: 1_000_000, fewDrivers: 0, directDrivers: 1000 }],
  ['the planner', { recentWindow: 1, fewDrivers: 0, directDrivers: 0 }],
];

const DRIVER_BY_DRIVER = TUNINGS[2]![1];
const [JOINED, BY_TRIP] = [TUNINGS[0]![1], TUNINGS[1]![1]];

describe('scoped lists, whatever the path that answers them', () => {
  // Built lazily: the world exists only once beforeAll has run.
  const cases: [string, () => [ScopeCaller, Omit<TripListOptions, 'cursor' | 'limit'>]][] = [
    ['dealer A, everything', () => [w.dealerA, {}]],
    ['dealer A, a search', () => [w.dealerA, { q: `ravi kumar ${w.tag}` }]],
    ['dealer A, paid', () => [w.dealerA, { paid: true }]],
    ['dealer A, cancelled', () => [w.dealerA, { status: 'cancelled' }]],
    ['dealer A, ids of a2 and b1', () => [w.dealerA, { driverIds: [w.drivers.a2.id, w.drivers.b1.id] }]],
    ['franchise A1, everything', () => [w.franchiseA1, {}]],
    ['franchise B1, everything', () => [w.franchiseB1, {}]],
    [
      'admin, ids of a1 and the loose driver',
      () => [w.admin, { driverIds: [w.drivers.a1.id, w.drivers.loose.id] }],
    ],
  ];

  it.each(cases)('gives the same pages: %s', async (_label, build) => {
    const [caller, filters] = build();
    const expected = await walk(caller, { ...filters, limit: 100 });
    expect(expected.length).toBeGreaterThan(0);
    for (const [path, tuning] of TUNINGS) {
      for (const limit of [2, 5]) {
        const pages = await walk(caller, { ...filters, limit }, tuning);
        expect(pages, `${path}, limit ${limit}`).toEqual(expected);
      }
    }
  });

  it('answers the same whole trips on every path, drivers and their ratings included', async () => {
    const expected = (await findTrips(t.db, w.dealerA, { limit: 100 })).trips;
    expect(expected.find((trip) => trip.driverId === w.drivers.a1.id)?.driver_info).toMatchObject({
      name: w.drivers.a1.name,
      rating: 4.5,
    });
    for (const [path, tuning] of TUNINGS) {
      expect((await findTrips(t.db, w.dealerA, { limit: 100 }, tuning)).trips, path).toEqual(expected);
    }
  });

  it("answers the dealer's trips newest first, ties by id", async () => {
    const trips = (await findTrips(t.db, w.dealerA, { limit: 100 }, DRIVER_BY_DRIVER)).trips;
    const keys = trips.map((trip) => `${trip.createdAt} ${trip.id}`);
    expect(keys).toEqual([...keys].sort().reverse());
    expect(trips).toHaveLength(2 + 6 + 4);
    expect(trips.every((trip) => [w.drivers.a1.id, w.drivers.a2.id].includes(trip.driverId!))).toBe(true);
  });

  it('answers nothing of drivers outside the scope on the driver-by-driver path', async () => {
    const ids = [w.drivers.b1.id, w.drivers.loose.id];
    expect((await findTrips(t.db, w.dealerA, { limit: 10, driverIds: ids }, DRIVER_BY_DRIVER)).trips).toEqual(
      [],
    );
    expect((await findTrips(t.db, w.franchiseA1, { limit: 10 }, DRIVER_BY_DRIVER)).trips).toHaveLength(7);
  });

  it("looks through the newest trips as each tuning asks, the scope's drivers joined or trip by trip", async () => {
    for (const [caller, tuning, path] of [
      [w.dealerA, JOINED, 'recent'],
      [w.dealerA, BY_TRIP, 'recentByRow'],
      [w.franchiseA1, JOINED, 'recent'],
      [w.franchiseA1, BY_TRIP, 'recentByRow'],
    ] as const) {
      const queries = buildTripListQueries(t.db, caller, { limit: 2 }, tuning);
      if (queries.kind !== 'scoped') throw new Error('A scoped list was expected');
      const { ran } = await findScopedKeys(queries, caller, { limit: 2 }, tuning);
      expect(ran).toContain(path);
    }
  });
});
