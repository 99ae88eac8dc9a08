/**
 * CSV exports of the trip list on the benchmark data (bench-data.ts: a million trips), against the
 * real server started as the other HTTP benchmarks start it: how many rows a second reach the
 * client, and how much the server's memory (RSS, sampled every 20 ms) grows above its idle level
 * while it streams them. The client reads as a browser does (brotli, decompressed as it arrives).
 *
 *   BENCH_DATABASE_URL=postgres://.../bench npm run bench:export
 *                                      PostgreSQL, and the embedded database after it
 *   npm run bench:export               the embedded database only (PGlite in BENCH_DATA_DIR)
 *   BENCH_DB=postgres | pglite         only one of them
 *
 * Targets: >= 50,000 rows/s on PostgreSQL, and the server's peak within 50 MB of idle. Prints one
 * table per database and writes bench/results/export.json. It fails on nothing.
 */
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { createBrotliDecompress } from 'node:zlib';
import { count } from 'drizzle-orm';
import { trips } from '../src/db/schema';
import { COMMON, headersOf, prepare, RARE, openBenchDatabase } from './bench-data';
import { startServer } from './bench-server';
import { writeResults } from './results';

const TARGET_ROWS_PER_SECOND = 50_000;
const TARGET_MEMORY_MB = 50;
/** The heap limit of the second server (`--max-old-space-size`), as README advises for production. */
const HEAP_MB = Number(process.env.BENCH_HEAP_MB ?? 512);
/** More V8 flags for that server, to try others (`BENCH_NODE_FLAGS=--max-semi-space-size=32`). */
const NODE_FLAGS = process.env.BENCH_NODE_FLAGS ?? '';

type Measured = {
  name: string;
  rows: number;
  expectedRows: number;
  seconds: number;
  rowsPerSecond: number;
  fileMB: number;
  wireMB: number;
  idleRssMB: number;
  peakRssMB: number;
  aboveIdleMB: number;
};

/** The resident memory of a process, in MB, from /proc (Linux). */
function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kilobytes = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kilobytes / 1024;
}

/** Samples a process's RSS every 20 ms until stopped; answers the highest seen. */
function samplePeak(pid: number) {
  let peak = rssOf(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, 20);
  return () => {
    clearInterval(timer);
    return Math.max(peak, rssOf(pid));
  };
}

/** The RSS of an idle process: the highest of a second's samples, once it has settled. */
async function idleRss(pid: number): Promise<number> {
  await sleep(2000);
  const stop = samplePeak(pid);
  await sleep(1000);
  return stop();
}

/**
 * Downloads an export as a browser does and counts its records (lines after the header): the
 * titles of the benchmark data hold no line breaks.
 */
function download(url: string, headers: Record<string, string>) {
  return new Promise<{ rows: number; fileBytes: number; wireBytes: number }>((resolve, reject) => {
    get(url, { headers: { ...headers, 'accept-encoding': 'br' } }, (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`${url}: ${response.statusCode}`));
        response.resume();
        return;
      }
      let wireBytes = 0;
      let fileBytes = 0;
      let lines = 0;
      response.on('data', (chunk: Buffer) => (wireBytes += chunk.length));
      const text =
        response.headers['content-encoding'] === 'br' ? response.pipe(createBrotliDecompress()) : response;
      text.on('data', (chunk: Buffer) => {
        fileBytes += chunk.length;
        for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
      });
      text.on('end', () => resolve({ rows: lines - 1, fileBytes, wireBytes }));
      text.on('error', reject);
      response.on('error', reject);
    }).on('error', reject);
  });
}

type Target = { name: string; path: string; as: 'admin' | 'dealer'; expected: number };

/** Exports each target in turn from one server, measuring its RSS above idle for each. */
async function exportAll(
  server: Awaited<ReturnType<typeof startServer>>,
  targets: Target[],
  headers: Record<Target['as'], Record<string, string>>,
  label: string,
): Promise<Measured[]> {
  // Warmed up first (pools opened, routes compiled), with an export of a few rows.
  await download(`${server.baseUrl}/api/trips/export.csv?q=${encodeURIComponent(RARE)}`, headers.admin);
  const results: Measured[] = [];
  for (const target of targets) {
    const idle = await idleRss(server.pid);
    const stop = samplePeak(server.pid);
    const started = performance.now();
    const got = await download(`${server.baseUrl}${target.path}`, headers[target.as]);
    const seconds = (performance.now() - started) / 1000;
    const peak = stop();
    results.push({
      name: `${target.name}${label}`,
      rows: got.rows,
      expectedRows: target.expected,
      seconds: Number(seconds.toFixed(2)),
      rowsPerSecond: Math.round(got.rows / seconds),
      fileMB: Number((got.fileBytes / 1e6).toFixed(1)),
      wireMB: Number((got.wireBytes / 1e6).toFixed(1)),
      idleRssMB: Math.round(idle),
      peakRssMB: Math.round(peak),
      aboveIdleMB: Math.round(peak - idle),
    });
    // Said as each ends: a long run stopped early still tells what it measured.
    console.log(
      `  ${target.name}${label}: ${got.rows} rows in ${seconds.toFixed(1)} s, ` +
        `peak ${Math.round(peak)} MB, ${Math.round(peak - idle)} MB above idle`,
    );
  }
  if (server.errors() > 0) console.log(`  server errors logged: ${server.errors()}`);
  return results;
}

