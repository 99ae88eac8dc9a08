/**
 * Throughput of the lists over HTTP, against the real server started as `npm start` starts it, on
 * the benchmark data (bench-data.ts: a million trips, 100,000 drivers and customers). Each list is
 * loaded by 50 connections for a while; its requests per second are given as a ratio to
 * `GET /api/auth/me` measured in the same run, since the machine's noise would otherwise decide.
 *
 *   npm run bench:http                         the embedded database (PGlite in BENCH_DATA_DIR)
 *   BENCH_DATABASE_URL=postgres://.../bench npm run bench:http
 *                                              PostgreSQL, and the embedded database after it
 *   BENCH_DB=postgres | pglite                 only one of them
 *   BENCH_SECONDS=10 BENCH_CONNECTIONS=50      how long and how wide each load is
 *   BENCH_LISTS=drivers                        only the lists whose names hold this text
 *
 * Prints one table per database, with the CPU one request cost the server and PostgreSQL (read from
 * /proc, Linux only), and writes bench/results/http.json. It fails on nothing.
 */
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { COMMON, headersOf, PAGE, prepare, RARE, rowsOf, openBenchDatabase } from './bench-data';
import { startServer } from './bench-server';
import { cpuPerRequest, readCpu } from './cpu-time';
import { writeResults } from './results';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const LISTS = process.env.BENCH_LISTS ?? '';

type Target = {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  as: 'admin' | 'dealer' | 'newDealer' | 'franchise';
};

type Measured = {
  name: string;
  rps: number;
  ratio: number;
  p50: number;
  p99: number;
  failures: number;
  /** Milliseconds of CPU one request cost the server process and PostgreSQL (null where unread). */
  serverMs: number | null;
  databaseMs: number | null;
};

