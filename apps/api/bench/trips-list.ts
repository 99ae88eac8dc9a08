/**
 * How the trip list (and the customer list) behave on a million trips. Seeds a database with the
 * demo seed at scale, or reuses one that is already seeded, then prints the plan PostgreSQL chooses
 * for the main queries (EXPLAIN ANALYZE of the very queries the repository builds) and the time of
 * whole requests through the app.
 *
 *   npm run bench                                     PGlite kept in $BENCH_DATA_DIR (default: a
 *                                                     folder under the system temp folder)
 *   BENCH_DATABASE_URL=postgres://.../bench npm run bench
 *                                                     PostgreSQL: an empty database is seeded,
 *                                                     one seeded before (also by `npm run seed`)
 *                                                     is reused
 *   BENCH_TRIPS=200000 BENCH_DRIVERS=5000 BENCH_CUSTOMERS=20000   a smaller seed
 *
 * Seeding a million trips takes minutes (PostgreSQL) to tens of minutes (PGlite); later runs
 * reuse it. It checks nothing and fails on nothing: read the plans and the times.
 */
import { sql, type SQLWrapper } from 'drizzle-orm';
import { type Db } from '../src/db/client';
import { trips } from '../src/db/schema';
import { buildCustomerListQueries } from '../src/modules/customers/repository';
import { buildTripListQueries, findScopedKeys } from '../src/modules/trips/list-planner';
import { type TripListOptions } from '../src/modules/trips/list-filters';
import {
  ABSENT,
  COMMON,
  DATA_DIR,
  headersOf,
  PAGE,
  prepare,
  RARE,
  REQUESTS,
  rowsOf,
  type Staff,
  openBenchDatabase,
  buildBenchApp,
} from './bench-data';

async function explainQuery(db: Db, label: string, query: SQLWrapper) {
  const result = await db.execute(sql`explain (analyze, buffers, costs off) ${query}`);
  console.log(`\n--- ${label}`);
  for (const row of rowsOf(result)) console.log(`    ${String(Object.values(row)[0])}`);
}

