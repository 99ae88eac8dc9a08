import { randomUUID } from 'node:crypto';
import { and, count, eq, inArray, sql, sum } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client';
import { rowsOf } from '../db/rows';
import {
  customers,
  driverCounts,
  listCounts,
  drivers,
  driverDocuments,
  driverMandatoryDocuments,
  tripDailyStats,
  tripHourlyStats,
  trips,
} from '../db/schema';
import { createAccount, createCustomer, createDriver } from './factories';
import { againstPostgres, getTestDatabase } from '../../test/test-database';
import { insertMany, loadWithIndexesBuiltAfter } from './bulk-insert';
import { findTripRecordPage } from '../modules/trips/list-repository';
import { findDrivers } from '../modules/drivers/list-repository';

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ dataDir: 'memory://' });
});
afterAll(() => database.close());

const titleIndex = async () =>
  rowsOf(
    await database.db.execute(sql`
      select c.relname as name, a.attstattarget as target
      from pg_class c join pg_attribute a on a.attrelid = c.oid
      where c.relname = 'trips_title_search_idx'`),
  );

describe('a bulk load with the indexes built after it', () => {
  it('leaves the indexes as they were, with the statistics targets the migrations set', async () => {
    expect(await titleIndex()).toEqual([{ name: 'trips_title_search_idx', target: 1000 }]);
    await loadWithIndexesBuiltAfter(database.db, [trips], async () => {});
    // Without its finer statistics a common surname in a trip search is estimated at a few rows
    // and the list sorts every match instead of walking the newest trips.
    expect(await titleIndex()).toEqual([{ name: 'trips_title_search_idx', target: 1000 }]);
  });
});

describe('a bulk load given memory to build its indexes in', () => {
  it('has it for its own transaction on PostgreSQL, and the embedded database keeps its default', async () => {
    const { db } = await getTestDatabase();
    const memory = async (tx: Database['db']) =>
      rowsOf(await tx.execute(sql`select current_setting('maintenance_work_mem') as memory`))[0]?.memory;
    const before = await memory(db);
    const during = await loadWithIndexesBuiltAfter(db, [customers], memory, { indexMemory: '512MB' });
    expect(during).toBe(againstPostgres ? '512MB' : before);
    expect(await memory(db)).toBe(before);
  });
});

describe('inserting many rows', () => {
  // Every character COPY's text format gives a meaning to, and text that looks like its null.
  const awkward = [
    'tab\there',
    'line\nbreak',
    'carriage\rreturn',
    'back\\slash',
    '\\N',
    'quote " and \' apostrophe',
    'नमस्ते, Zoë',
    '',
  ];

  it('stores every value as given, nulls and awkward text included, in a transaction and outside one', async () => {
    const { db } = await getTestDatabase();
    const rows = awkward.map((name, i) => ({
      id: randomUUID(),
      name,
      email: i % 2 ? null : `${i}@example.test`,
      createdAt: new Date(Date.UTC(2026, 0, 1 + i, 5, 30, 15, 123)),
    }));
    await insertMany(db, customers, rows.slice(0, 4));
    await db.transaction((tx) => insertMany(tx as never, customers, rows.slice(4)));
    const stored = await db
      .select({
        id: customers.id,
        name: customers.name,
        email: customers.email,
        createdAt: customers.createdAt,
      })
      .from(customers)
      .where(
        inArray(
          customers.id,
          rows.map((row) => row.id),
        ),
      );
    expect(stored.sort((a, b) => +a.createdAt - +b.createdAt)).toEqual(rows);
  });

  it('stores numbers, booleans and enums, and lets the other columns take their defaults', async () => {
    const { db } = await getTestDatabase();
    const id = randomUUID();
    await insertMany(db, trips, [
      { id, title: 'Bulk trip', price: 249.75, distanceKm: 0.1, paid: true, status: 'completed' },
    ]);
    const [trip] = await db.select().from(trips).where(eq(trips.id, id));
    expect(trip).toMatchObject({
      title: 'Bulk trip',
      price: 249.75,
      distanceKm: 0.1,
      paid: true,
      status: 'completed',
      driverId: null,
      cancelReason: null,
    });
    expect(trip!.createdAt).toBeInstanceOf(Date);
  });

  it('writes nothing of a batch that breaks a rule', async () => {
    const { db } = await getTestDatabase();
    const id = randomUUID();
    await expect(
      insertMany(db, customers, [
        { id, name: 'First of two' },
        { id, name: 'Same key again' },
      ]),
    ).rejects.toThrow();
    expect(await db.select().from(customers).where(eq(customers.id, id))).toEqual([]);
  });
});