function load(
  baseUrl: string,
  target: Target,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
) {
  return autocannon({
    url: `${baseUrl}${target.path}`,
    method: target.method,
    connections,
    duration: seconds,
    headers: {
      ...headers,
      'accept-encoding': 'gzip, br',
      ...(target.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: target.body === undefined ? undefined : JSON.stringify(target.body),
  });
}

async function measure(kind: 'postgres' | 'pglite', url: string | undefined) {
  const database = await openBenchDatabase(url);
  const { db } = database;
  const people = await prepare(db, database.kind);
  const headers = {
    admin: await headersOf(db, people.admin, 12),
    dealer: await headersOf(db, people.dealer, 12),
    newDealer: await headersOf(db, people.newDealer, 12),
    franchise: await headersOf(db, people.franchise, 12),
  };
  const [dealerSize] = rowsOf(
    await db.execute(sql`
      select count(*)::int as n from drivers d join accounts f on f.id = d.franchise_id
      where f.dealer_id = ${people.dealer.id} and d.deleted_at is null`),
  );
  // What staff on the phone search trips by (decision 031): a customer's phone as said, a vehicle
  // number in other spacing, a place, a trip's short id; each of a trip well inside the million.
  const [sample] = rowsOf(
    await db.execute(sql`
      select t.phone_number, right(t.id::text, 6) as short_id, v.registration_number
      from trips t join vehicles v on v.driver_id = t.driver_id
      where t.phone_number is not null
      order by t.created_at desc offset 20000 limit 1`),
  );
  await database.close();
  const said = String(sample?.phone_number ?? '')
    .replace(/\D/g, '')
    .slice(-10);
  const plate = String(sample?.registration_number ?? '').replace(/^(..)(..)/, '$1 $2 ');
  const searched = (name: string, q: string): Target => ({
    name,
    method: 'GET',
    path: `/api/trips?limit=${PAGE}&q=${encodeURIComponent(q)}`,
    as: 'admin',
  });

  const allTargets: Target[] = [
    { name: 'trips, first page', method: 'GET', path: `/api/trips?limit=${PAGE}`, as: 'admin' },
    {
      name: `trips, common search "${COMMON}"`,
      method: 'GET',
      path: `/api/trips?limit=${PAGE}&q=${encodeURIComponent(COMMON)}`,
      as: 'admin',
    },
    {
      name: `trips, rare search "${RARE}"`,
      method: 'GET',
      path: `/api/trips?limit=${PAGE}&q=${encodeURIComponent(RARE)}`,
      as: 'admin',
    },
    searched('trips, phone "+91 NNNNN NNNNN"', `+91 ${said.slice(0, 5)} ${said.slice(5)}`),
    searched('trips, vehicle number', plate.toLowerCase()),
    searched('trips, place "temple road"', 'temple road'),
    searched('trips, short id', String(sample?.short_id ?? '')),
    {
      name: `filter-trips, large dealer (${String(dealerSize?.n ?? '?')} drivers)`,
      method: 'POST',
      path: '/api/trips/filter-trips',
      body: { limit: PAGE },
      as: 'dealer',
    },
    {
      name: 'filter-trips, small dealer (3 drivers)',
      method: 'POST',
      path: '/api/trips/filter-trips',
      body: { limit: PAGE },
      as: 'newDealer',
    },
    { name: 'drivers, first page', method: 'GET', path: `/api/drivers?limit=${PAGE}`, as: 'admin' },
    {
      name: 'drivers, search "sharma"',
      method: 'GET',
      path: `/api/drivers?limit=${PAGE}&q=sharma`,
      as: 'admin',
    },
    { name: "city dealer's drivers", method: 'GET', path: `/api/city_dealer?limit=${PAGE}`, as: 'dealer' },
    { name: 'customers, first page', method: 'GET', path: `/api/customers?limit=${PAGE}`, as: 'admin' },
  ];
  const targets = allTargets.filter((target) => target.name.includes(LISTS));
  const me: Target = { name: 'GET /api/auth/me', method: 'GET', path: '/api/auth/me', as: 'admin' };

  const server = await startServer({ url });
  try {
    // Each answer is checked once, then everything is warmed up before it is measured.
    for (const target of [me, ...targets]) {
      const response = await fetch(`${server.baseUrl}${target.path}`, {
        method: target.method,
        headers: { ...headers[target.as], ...(target.body ? { 'content-type': 'application/json' } : {}) },
        body: target.body ? JSON.stringify(target.body) : undefined,
      });
      if (!response.ok) throw new Error(`${target.name}: ${response.status} ${await response.text()}`);
      await load(server.baseUrl, target, headers[target.as], 10, 2);
    }
    const results: Measured[] = [];
    // The CPU each request cost, read around each load (PostgreSQL's processes only for it; the
    // embedded database runs inside the server process).
    const timed = async (target: Target, connections: number) => {
      const before = readCpu(server.pid, kind === 'postgres');
      const result = await load(server.baseUrl, target, headers[target.as], connections, SECONDS);
      const cpu = cpuPerRequest(before, readCpu(server.pid, kind === 'postgres'), result.requests.total);
      return { target, result, cpu };
    };
    const runs = async (connections: number) => {
      const meBefore = await timed(me, connections);
      const measured = [];
      for (const target of targets) measured.push(await timed(target, connections));
      const meAfter = await timed(me, connections);
      const baseline = (meBefore.result.requests.average + meAfter.result.requests.average) / 2;
      const rows = [meBefore, ...measured].map(({ target, result, cpu }) => ({
        name: target.name,
        rps: Math.round(result.requests.average),
        ratio: Number((result.requests.average / baseline).toFixed(2)),
        p50: result.latency.p50,
        p99: result.latency.p99,
        failures: result.non2xx + result.errors + result.timeouts,
        ...cpu,
      }));
      results.push(...rows);
      return rows;
    };
    const wide = await runs(CONNECTIONS);
    // The embedded database answers one query at a time: its latency is read at 10 connections too.
    const narrow = kind === 'pglite' && CONNECTIONS !== 10 ? await runs(10) : null;
    return {
      kind,
      connections: CONNECTIONS,
      seconds: SECONDS,
      wide,
      narrow,
      serverErrors: server.errors(),
      serverErrorLines: server.errorLines(),
    };
  } finally {
    await server.stop();
  }
}

function printTable(title: string, rows: Measured[]) {
  console.log(`\n${title}`);
  console.log(
    `  ${'list'.padEnd(44)} ${'req/s'.padStart(7)} ${'ratio'.padStart(6)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'failed'.padStart(7)} ${'server CPU ms'.padStart(14)} ${'database CPU ms'.padStart(16)}`,
  );
  const cpu = (ms: number | null) => (ms === null ? '-' : ms.toFixed(2));
  for (const row of rows) {
    console.log(
      `  ${row.name.padEnd(44)} ${String(row.rps).padStart(7)} ${row.ratio.toFixed(2).padStart(6)} ${String(row.p50).padStart(7)} ${String(row.p99).padStart(7)} ${String(row.failures).padStart(7)} ${cpu(row.serverMs).padStart(14)} ${cpu(row.databaseMs).padStart(16)}`,
    );
  }
}

async function main() {
  const url = process.env.BENCH_DATABASE_URL;
  const only = process.env.BENCH_DB;
  const runs = [];
  if (url && only !== 'pglite') runs.push(await measure('postgres', url));
  if (only !== 'postgres') runs.push(await measure('pglite', undefined));
  for (const run of runs) {
    printTable(`${run.kind}: ${run.connections} connections, ${run.seconds} s each`, run.wide);
    if (run.narrow) printTable(`${run.kind}: 10 connections`, run.narrow);
    console.log(`  server errors logged: ${run.serverErrors}`);
    for (const line of run.serverErrorLines) console.log(`    ${line.slice(0, 600)}`);
  }
  const postgres = runs.find((run) => run.kind === 'postgres');
  const pglite = runs.find((run) => run.kind === 'pglite');
  if (postgres && pglite) {
    console.log('\nEmbedded database against PostgreSQL (req/s ratio, same run):');
    for (const row of pglite.wide.slice(1)) {
      const other = postgres.wide.find((candidate) => candidate.name === row.name);
      if (other) console.log(`  ${row.name.padEnd(44)} ${(row.rps / other.rps).toFixed(2).padStart(6)}`);
    }
  }
  writeResults('http', { date: new Date().toISOString(), runs });
}

await main();