/**
 * The exports on a server with Node's default heap (sized from the machine's memory), then on one
 * with the heap limit README advises for production (HEAP_MB): V8 collects the garbage of a long
 * export late when the heap may grow large, and RSS follows.
 */
async function measure(kind: 'postgres' | 'pglite', url: string | undefined): Promise<Measured[]> {
  const database = await openBenchDatabase(url);
  const people = await prepare(database.db, database.kind);
  const headers = {
    admin: await headersOf(database.db, people.admin, 12),
    dealer: await headersOf(database.db, people.dealer, 12),
  };
  const [all] = await database.db.select({ n: count() }).from(trips);
  await database.close();

  const everything: Target = {
    name: 'all trips',
    path: '/api/trips/export.csv',
    as: 'admin',
    expected: all?.n ?? 0,
  };
  const results: Measured[] = [];
  const unlimited = await startServer({ url });
  try {
    results.push(...(await exportAll(unlimited, [everything], headers, ', default heap')));
  } finally {
    await unlimited.stop();
  }
  const limited = await startServer({
    url,
    env: { NODE_OPTIONS: `--max-old-space-size=${HEAP_MB} ${NODE_FLAGS}`.trim() },
  });
  try {
    const targets: Target[] = [
      everything,
      // The same on the same server, its code now optimised, as on a server that has run a while.
      { ...everything, name: 'all trips, again' },
      {
        name: `trips, search "${COMMON}"`,
        path: `/api/trips/export.csv?q=${COMMON}`,
        as: 'admin',
        expected: -1,
      },
      { name: "a large city dealer's trips", path: '/api/trips/export.csv', as: 'dealer', expected: -1 },
    ];
    results.push(...(await exportAll(limited, targets, headers, `, heap ${HEAP_MB} MB`)));
  } finally {
    await limited.stop();
  }
  return results;
}

function printTable(title: string, rows: Measured[]) {
  console.log(`\n${title}`);
  console.log(
    `  ${'export'.padEnd(46)} ${'rows'.padStart(9)} ${'s'.padStart(6)} ${'rows/s'.padStart(8)} ${'file MB'.padStart(8)} ${'wire MB'.padStart(8)} ${'idle MB'.padStart(8)} ${'peak MB'.padStart(8)} ${'+MB'.padStart(5)}`,
  );
  for (const row of rows) {
    console.log(
      `  ${row.name.padEnd(46)} ${String(row.rows).padStart(9)} ${row.seconds.toFixed(1).padStart(6)} ${String(row.rowsPerSecond).padStart(8)} ${row.fileMB.toFixed(1).padStart(8)} ${row.wireMB.toFixed(1).padStart(8)} ${String(row.idleRssMB).padStart(8)} ${String(row.peakRssMB).padStart(8)} ${String(row.aboveIdleMB).padStart(5)}`,
    );
    if (row.expectedRows >= 0 && row.rows !== row.expectedRows) {
      console.log(`  !! ${row.name}: ${row.rows} rows exported, the database holds ${row.expectedRows}`);
    }
  }
}

async function main() {
  const url = process.env.BENCH_DATABASE_URL;
  const only = process.env.BENCH_DB;
  const runs: { kind: 'postgres' | 'pglite'; results: Measured[] }[] = [];
  if (url && only !== 'pglite') runs.push({ kind: 'postgres', results: await measure('postgres', url) });
  if (only !== 'postgres') runs.push({ kind: 'pglite', results: await measure('pglite', undefined) });
  for (const run of runs)
    printTable(`${run.kind}: CSV exports, brotli as a browser asks for it`, run.results);
  const postgres = runs.find((run) => run.kind === 'postgres')?.results.slice(0, 3) ?? [];
  for (const run of postgres) {
    const speed = run.rowsPerSecond >= TARGET_ROWS_PER_SECOND ? 'met' : 'MISSED';
    const memory = run.aboveIdleMB <= TARGET_MEMORY_MB ? 'met' : 'MISSED';
    console.log(
      `Targets on PostgreSQL, ${run.name}: ${run.rowsPerSecond} rows/s (>= ${TARGET_ROWS_PER_SECOND}: ${speed}), ` +
        `peak ${run.aboveIdleMB} MB above idle (<= ${TARGET_MEMORY_MB}: ${memory})`,
    );
  }
  writeResults('export', { date: new Date().toISOString(), runs });
}

await main();
