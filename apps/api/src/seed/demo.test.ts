import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalObjectStore } from '../infra/object-store';
import { openDatabase, type Database } from '../db/client';
import { rowsOf } from '../db/rows';
import { seedDemo } from './demo';

const DAY = 86_400_000;
const TRIPS = 3_000;

describe('the demo seed', () => {
  let database: Database;
  let images: string;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
    images = mkdtempSync(join(tmpdir(), 'bmet-demo-'));
    await seedDemo(database.db, {
      password: 'demo-seed-test-2026',
      objectStore: createLocalObjectStore(images),
      progress: false,
      scale: { drivers: 40, customers: 60, trips: TRIPS, dealers: 2, franchisesPerDealer: 2 },
    });
  }, 120_000);
  afterAll(async () => {
    await database.close();
    rmSync(images, { recursive: true, force: true });
  });

  it('spreads the trips over six months, half of them in the last one and a half', async () => {
    const [row] = rowsOf(
      await database.db.execute(sql`
        select extract(epoch from now() - max(created_at)) * 1000 as newest,
               extract(epoch from now() - min(created_at)) * 1000 as oldest,
               count(*) filter (where created_at > now() - interval '45 days')::int as recent,
               count(*)::int as total
        from trips`),
    ) as { newest: number; oldest: number; recent: number; total: number }[];
    expect(row!.total).toBe(TRIPS);
    expect(Number(row!.newest)).toBeLessThan(DAY);
    expect(Number(row!.oldest)).toBeGreaterThan(170 * DAY);
    expect(Number(row!.oldest)).toBeLessThanOrEqual(181 * DAY);
    // An age is a uniform draw squared: a quarter of the six months holds half of the trips.
    expect(row!.recent / TRIPS).toBeGreaterThan(0.45);
    expect(row!.recent / TRIPS).toBeLessThan(0.55);
  });

  it('stores the trips oldest first, as the apps and the import do', async () => {
    // A newest-first list of a real table reads a few pages; a table stored in random order of
    // time makes it read a page per trip, and a benchmark on it measures a table nobody has. A
    // trip now and then lands in an older page's free space, as in any table.
    const [row] = rowsOf(
      await database.db.execute(sql`
        select count(*) filter (where created_at < before)::int as backwards
        from (select created_at, lag(created_at) over (order by ctid) as before from trips) stored`),
    ) as { backwards: number }[];
    expect(row!.backwards).toBeLessThan(TRIPS / 100);
  });

  it('gives every driver a vehicle of their car details, some past the guidelines’ 8 years', async () => {
    const [row] = rowsOf(
      await database.db.execute(sql`
        select (select count(*) from drivers)::int as drivers,
          count(*) filter (where v.driver_id is not null)::int as driven,
          count(*) filter (where v.first_registered_on < current_date - interval '8 years')::int as old,
          count(*) filter (where v.fuel = 'electric')::int as electric,
          count(*) filter (where v.make is null or v.seats is null or v.owner is null)::int as unfinished
        from vehicles v`),
    ) as Record<string, number>[];
    expect(row!.driven).toBe(row!.drivers);
    expect(row!.old).toBeGreaterThan(0);
    expect(row!.electric).toBeGreaterThan(row!.driven! / 2);
    expect(row!.unfinished).toBe(0);
  });

  it('has grievances in every state with drivers: some overdue, some resolved, each with its steps', async () => {
    const rows = rowsOf(
      await database.db.execute(sql`
        select d.state,
          count(g.id)::int as grievances,
          (count(g.id) filter (where g.status in ('open', 'in_progress', 'waiting', 'reopened') and g.due_at < now()))::int as overdue,
          (count(g.id) filter (where g.resolved_at is not null))::int as resolved,
          (select count(*)::int from grievance_events e where e.grievance_id = any(array_agg(g.id))) as steps
        from (select distinct state from drivers where franchise_id is not null and state is not null) d
        left join grievances g on g.state = d.state
        group by d.state`),
    ) as Record<string, number>[];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.grievances).toBeGreaterThan(0);
      expect(row.steps).toBeGreaterThanOrEqual(row.grievances!);
    }
    expect(rows.some((row) => row.overdue! > 0)).toBe(true);
    expect(rows.some((row) => row.resolved! > 0)).toBe(true);
  });
});
