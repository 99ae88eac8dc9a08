/**
 * Throughput of the lists over HTTP, against the real server started as `npm start` starts it, on
 * the benchmark data (bench-data.ts: a million trips, 100,000 drivers and customers). Each list is
 * loaded by 50 connections for a while, then by 10 for the latency of a busy but not flooded server.
 *
 * On PostgreSQL each list is measured beside its floor (floor.ts): a minimal server that sends
 * PostgreSQL the very statements the console sent for that list, read from PostgreSQL's statement
 * log, but the session lookup, and answers the rows as JSON. The console's requests per second
 * divided by the floor's, in the same run, is how close the list is to what it could be; what the
 * console does beyond the floor (authentication, validation, shaping, compression) is its cost.
 * The floor needs PostgreSQL's log file readable here (BENCH_POSTGRES_LOG names it where it is
 * not found) and rights to change a database setting; without them it is left out.
 *
 *   npm run bench:http                         the embedded database (PGlite in BENCH_DATA_DIR)
 *   BENCH_DATABASE_URL=postgres://.../bench npm run bench:http
 *                                              PostgreSQL, and the embedded database after it
 *   BENCH_DB=postgres | pglite                 only one of them
 *   BENCH_SECONDS=10 BENCH_CONNECTIONS=50      how long and how wide each load is
 *   BENCH_LISTS=drivers                        only the lists whose names hold this text
 *   BENCH_FLOOR=off                            PostgreSQL without the floor
 *
 * Prints one table per database, with the CPU one request cost the server and PostgreSQL (read from
 * /proc, Linux only), and writes bench/results/http.json. It fails on nothing.
 */
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { pathToFileURL } from 'node:url';
import { COMMON, headersOf, PAGE, prepare, RARE, rowsOf, openBenchDatabase, SCALE } from './bench-data';
import { startServer } from './bench-server';
import { captureStatements, startFloor, type LoggedStatement } from './floor';
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

export type Measured = {
  name: string;
  rps: number;
  ratio: number;
  p50: number;
  p99: number;
  failures: number;
  /** Milliseconds of CPU one request cost the server process and PostgreSQL (null where unread). */
  serverMs: number | null;
  databaseMs: number | null;
  /** The same list's floor, measured right after it (PostgreSQL only). */
  floor?: { rps: number; p99: number; serverMs: number | null; databaseMs: number | null; ratio: number };
};

function load(
  baseUrl: string,
  target: Pick<Target, 'method' | 'path' | 'body'>,
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

/**
 * Loads each list on the server started on the database of `url` (the embedded one without), its
 * floor beside it on PostgreSQL unless `floor` is false; the data seeded at `scale` if empty.
 */
export async function measure(
  kind: 'postgres' | 'pglite',
  url: string | undefined,
  options: { floor?: boolean; scale?: typeof SCALE } = {},
) {
  // The embedded run opens the embedded database even where BENCH_DATABASE_URL is set.
  const database = await openBenchDatabase(kind === 'pglite' ? null : url);
  const { db } = database;
  const people = await prepare(db, database.kind, options.scale);
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

  const send = (baseUrl: string, target: Target) =>
    fetch(`${baseUrl}${target.path}`, {
      method: target.method,
      headers: { ...headers[target.as], ...(target.body ? { 'content-type': 'application/json' } : {}) },
      body: target.body ? JSON.stringify(target.body) : undefined,
    });
  const withFloor = kind === 'postgres' && options.floor !== false && process.env.BENCH_FLOOR !== 'off';
  const floor = withFloor ? await floorOf(url!, targets, send) : null;
  const server = await startServer({ url });
  try {
    // Each answer is checked once, then everything is warmed up before it is measured.
    for (const target of [me, ...targets]) {
      const response = await send(server.baseUrl, target);
      if (!response.ok) throw new Error(`${target.name}: ${response.status} ${await response.text()}`);
      await load(server.baseUrl, target, headers[target.as], 10, 2);
    }
    if (floor) for (const index of targets.keys()) await load(floor.baseUrl, floor.target(index), {}, 10, 2);
    const results: Measured[] = [];
    // The CPU each request cost, read around each load (PostgreSQL's processes only for it; the
    // embedded database runs inside the server process).
    const timedAt = async (
      pid: number,
      baseUrl: string,
      target: Pick<Target, 'method' | 'path' | 'body'>,
      targetHeaders: Record<string, string>,
      connections: number,
    ) => {
      const before = readCpu(pid, kind === 'postgres');
      const result = await load(baseUrl, target, targetHeaders, connections, SECONDS);
      const cpu = cpuPerRequest(before, readCpu(pid, kind === 'postgres'), result.requests.total);
      return { result, cpu };
    };
    const timed = async (target: Target, connections: number) => ({
      target,
      ...(await timedAt(server.pid, server.baseUrl, target, headers[target.as], connections)),
    });
    const runs = async (connections: number, beside: typeof floor) => {
      const meBefore = await timed(me, connections);
      const measured = [];
      const floors = new Map<Target, Measured['floor']>();
      for (const [index, target] of targets.entries()) {
        const measuredHere = await timed(target, connections);
        measured.push(measuredHere);
        if (!beside) continue;
        // The floor right after the console, so that both meet the machine in the same state.
        const { result, cpu } = await timedAt(
          beside.pid,
          beside.baseUrl,
          beside.target(index),
          {},
          connections,
        );
        floors.set(target, {
          rps: Math.round(result.requests.average),
          p99: result.latency.p99,
          ...cpu,
          ratio: Number((measuredHere.result.requests.average / result.requests.average).toFixed(2)),
        });
      }
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
        ...(floors.has(target) ? { floor: floors.get(target) } : {}),
      }));
      results.push(...rows);
      return rows;
    };
    const wide = await runs(CONNECTIONS, floor);
    // Latency at 10 connections too: what staff meet when the server is busy but not flooded (at 50
    // connections that never pause, a request waits for the 49 others, so p99 follows throughput).
    // The embedded database answers one query at a time; on PostgreSQL the searches' p99 is read
    // here at a load a large control room gives. Without the floor: its ratio is the wide run's.
    const narrow = CONNECTIONS !== 10 ? await runs(10, null) : null;
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
    await floor?.stop();
  }
}

