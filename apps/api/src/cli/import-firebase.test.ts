import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/client';
import { rowsOf } from '../db/rows';
import type { ImportReport } from '../import/report';
import { againstPostgres } from '../../test/test-database';

/**
 * `npm run import:firebase` as an operator runs it. A run the database stops halfway (a trigger the
 * test adds refuses one trip, as a full disk would) exits 1 with one line saying where and why,
 * then what it committed, and no stack trace; the same command run again completes the import. On
 * the embedded database (a data folder), and on PostgreSQL when TEST_DATABASE_URL is set.
 */

const API_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = join(API_ROOT, 'src/import/fixtures');
const cleanups: (() => Promise<unknown> | void)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

type Run = { code: number | null; stdout: string; stderr: string };

function runImport(dataDir: string, databaseUrl: string | undefined, report: string): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, INIT_CWD: dataDir };
  for (const name of ['DATABASE_URL', 'S3_BUCKET', 'JWT_SECRET', 'REDIS_URL']) delete env[name];
  // PostgreSQL may serve several instances: it takes a secret they share, not one of a data folder.
  if (databaseUrl)
    Object.assign(env, { DATABASE_URL: databaseUrl, JWT_SECRET: 'import-command-test-secret-0123456789' });
  const args = ['--database', join(FIXTURES, 'database.json'), '--auth', join(FIXTURES, 'users.json')];
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(API_ROOT, 'src/cli/import-firebase.ts'), ...args, '--report', report],
    { cwd: API_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

/** Runs SQL on the command's database, opened and closed around it as the command is not running. */
async function onDatabase<T>(dataDir: string, databaseUrl: string | undefined, work: (db: Db) => Promise<T>) {
  const database = await openDatabase({ databaseUrl, dataDir });
  try {
    return await work(database.db);
  } finally {
    await database.close();
  }
}

async function stopAndComplete(databaseUrl?: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bmet-import-command-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const reportFile = join(dataDir, 'report.json');
  await onDatabase(dataDir, databaseUrl, async (db) => {
    await db.execute(
      sql.raw(`create function refuse_trip() returns trigger language plpgsql as $$ begin
        if new.firebase_key = '-NQx0000000000000005' then raise exception 'could not extend file: No space left on device'; end if;
        return new; end $$`),
    );
    await db.execute(
      sql.raw(
        `create trigger refuse_trip before insert on trips for each row execute function refuse_trip()`,
      ),
    );
  });

  const stopped = await runImport(dataDir, databaseUrl, reportFile);
  expect(stopped.code, stopped.stderr).toBe(1);
  const lines = stopped.stderr.split('\n');
  // Before it, at most the line of progress a log gets.
  const first = lines.findIndex((line) => line.startsWith('The import stopped'));
  expect(first, stopped.stderr).toBeGreaterThanOrEqual(0);
  expect(
    lines.slice(0, first).every((line) => line.startsWith('Read ')),
    stopped.stderr,
  ).toBe(true);
  expect(lines[first]).toBe(
    'The import stopped in trips: the database answered "could not extend file: No space left on device" ' +
      '(SQLSTATE P0001). trips was rolled back; the 6 sections before it are committed. ' +
      'Run the same command again to complete the import.',
  );
  expect(stopped.stderr).toContain('Import stopped in trips. What this run left in the database:');
  expect(stopped.stderr).toContain('  Committed    driver (4 records): drivers 2 new, 2 skipped;');
  expect(stopped.stderr).toContain('  Rolled back  trips (8 records): nothing of it was kept');
  expect(stopped.stderr).toContain('  Not reached  Franchises linked to their city dealers');
  expect(stopped.stderr).not.toMatch(/^\s+at /m);
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as ImportReport;
  expect(report.stopped?.section).toBe('trips');
  expect(report.sections.map((entry) => entry.state)).toEqual([
    ...Array<string>(6).fill('committed'),
    'rolled back',
    'not reached',
  ]);

  await onDatabase(dataDir, databaseUrl, async (db) => {
    await db.execute(sql.raw('drop trigger refuse_trip on trips'));
  });
  const again = await runImport(dataDir, databaseUrl, reportFile);
  expect(again.code, again.stderr).toBe(0);
  expect(again.stdout).toContain('Import finished.');
  expect(again.stdout).toMatch(/^Trips +6 +0 +0 +2$/m);
  expect(again.stdout).toMatch(/^Drivers +0 +0 +2 +2$/m);
  const counts = await onDatabase(dataDir, databaseUrl, async (db) => {
    const [row] = rowsOf(
      await db.execute(sql`select
        (select count(*) from trips)::int as trips,
        (select count(*) from drivers)::int as drivers,
        (select count(*) from accounts where dealer_id is not null)::int as linked`),
    );
    return row;
  });
  expect(counts).toEqual({ trips: 6, drivers: 2, linked: 1 });
}

describe('npm run import:firebase, stopped halfway', () => {
  // Run in the embedded pass: see `againstPostgres`.
  it.skipIf(againstPostgres)(
    'on the embedded database: says what it left, and completes when run again',
    async () => {
      await stopAndComplete();
    },
    240_000,
  );

  const url = process.env.TEST_DATABASE_URL;
  it.skipIf(!url)(
    'on PostgreSQL: says what it left, and completes when run again',
    async () => {
      const name = `bmet_import_command_${process.pid}`;
      const admin = postgres(url!, { max: 1, onnotice: () => {} });
      await admin`drop database if exists ${admin(name)} with (force)`;
      await admin`create database ${admin(name)}`;
      cleanups.push(async () => {
        await admin`drop database if exists ${admin(name)} with (force)`;
        await admin.end({ timeout: 5 });
      });
      const address = new URL(url!);
      address.pathname = `/${name}`;
      await stopAndComplete(address.toString());
    },
    240_000,
  );
});