async function main() {
  const database = await openBenchDatabase();
  const { db } = database;
  console.log(`Database: ${database.kind}${database.kind === 'pglite' ? ` in ${DATA_DIR}` : ''}`);
  const { admin, dealer, franchise, newDealer, dealerDriverIds } = await prepare(db, database.kind);

  const app = await buildBenchApp(db);
  const headers = new Map<Staff, { authorization: string }>();
  for (const who of [admin, dealer, franchise, newDealer]) headers.set(who, await headersOf(db, who));

  type Call = { method: 'GET' | 'POST'; url: string; payload?: Record<string, unknown> };
  const call = async (who: Staff, request: Call) => {
    const response = await app.inject({ ...request, headers: headers.get(who) });
    if (response.statusCode !== 200)
      throw new Error(`${request.url}: ${response.statusCode} ${response.body}`);
    return response.json() as { data: Record<string, unknown>; nextCursor: string | null };
  };

  // A cursor after 50 pages, reached by walking them as a client would.
  const deepCursor = async (who: Staff) => {
    let cursor: string | null = null;
    for (let page = 0; page < 50; page++) {
      const url: string = `/api/trips?limit=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`;
      cursor = (await call(who, { method: 'GET', url })).nextCursor;
    }
    return cursor!;
  };
  const adminDeep = await deepCursor(admin);
  const dealerDeep = await deepCursor(dealer);
  const [someTrip] = await db.select({ id: trips.id }).from(trips).limit(1);
  // A day a month ago, in IST.
  const day = new Date(Date.now() - 30 * 86_400_000 + 5.5 * 3_600_000).toISOString().slice(0, 10);

  const scenarios: [string, Staff, Call, TripListOptions | null][] = [
    ['admin, first page', admin, { method: 'GET', url: `/api/trips?limit=${PAGE}` }, { limit: PAGE }],
    [
      `admin, search rare "${RARE}"`,
      admin,
      { method: 'GET', url: `/api/trips?q=${encodeURIComponent(RARE)}` },
      { limit: PAGE, q: RARE },
    ],
    [
      `admin, search common "${COMMON}"`,
      admin,
      { method: 'GET', url: `/api/trips?q=${COMMON}` },
      { limit: PAGE, q: COMMON },
    ],
    [
      `admin, search absent "${ABSENT}"`,
      admin,
      { method: 'GET', url: `/api/trips?q=${ABSENT}` },
      { limit: PAGE, q: ABSENT },
    ],
    [
      'admin, status cancelled',
      admin,
      { method: 'GET', url: '/api/trips?status=cancelled' },
      { limit: PAGE, status: 'cancelled' },
    ],
    [
      'admin, status started, paid false, suv',
      admin,
      { method: 'GET', url: '/api/trips?status=started&paid=false&carType=suv' },
      { limit: PAGE, status: 'started', paid: false, carType: 'suv' },
    ],
    [
      `admin, one day (${day})`,
      admin,
      { method: 'GET', url: `/api/trips?from=${day}&to=${day}` },
      { limit: PAGE, from: day, to: day },
    ],
    [
      'admin, page 51 (cursor after 50 pages)',
      admin,
      { method: 'GET', url: `/api/trips?cursor=${adminDeep}` },
      { limit: PAGE, cursor: adminDeep },
    ],
    ['city dealer, first page', dealer, { method: 'GET', url: '/api/trips' }, { limit: PAGE }],
    [
      `city dealer, filter-trips with ${dealerDriverIds.length} driver ids`,
      dealer,
      { method: 'POST', url: '/api/trips/filter-trips', payload: { ids: dealerDriverIds } },
      { limit: PAGE, driverIds: dealerDriverIds },
    ],
    [
      'city dealer, page 51',
      dealer,
      { method: 'GET', url: `/api/trips?cursor=${dealerDeep}` },
      { limit: PAGE, cursor: dealerDeep },
    ],
    [
      'new city dealer (21 old trips), first page',
      newDealer,
      { method: 'GET', url: '/api/trips' },
      { limit: PAGE },
    ],
    [
      'city dealer, search absent',
      dealer,
      { method: 'GET', url: `/api/trips?q=${ABSENT}` },
      { limit: PAGE, q: ABSENT },
    ],
    [
      'franchise, first page',
      franchise,
      { method: 'POST', url: '/api/trips/filter-trips', payload: {} },
      { limit: PAGE },
    ],
    [
      `franchise, search common "${COMMON}"`,
      franchise,
      { method: 'POST', url: '/api/trips/filter-trips', payload: { q: COMMON } },
      { limit: PAGE, q: COMMON },
    ],
    [
      `franchise, search rare "${RARE}"`,
      franchise,
      { method: 'POST', url: '/api/trips/filter-trips', payload: { q: RARE } },
      { limit: PAGE, q: RARE },
    ],
    ['trip detail', admin, { method: 'GET', url: `/api/trips/${someTrip!.id}` }, null],
    ['customers, first page (with total)', admin, { method: 'GET', url: '/api/customers' }, null],
    [
      `customers, search "${COMMON}" (with total)`,
      admin,
      { method: 'GET', url: `/api/customers?q=${COMMON}` },
      null,
    ],
  ];

  console.log('\n=== EXPLAIN ANALYZE of the list queries');
  for (const [label, caller, , options] of scenarios) {
    if (!options) continue;
    const queries = buildTripListQueries(db, caller, options);
    if (queries.kind === 'all') await explainQuery(db, label, queries.all);
    else {
      // The queries the API runs for this page, in turn.
      const { ran } = await findScopedKeys(queries, caller, options);
      for (const name of ran) await explainQuery(db, `${label} [${name}]`, queries[name]);
    }
  }
  const customerQueries = buildCustomerListQueries(db, { q: COMMON, limit: PAGE });
  await explainQuery(db, `customers, search "${COMMON}" [page]`, customerQueries.page);
  await explainQuery(db, `customers, search "${COMMON}" [total, capped]`, customerQueries.total!);

  console.log(`\n=== Whole requests: first (cold), then median and slowest of ${REQUESTS}`);
  for (const [label, who, request] of scenarios) {
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i <= REQUESTS; i++) {
      const start = performance.now();
      const body = await call(who, request);
      times.push(performance.now() - start);
      rows =
        body.data && typeof body.data === 'object' && !('id' in body.data)
          ? Object.keys(body.data).length
          : 1;
    }
    const [first, ...rest] = times;
    rest.sort((a, b) => a - b);
    const median = rest[Math.floor(rest.length / 2)]!;
    console.log(
      `  ${label.padEnd(52)} first ${first!.toFixed(1).padStart(7)} ms   median ${median.toFixed(1).padStart(7)} ms   max ${rest.at(-1)!.toFixed(1).padStart(7)} ms   (${rows} rows)`,
    );
  }
  await app.close();
  await database.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