describe('the figures kept from the rows', () => {
  it('are the same after a bulk load as if every row had been written alone', async () => {
    const { db } = await getTestDatabase();
    const franchise = await createAccount(db, { role: 'franchise' });
    const driver = await createDriver(db, { franchiseId: franchise.id, state: 'maharashtra' });
    const customer = await createCustomer(db);
    const day = new Date('2026-03-10T04:30:00Z'); // 10:00 in India
    await loadWithIndexesBuiltAfter(
      db,
      [driverDocuments, trips],
      async (tx) => {
        await insertMany(tx, trips, [
          ...Array.from({ length: 3 }, () => ({
            title: 'Bulk rider',
            customerId: customer.id,
            driverId: driver.id,
            status: 'completed' as const,
            price: 100,
            createdAt: day,
          })),
          {
            title: 'Bulk rider',
            customerId: customer.id,
            driverId: driver.id,
            status: 'cancelled' as const,
            cancelReason: 'Changed plans',
            createdAt: day,
          },
        ]);
        await insertMany(tx, driverDocuments, [
          { driverId: driver.id, key: 'aadharCard', status: 'submitted' as const },
          { driverId: driver.id, key: 'panCard', status: 'submitted' as const },
          { driverId: driver.id, key: 'driverLicence', status: 'approved' as const },
        ]);
      },
      { foreignKeys: true },
    );
    const daily = await db
      .select({ status: tripDailyStats.status, trips: tripDailyStats.trips, fares: tripDailyStats.fareTotal })
      .from(tripDailyStats)
      .where(and(eq(tripDailyStats.franchiseId, franchise.id), eq(tripDailyStats.day, '2026-03-10')));
    expect(daily.sort((a, b) => a.status.localeCompare(b.status))).toEqual([
      { status: 'cancelled', trips: 1, fares: '0' },
      { status: 'completed', trips: 3, fares: '300' },
    ]);
    const [hourly] = await db
      .select({ trips: sum(tripHourlyStats.trips) })
      .from(tripHourlyStats)
      .where(and(eq(tripHourlyStats.franchiseId, franchise.id), eq(tripHourlyStats.hour, 10)));
    expect(Number(hourly?.trips)).toBe(4);
    const [counted] = await db
      .select({ awaiting: drivers.documentsAwaitingReview })
      .from(drivers)
      .where(eq(drivers.id, driver.id));
    expect(counted?.awaiting).toBe(2);
    const [kept] = await db
      .select({ documents: driverMandatoryDocuments.documents })
      .from(driverMandatoryDocuments)
      .where(eq(driverMandatoryDocuments.driverId, driver.id));
    expect(kept?.documents).toEqual([
      ['aadharCard', 'submitted', null],
      ['driverLicence', 'approved', null],
    ]);

    // The triggers are back on: a trip written alone after the load is counted too.
    await db
      .insert(trips)
      .values({ title: 'Alone', driverId: driver.id, status: 'completed', price: 50, createdAt: day });
    const [after] = await db
      .select({ trips: sum(tripDailyStats.trips) })
      .from(tripDailyStats)
      .where(eq(tripDailyStats.franchiseId, franchise.id));
    expect(Number(after?.trips)).toBe(5);
  });

  it('keep the titles a name search reads, through a bulk load and after it', async () => {
    const { db } = await getTestDatabase();
    const admin = { id: randomUUID(), role: 'admin' as const };
    const name = `Bulk ${randomUUID().slice(0, 8)}`;
    const found = async (q: string) =>
      (await findTripRecordPage(db, admin, { q, limit: 50 })).rows.map((row) => row.title);
    await loadWithIndexesBuiltAfter(db, [trips], (tx) =>
      insertMany(tx, trips, [{ title: `${name} Loaded`, status: 'completed' as const }]),
    );
    expect(await found(`${name} loaded`)).toEqual([`${name} Loaded`]);
    await db.insert(trips).values({ title: `${name} Alone`, status: 'completed' });
    expect(await found(`alone ${name}`)).toEqual([`${name} Alone`]);
  });

  it('keep what the driver search reads, through a bulk load of drivers and after it', async () => {
    const { db } = await getTestDatabase();
    const admin = { id: randomUUID(), role: 'admin' as const };
    const name = `Bulk ${randomUUID().slice(0, 8)}`;
    const found = async (q: string) =>
      (await findDrivers(db, admin, { q, limit: 50 })).drivers.map((driver) => driver.name);
    await loadWithIndexesBuiltAfter(db, [drivers], (tx) =>
      insertMany(tx, drivers, [{ name: `${name} Loaded` }, { name: `${name} Gone`, deletedAt: new Date() }]),
    );
    expect(await found(name)).toEqual([`${name} Loaded`]);
    expect(await findDrivers(db, admin, { q: name, limit: 50, deleted: true })).toMatchObject({
      drivers: [{ name: `${name} Gone` }],
    });
    await createDriver(db, { name: `${name} Alone` });
    expect(await found(name)).toEqual([`${name} Alone`, `${name} Loaded`]);
  });

  it('keep the count of customers through a bulk load of customers', async () => {
    const { db } = await getTestDatabase();
    const counted = async () =>
      (await db.select({ rows: listCounts.rows }).from(listCounts).where(eq(listCounts.list, 'customers')))[0]
        ?.rows;
    const rows = async () => (await db.select({ n: count() }).from(customers))[0]!.n;
    await loadWithIndexesBuiltAfter(db, [customers], async (tx) => {
      await insertMany(
        tx,
        customers,
        Array.from({ length: 5 }, (_, i) => ({ name: `Bulk customer ${i}` })),
      );
    });
    expect(await counted()).toBe(await rows());
    // The triggers are back on: a customer written alone after the load is counted too.
    await createCustomer(db);
    expect(await counted()).toBe(await rows());
  });

  it("keep each franchise's count of drivers through a bulk load of drivers", async () => {
    const { db } = await getTestDatabase();
    const franchise = await createAccount(db, { role: 'franchise' });
    await createDriver(db, { franchiseId: franchise.id });
    await loadWithIndexesBuiltAfter(db, [drivers], async (tx) => {
      await insertMany(tx, drivers, [
        ...Array.from({ length: 4 }, (_, i) => ({ name: `Bulk driver ${i}`, franchiseId: franchise.id })),
        { name: 'Bulk driver gone', franchiseId: franchise.id, deletedAt: new Date() },
      ]);
    });
    const countsOf = async () =>
      Object.fromEntries(
        (
          await db
            .select({ deleted: driverCounts.deleted, drivers: driverCounts.drivers })
            .from(driverCounts)
            .where(eq(driverCounts.franchiseId, franchise.id))
        ).map((row) => [row.deleted ? 'deleted' : 'active', row.drivers]),
      );
    expect(await countsOf()).toEqual({ active: 5, deleted: 1 });
    // The triggers are back on: a driver written alone after the load is counted too.
    await createDriver(db, { franchiseId: franchise.id });
    expect(await countsOf()).toEqual({ active: 6, deleted: 1 });
  });
});
