/**
 * How the driver list behaves with many drivers: seeds them into a fresh database, prints the
 * plan PostgreSQL chooses for each list query the API runs (EXPLAIN ANALYZE of the very queries
 * the repository builds) and the time of whole requests through the app.
 *
 *   npm run bench                                   PGlite in memory, 100,000 drivers
 *   BENCH_DRIVERS=20000 npm run bench               fewer drivers
 *   BENCH_DRIVERS_DATABASE_URL=postgres://... npm run bench:db
 *                                                   an EMPTY PostgreSQL database of its own (it is filled;
 *                                                   not the shared benchmark database)
 *
 * It checks nothing and fails on nothing: read the plans (which index, how many rows) and times.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Role, State } from '@bmet/shared/constants';
import { openDatabase, type Db } from '../src/db/client';
import { buildDriver } from '../src/seed/factories';
import { Random } from '../src/seed/random';
import { accounts, drivers } from '../src/db/schema';
import { buildDriverListQueries, type DriverListOptions } from '../src/modules/drivers/list-repository';
import { encodeSortedCursor } from '../src/lib/sort';
import { headersOf, type Staff, buildBenchApp } from './bench-data';

const DRIVERS = Number(process.env.BENCH_DRIVERS ?? 100_000);
// Dealers of very different sizes: the planner's choice for a dealer depends on its share.
const FRANCHISES_PER_DEALER = [30, 20, 15, 10, 8, 6, 5, 3, 2, 1];
const REQUESTS = 20;
const STATES: State[] = ['maharashtra', 'karnataka', 'delhi', 'tamil nadu', 'gujarat'];

async function seed(db: Db) {
  const rng = new Random(424242);
  const staff = (role: Role, n: number, extra: Partial<typeof accounts.$inferInsert> = {}) => ({
    id: randomUUID(),
    role,
    email: `${role}.${n}.${randomUUID().slice(0, 6)}@bench.test`,
    displayName: `${role} ${n}`,
    // Nobody signs in with a password here: tokens are issued directly.
    passwordHash: 'not-a-hash',
    ...extra,
  });
  const admin = staff('admin', 0);
  const dealers = FRANCHISES_PER_DEALER.map((_, d) =>
    staff('city_dealer', d, { state: STATES[d % STATES.length]! }),
  );
  const franchises = dealers.flatMap((dealer, d) =>
    Array.from({ length: FRANCHISES_PER_DEALER[d]! }, (_, f) =>
      staff('franchise', d * 100 + f, { state: dealer.state, dealerId: dealer.id }),
    ),
  );
  await db.insert(accounts).values([admin, ...dealers, ...franchises]);

  const started = Date.now();
  const BATCH = 2000;
  for (let i = 0; i < DRIVERS; i += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, DRIVERS - i) }, (_, j) => {
      const franchise = rng.chance(0.92) ? rng.pick(franchises) : null;
      const row = buildDriver(rng, {
        state: (franchise?.state as State | undefined) ?? rng.pick(STATES),
        franchiseId: franchise?.id ?? null,
      });
      // About one in a thousand deleted, for the admin's deleted view.
      return (i + j) % 1000 === 7 ? { ...row, deletedAt: new Date(), deletedBy: admin.id } : row;
    });
    await db.insert(drivers).values(batch);
    if ((i / BATCH) % 10 === 9) console.log(`  ${i + batch.length} drivers (${secondsSince(started)} s)`);
  }
  // A dealer that has just started: one franchise with five drivers among all the others.
  const newDealer = staff('city_dealer', 99, { state: 'goa' });
  const newFranchise = staff('franchise', 9999, { state: 'goa', dealerId: newDealer.id });
  await db.insert(accounts).values([newDealer, newFranchise]);
  await db
    .insert(drivers)
    .values(
      Array.from({ length: 5 }, () => buildDriver(rng, { state: 'goa', franchiseId: newFranchise.id })),
    );
  await db.execute(sql`analyze`);
  console.log(`Seeded ${DRIVERS} drivers in ${secondsSince(started)} s`);
  return {
    admin,
    bigDealer: dealers[0]!,
    smallDealer: dealers.at(-1)!,
    newDealer,
    franchise: franchises[0]!,
    newFranchise,
  };
}

const secondsSince = (start: number) => ((Date.now() - start) / 1000).toFixed(1);

function rowsOf(result: unknown): Record<string, unknown>[] {
  return Array.isArray(result) ? result : ((result as { rows: Record<string, unknown>[] }).rows ?? []);
}

async function explain(db: Db, label: string, caller: Staff, options: DriverListOptions) {
  const { page, total } = buildDriverListQueries(db, caller, options);
  const parts = total ? { page, 'total, capped': total } : { page };
  for (const [part, query] of Object.entries(parts)) {
    const result = await db.execute(sql`explain (analyze, buffers, costs off) ${query}`);
    const lines = rowsOf(result).map((row) => String(Object.values(row)[0]));
    console.log(`\n--- ${label} [${part}]`);
    for (const line of lines) console.log(`    ${line}`);
  }
}

async function main() {
  const database = await openDatabase(
    process.env.BENCH_DRIVERS_DATABASE_URL
      ? { databaseUrl: process.env.BENCH_DRIVERS_DATABASE_URL, dataDir: 'memory://' }
      : { dataDir: 'memory://' },
  );
  const { db } = database;
  console.log(`Database: ${database.kind}`);
  const { admin, bigDealer, smallDealer, newDealer, franchise, newFranchise } = await seed(db);

  // A cursor from the middle of the list (what page ~1000 of 50 would send).
  const [middle] = await db
    .select({ name: drivers.name, id: drivers.id, vehicleNumber: drivers.vehicleNumber })
    .from(drivers)
    .orderBy(drivers.name, drivers.id)
    .offset(Math.floor(DRIVERS / 2))
    .limit(1);
  const cursor = encodeSortedCursor({ field: 'name', order: 'asc' }, [middle!.name, middle!.id]);
  // The end of a real vehicle number ("12 AB 3456"): few drivers share it.
  const plate = (middle!.vehicleNumber ?? 'MH 12 AB 3456').slice(-10).toLowerCase();

  const scenarios: [string, Staff, DriverListOptions][] = [
    ['admin, first page', admin, { limit: 50 }],
    ['admin, page from the middle', admin, { limit: 50, cursor }],
    ['admin, search a common surname "patil"', admin, { limit: 50, q: 'patil' }],
    [`admin, search a vehicle number part "${plate}"`, admin, { limit: 50, q: plate }],
    ['admin, search a phone fragment "98765"', admin, { limit: 50, q: '98765' }],
    ['admin, deleted drivers', admin, { limit: 50, deleted: true }],
    ['city dealer (30 franchises), first page', bigDealer, { limit: 50 }],
    ['city dealer (30 franchises), page from the middle', bigDealer, { limit: 50, cursor }],
    ['city dealer (30 franchises), search "kumar"', bigDealer, { limit: 50, q: 'kumar' }],
    ['city dealer (1 franchise), first page', smallDealer, { limit: 50 }],
    ['city dealer (1 franchise), page from the middle', smallDealer, { limit: 50, cursor }],
    ['city dealer (1 franchise, 5 drivers), first page', newDealer, { limit: 50 }],
    ['franchise, first page', franchise, { limit: 50 }],
    ['franchise, page from the middle', franchise, { limit: 50, cursor }],
    ['franchise, search "kumar"', franchise, { limit: 50, q: 'kumar' }],
    ['franchise (5 drivers), first page', newFranchise, { limit: 50 }],
  ];
  for (const [label, caller, options] of scenarios) await explain(db, label, caller, options);

  // Whole requests: authentication, both queries, serialization.
  const app = await buildBenchApp(db);
  console.log(`\nRequests (median and slowest of ${REQUESTS}, after one warm-up):`);
  for (const [label, caller, options] of scenarios) {
    const query = new URLSearchParams({
      limit: String(options.limit),
      ...(options.q ? { q: options.q } : {}),
      ...(options.cursor ? { cursor: options.cursor } : {}),
      ...(options.deleted ? { deleted: 'true' } : {}),
    });
    const headers = await headersOf(db, caller);
    const url = `/api/drivers?${query}`;
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i <= REQUESTS; i++) {
      const start = performance.now();
      const response = await app.inject({ method: 'GET', url, headers });
      if (response.statusCode !== 200) throw new Error(`${label}: ${response.statusCode} ${response.body}`);
      if (i > 0) times.push(performance.now() - start);
      total = response.json().total;
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!.toFixed(1);
    const slowest = times.at(-1)!.toFixed(1);
    console.log(`  ${label.padEnd(52)} ${median.padStart(7)} ms  (max ${slowest} ms, total ${total})`);
  }
  await app.close();
  await database.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