/** The statements of `first` that `second` sent too (as many times), in `first`'s order. */
function inBoth(first: LoggedStatement[], second: LoggedStatement[]): LoggedStatement[] {
  const left = second.map((statement) => statement.text);
  return first.filter((statement) => {
    const index = left.indexOf(statement.text);
    if (index === -1) return false;
    left.splice(index, 1);
    return true;
  });
}

/**
 * Captures the statements the console sends PostgreSQL for each target (a server started for it
 * alone, with statement logging on) and starts the floor on them. Null where PostgreSQL's log
 * cannot be read here.
 */
async function floorOf(
  url: string,
  targets: Target[],
  send: (baseUrl: string, target: Target) => Promise<Response>,
) {
  const lists: LoggedStatement[][] = [];
  const file = await captureStatements(url, async (request) => {
    const capturing = await startServer({ url });
    try {
      for (const target of targets) {
        // The first request of a kind may prepare or load once what later ones reuse.
        await send(capturing.baseUrl, target);
        const once = () => request(async () => void (await send(capturing.baseUrl, target)).arrayBuffer());
        // The server's own timed work (reminders, sweeps) may run meanwhile: only what both of two
        // requests sent is the list's.
        lists.push(inBoth(await once(), await once()));
      }
    } finally {
      await capturing.stop();
    }
  });
  if (!file) {
    console.log("PostgreSQL's log cannot be read here (BENCH_POSTGRES_LOG names it): no floor.");
    return null;
  }
  console.log(`Statements read from ${file}:`);
  for (const [index, target] of targets.entries()) {
    console.log(`  ${target.name}: ${lists[index]!.length} statement(s)`);
  }
  const floor = await startFloor(url, lists);
  return {
    ...floor,
    target: (index: number) => ({ method: 'GET' as const, path: `/lists/${index}` }),
  };
}

function printFloorTable(title: string, rows: Measured[]) {
  console.log(`\n${title}: the console against its floor`);
  console.log(
    `  ${'list'.padEnd(44)} ${'req/s'.padStart(7)} ${'floor'.padStart(7)} ${'ratio'.padStart(6)} ${'p99 ms'.padStart(7)} ${'floor'.padStart(6)} ${'server CPU ms'.padStart(14)} ${'floor'.padStart(6)} ${'database CPU ms'.padStart(16)} ${'floor'.padStart(6)}`,
  );
  const cpu = (ms: number | null | undefined) => (ms === null || ms === undefined ? '-' : ms.toFixed(2));
  for (const row of rows) {
    const floor = row.floor;
    if (!floor) continue;
    console.log(
      `  ${row.name.padEnd(44)} ${String(row.rps).padStart(7)} ${String(floor.rps).padStart(7)} ${floor.ratio.toFixed(2).padStart(6)} ${String(row.p99).padStart(7)} ${String(floor.p99).padStart(6)} ${cpu(row.serverMs).padStart(14)} ${cpu(floor.serverMs).padStart(6)} ${cpu(row.databaseMs).padStart(16)} ${cpu(floor.databaseMs).padStart(6)}`,
    );
  }
}

export function printTable(title: string, rows: Measured[]) {
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
    if (run.wide.some((row) => row.floor))
      printFloorTable(`${run.kind}: ${run.connections} connections`, run.wide);
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

// Run as a command (not when bench:scale borrows its lists).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
