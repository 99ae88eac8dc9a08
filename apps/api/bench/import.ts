/**
 * How fast the Firebase import runs: writes a generated Realtime Database export (1,000,000 trips,
 * 100,000 drivers and 100,000 customers by default, streamed to a temporary file), then imports it
 * into a fresh database and prints rows per second and the process's peak memory.
 *
 *   npm run bench:import                      PostgreSQL at BENCH_DATABASE_URL (a database of its
 *                                             own: it is emptied first), then the embedded default
 *   BENCH_TRIPS=200000 BENCH_DRIVERS=20000 BENCH_CUSTOMERS=20000   a smaller export
 *   BENCH_IMPORT_TARGETS=postgres             only one of the two (postgres, pglite)
 *
 * Each import runs in a child process of its own, so that its peak memory is its own.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/db/client';
import { createLocalObjectStore } from '../src/infra/object-store';
import { importFirebase } from '../src/import/import-firebase';
import { writeFirebaseExport } from './firebase-export';
import { writeResults } from './results';
import { emptyDatabase } from './bench-data';

const size = {
  trips: Number(process.env.BENCH_TRIPS ?? 1_000_000),
  drivers: Number(process.env.BENCH_DRIVERS ?? 100_000),
  customers: Number(process.env.BENCH_CUSTOMERS ?? 100_000),
};
const JWT_SECRET = 'bench-only-jwt-secret-0123456789abcdefghij';
/** As `npm run import:firebase` runs the import (apps/api/package.json): see docs/decisions/014. */
const IMPORT_NODE_OPTIONS = ['--max-old-space-size=384'];

type Figures = {
  seconds: number;
  /** Trips over the whole import's time, drivers and customers included. */
  tripsPerSecond: number;
  /** Trips over the time of the trips section alone (reading and writing it). */
  tripsPhasePerSecond: number;
  rowsPerSecond: number;
  rows: number;
  peakRssMB: number;
  sectionSeconds: Record<string, number>;
};

/** The child: imports the export into one database and prints its figures as JSON. */
async function importOnce(path: string, target: 'postgres' | 'pglite'): Promise<void> {
  const dataDir = join(tmpdir(), `bmet-bench-import-${process.pid}`);
  const database = await openDatabase(
    target === 'postgres'
      ? { databaseUrl: process.env.BENCH_DATABASE_URL!, dataDir: 'memory://' }
      : { dataDir },
  );
  try {
    const started = performance.now();
    const report = await importFirebase(database.db, {
      database: path,
      dryRun: false,
      jwtSecret: JWT_SECRET,
      objectStore: createLocalObjectStore(join(dataDir, 'objects')),
      parallelWrites: database.kind === 'postgres' ? 2 : 1,
    });
    const seconds = (performance.now() - started) / 1000;
    const rows = Object.values(report.counts).reduce((sum, counts) => sum + counts.new + counts.updated, 0);
    const figures: Figures = {
      seconds: Math.round(seconds * 10) / 10,
      tripsPerSecond: Math.round(report.counts.trips.new / seconds),
      tripsPhasePerSecond: Math.round(report.counts.trips.new / (report.sectionSeconds.trips ?? seconds)),
      rowsPerSecond: Math.round(rows / seconds),
      rows,
      // ru_maxrss is in kilobytes on Linux.
      peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
      sectionSeconds: Object.fromEntries(
        Object.entries(report.sectionSeconds).map(([section, time]) => [section, Math.round(time * 10) / 10]),
      ),
    };
    console.log(JSON.stringify(figures));
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const [, , mode, path, target] = process.argv;
  if (mode === '--child') return importOnce(path!, target as 'postgres' | 'pglite');

  const exportPath = join(tmpdir(), `bmet-bench-firebase-${process.pid}.json`);
  try {
    console.log(
      `Writing an export of ${size.trips} trips, ${size.drivers} drivers, ${size.customers} customers...`,
    );
    const bytes = await writeFirebaseExport(exportPath, size);
    console.log(`  ${(bytes / 1024 / 1024).toFixed(0)} MB`);
    const targets = (process.env.BENCH_IMPORT_TARGETS ?? 'postgres,pglite').split(',');
    const results: Record<string, Figures> = {};
    for (const target of targets) {
      if (target === 'postgres') {
        if (!process.env.BENCH_DATABASE_URL) {
          console.log('BENCH_DATABASE_URL is not set: PostgreSQL skipped.');
          continue;
        }
        await emptyDatabase(process.env.BENCH_DATABASE_URL);
      }
      console.log(`Importing into ${target}...`);
      const child = spawnSync(
        process.execPath,
        [...IMPORT_NODE_OPTIONS, '--import', 'tsx', import.meta.filename, '--child', exportPath, target],
        {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'inherit'],
          env: process.env,
        },
      );
      if (child.status !== 0) throw new Error(`the ${target} import failed`);
      const figures = JSON.parse(child.stdout.trim().split('\n').pop()!) as Figures;
      results[target] = figures;
      console.log(
        `  ${figures.seconds} s: ${figures.tripsPerSecond} trips/s overall, ${figures.tripsPhasePerSecond} trips/s ` +
          `while importing trips, ${figures.rowsPerSecond} rows/s (${figures.rows} rows), peak RSS ` +
          `${figures.peakRssMB} MB; seconds per section ${JSON.stringify(figures.sectionSeconds)}`,
      );
    }
    writeResults('import', { size, ...results });
  } finally {
    rmSync(exportPath, { force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
