import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, vacuumWhereNeeded, type Db } from './client';
import { rowsOf } from './rows';
import { drivers } from './schema';
import { createCustomer, createDriver } from '../seed/factories';
import { againstPostgres } from '../../test/test-database';

const folder = mkdtempSync(join(tmpdir(), 'bmet-client-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function statisticsRows(db: Db, table: string): Promise<number> {
  const result = (await db.execute(
    sql`select count(*)::int as n from pg_stats where tablename = ${table}`,
  )) as unknown as {
    rows: { n: number }[];
  };
  return result.rows[0]!.n;
}

// The embedded database alone, whichever pass: see `againstPostgres`.
describe.skipIf(againstPostgres)('opening the embedded database', () => {
  it('refreshes the planner statistics of rows loaded since the last start (PGlite has no autovacuum)', async () => {
    const first = await openDatabase({ dataDir: folder });
    for (let i = 0; i < 20; i++) await createCustomer(first.db);
    expect(await statisticsRows(first.db, 'customers')).toBe(0);
    await first.close();

    const again = await openDatabase({ dataDir: folder });
    try {
      expect(await statisticsRows(again.db, 'customers')).toBeGreaterThan(0);
    } finally {
      await again.close();
    }
  }, 60_000);
});

describe.skipIf(againstPostgres)('vacuuming the embedded database', () => {
  /** The dead row versions PostgreSQL counts in the drivers' table (its counts sent at once). */
  const deadDriverRows = async (db: Db) => {
    await db.execute(sql`select pg_stat_force_next_flush()`);
    return Number(
      rowsOf(
        await db.execute(sql`select n_dead_tup as n from pg_stat_user_tables where relname = 'drivers'`),
      )[0]?.n,
    );
  };

  it('vacuums the tables whose dead rows passed the threshold, and leaves the others', async () => {
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      const { db } = database;
      for (let i = 0; i < 100; i++) await createDriver(db);
      await createCustomer(db);
      // Rows changed over and over, indexed columns included: each change leaves a dead version.
      for (let change = 0; change < 5; change++) {
        await db.update(drivers).set({ name: sql`${drivers.name} || '.'`, lat: change, long: change });
      }
      expect(await deadDriverRows(db)).toBeGreaterThan(50 + 0.2 * 100);

      await db.execute(sql`select pg_stat_force_next_flush()`);
      const vacuumed = await vacuumWhereNeeded(db);
      expect(vacuumed).toContain('drivers');
      expect(vacuumed).not.toContain('customers');
      expect(await deadDriverRows(db)).toBe(0);
      // Nothing is due again until rows die again.
      expect(await vacuumWhereNeeded(db)).toEqual([]);
    } finally {
      await database.close();
    }
  }, 60_000);

  it('vacuums a table filled by inserts alone, so that its index can be read without it', async () => {
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      const { db } = database;
      // About 2 MB of trips, written in one statement and never changed: nothing dies.
      await db.execute(sql`insert into trips (title, pickup_location, status)
        select 'Inserted ' || n, repeat('Temple Road ', 40), 'completed' from generate_series(1, 4000) n`);
      await db.execute(sql`analyze trips`);
      const marked = async () =>
        rowsOf(
          await db.execute(
            sql`select relpages as pages, relallvisible as visible from pg_class where relname = 'trips'`,
          ),
        ).map((row) => ({ pages: Number(row.pages), visible: Number(row.visible) }))[0]!;
      expect((await marked()).visible).toBe(0);

      expect(await vacuumWhereNeeded(db)).toContain('trips');
      const after = await marked();
      expect(after.visible).toBe(after.pages);
      expect(await vacuumWhereNeeded(db)).toEqual([]);
    } finally {
      await database.close();
    }
  }, 60_000);
});
