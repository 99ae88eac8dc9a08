import { eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { getTestDatabase } from '../../test/test-database';
import { isPostgresServer, rowReader, withColumnAround } from './row-reader';
import { drivers, trips } from './schema';
import { createCustomer, createDriver, createTrip } from '../seed/factories';

const driver = alias(drivers, 'driver');
const fields = {
  id: trips.id,
  title: trips.title,
  price: trips.price,
  paid: trips.paid,
  status: trips.status,
  cancelReason: trips.cancelReason,
  createdAt: trips.createdAt,
  createdDay: sql<string>`to_char(${trips.createdAt} at time zone 'Asia/Kolkata', 'YYYY-MM-DD')`.as(
    'created_day',
  ),
  kilometres: sql`${trips.distanceKm}`.mapWith(Number),
  driverName: driver.name,
  driverPositionAt: driver.positionAt,
};

describe('rowReader', () => {
  it('answers the rows Drizzle answers for the same query, joined columns and SQL fields included', async () => {
    const { db } = await getTestDatabase();
    const located = await createDriver(db, { positionAt: new Date('2026-11-20T10:15:30.123Z') });
    const customer = await createCustomer(db);
    const made = [
      await createTrip(db, { customer, overrides: { driverId: located.id, price: 199.5, paid: true } }),
      await createTrip(db, { customer, overrides: { driverId: null, price: null, status: 'cancelled' } }),
    ];
    const ids = made.map((trip) => trip.id);
    const query = db
      .select(fields)
      .from(trips)
      .leftJoin(driver, eq(driver.id, trips.driverId))
      .where(inArray(trips.id, ids))
      .orderBy(trips.id);
    const expected = await query;
    const read = await rowReader(fields)<(typeof expected)[number]>(db, query);
    expect(read).toEqual(expected);
    expect(read).toHaveLength(2);
    const withDriver = read.find((row) => row.driverName !== null)!;
    expect(withDriver.createdAt).toBeInstanceOf(Date);
    expect(withDriver.driverPositionAt).toEqual(new Date('2026-11-20T10:15:30.123Z'));
    expect(typeof withDriver.kilometres).toBe('number');
  });

  it('reads inside a transaction as outside one', async () => {
    const { db } = await getTestDatabase();
    const trip = await createTrip(db);
    const query = (executor: typeof db) =>
      executor
        .select(fields)
        .from(trips)
        .leftJoin(driver, eq(driver.id, trips.driverId))
        .where(eq(trips.id, trip.id));
    const inside = await db.transaction((tx) => rowReader(fields)(tx, query(tx as unknown as typeof db)));
    expect(inside).toEqual(await query(db));
  });

  it('adds a column around a cut page, keeping its rows, their order and its parameters', async () => {
    const { db } = await getTestDatabase();
    const customer = await createCustomer(db);
    const made = [];
    for (const price of [300, 100, 200]) made.push(await createTrip(db, { customer, overrides: { price } }));
    const page = db
      .select(fields)
      .from(trips)
      .leftJoin(driver, eq(driver.id, trips.driverId))
      .where(
        inArray(
          trips.id,
          made.map((trip) => trip.id),
        ),
      )
      .orderBy(trips.price)
      .limit(2);
    const expected = await page;
    const read = await rowReader({ ...fields, priceTimes: sql<number>`` })<
      (typeof expected)[number] & { priceTimes: number }
    >(
      db,
      withColumnAround(page, (param) => `page.price * ${param(1)}::int + ${param(0)}::int`, [1, 10]),
    );
    expect(read.map(({ priceTimes: _, ...row }) => row)).toEqual(expected);
    expect(read.map((row) => [row.price, row.priceTimes])).toEqual([
      [100, 1001],
      [200, 2001],
    ]);
  });
});

describe('isPostgresServer', () => {
  it('tells a PostgreSQL server from the embedded database', async () => {
    const { db } = await getTestDatabase();
    expect(isPostgresServer(db)).toBe(Boolean(process.env.TEST_DATABASE_URL));
  });
});
