/**
 * Flat at ten million trips: the lists of bench:http on two PostgreSQL databases, the benchmark
 * data at its usual scale (a million trips, BENCH_DATABASE_URL) and at ten times it (ten million
 * trips, 200,000 drivers, a million customers, BENCH_SCALE_DATABASE_URL), one after the other in
 * one run, and each list's CPU per request (server and PostgreSQL) at both scales side by side.
 * The large database is seeded on the first run (tens of minutes; the seeding's rows a second are
 * printed) and reused after. By hand, never in CI:
 *
 *   BENCH_DATABASE_URL=postgres://.../bmet_bench BENCH_SCALE_DATABASE_URL=postgres://.../bmet_bench_10m \
 *     npm run bench:scale
 *
 * BENCH_LISTS, BENCH_SECONDS and BENCH_CONNECTIONS as for bench:http. The dashboard and the export
 * at ten million are bench:stats and bench:export with BENCH_DATABASE_URL set to the large database.
 * Writes bench/results/scale.json. It fails on nothing.
 */
import postgres from 'postgres';
import { measure, printTable, type Measured } from './http';
import { writeResults } from './results';

const SMALL = process.env.BENCH_DATABASE_URL;
const LARGE = process.env.BENCH_SCALE_DATABASE_URL;
const LARGE_SCALE = {
  trips: Number(process.env.BENCH_SCALE_TRIPS ?? 10_000_000),
  drivers: Number(process.env.BENCH_SCALE_DRIVERS ?? 200_000),
  customers: Number(process.env.BENCH_SCALE_CUSTOMERS ?? 1_000_000),
};

/** Rows in the database's tables (the statistics' count, exact after the analyze prepare runs). */
async function rowsIn(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<
      { rows: string }[]
    >`select coalesce(sum(n_live_tup), 0)::bigint as rows from pg_stat_user_tables`;
    return Number(row?.rows ?? 0);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

const cpuOf = (row: Measured | undefined) =>
  row && row.serverMs !== null && row.databaseMs !== null ? row.serverMs + row.databaseMs : null;

async function main() {
  if (!SMALL || !LARGE) {
    console.log(
      'bench:scale needs BENCH_DATABASE_URL and BENCH_SCALE_DATABASE_URL (two PostgreSQL databases).',
    );
    return;
  }
  const seedStarted = performance.now();
  const rowsBefore = await rowsIn(LARGE).catch(() => 0);
  // The large database first: seeded if empty (measure's prepare), then measured.
  const large = await measure('postgres', LARGE, { floor: false, scale: LARGE_SCALE });
  const seeding =
    rowsBefore === 0
      ? { rows: await rowsIn(LARGE), seconds: (performance.now() - seedStarted) / 1000 }
      : null;
  const small = await measure('postgres', SMALL, { floor: false });

  printTable(`${SMALL.replace(/\/\/[^@]*@/, '//')} (a million trips)`, small.wide);
  printTable(
    `${LARGE.replace(/\/\/[^@]*@/, '//')} (${LARGE_SCALE.trips.toLocaleString('en')} trips)`,
    large.wide,
  );
  console.log('\nCPU per request (server + PostgreSQL, ms), the large database against the small:');
  // A dealer's list is named with its size, which differs between the scales.
  const sameList = (name: string) => name.replace(/ \(\d+ drivers\)/, '');
  const comparison = small.wide.map((row) => {
    const other = large.wide.find((candidate) => sameList(candidate.name) === sameList(row.name));
    const at1 = cpuOf(row);
    const at10 = cpuOf(other);
    const change = at1 && at10 !== null ? (at10 - at1) / at1 : null;
    const percent = change === null ? '-' : `${change >= 0 ? '+' : ''}${(change * 100).toFixed(0)}%`;
    console.log(
      `  ${row.name.padEnd(44)} ${String(at1?.toFixed(2) ?? '-').padStart(7)} ${String(at10?.toFixed(2) ?? '-').padStart(7)} ${percent.padStart(6)}   p99 ${row.p99} -> ${other?.p99 ?? '-'} ms`,
    );
    return {
      name: row.name,
      cpuSmall: at1,
      cpuLarge: at10,
      change,
      p99Small: row.p99,
      p99Large: other?.p99 ?? null,
    };
  });
  if (seeding) {
    console.log(
      `\nSeeded ${seeding.rows.toLocaleString('en')} rows in ${seeding.seconds.toFixed(0)} s: ${Math.round(seeding.rows / seeding.seconds).toLocaleString('en')} rows/s (indexes and analyze included).`,
    );
  }
  writeResults('scale', {
    date: new Date().toISOString(),
    scale: LARGE_SCALE,
    seeding,
    comparison,
    small,
    large,
  });
}

await main();
