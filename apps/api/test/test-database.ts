import { hostname } from 'node:os';
import postgres from 'postgres';
import type { WorkerGlobalState } from 'vitest';
import { openDatabase, type Database } from '../src/db/client';

/**
 * One database per test worker: PGlite in memory by default, or a fresh PostgreSQL database of its
 * own when TEST_DATABASE_URL is set. The files a worker runs share it (vitest runs them with
 * isolate: false), so tests create the rows they need with the factories and never count tables.
 */

// Written on each worker database, so that a later run can tell its own leftovers from live ones.
const MARKER = 'bmet-test-worker';

/**
 * Whether these tests run against PostgreSQL (TEST_DATABASE_URL): CI runs the API tests twice,
 * on the embedded database and then on PostgreSQL. A test of the embedded database alone (its
 * thread, its data folder, a server or a command started on one) runs the same way in both
 * passes: it skips the PostgreSQL pass (`describe.skipIf(againstPostgres)`), having run in the
 * embedded one, which every run of the tests has.
 */
export const againstPostgres = Boolean(process.env.TEST_DATABASE_URL);

let workerDatabase: Promise<Database> | null = null;

/** The database of this test worker, created and migrated on first use. */
export function getTestDatabase(): Promise<Database> {
  workerDatabase ??= openWorkerDatabase();
  return workerDatabase;
}

async function openWorkerDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const database = await openDatabase({ dataDir: 'memory://' });
    onWorkerEnd(() => database.close());
    return database;
  }

  const name = workerDatabaseName(url);
  await withAdmin(url, async (admin) => {
    await dropLeftoverDatabases(admin);
    await admin`drop database if exists ${admin(name)} with (force)`;
    await admin`create database ${admin(name)}`;
    // COMMENT takes no bound parameters: the literal is built from our own characters only.
    await admin.unsafe(`comment on database "${name}" is '${MARKER} ${markerHost()} ${process.pid}'`);
  });
  const database = await openDatabase({ databaseUrl: withDatabase(url, name), dataDir: 'memory://' });
  onWorkerEnd(async () => {
    await database.close();
    await withAdmin(url, (admin) => admin`drop database if exists ${admin(name)} with (force)`);
  });
  return database;
}

let emptyDatabases = 0;

/**
 * A database of its own, migrated and empty, for a test about what happens on an empty console
 * (the worker's database holds the other tests' rows): PGlite in memory, or a new PostgreSQL
 * database when TEST_DATABASE_URL is set. Closing it drops it.
 */
export async function openEmptyDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return openDatabase({ dataDir: 'memory://' });
  const name = workerDatabaseName(url, `_e${++emptyDatabases}`);
  await withAdmin(url, async (admin) => {
    await admin`drop database if exists ${admin(name)} with (force)`;
    await admin`create database ${admin(name)}`;
    await admin.unsafe(`comment on database "${name}" is '${MARKER} ${markerHost()} ${process.pid}'`);
  });
  const database = await openDatabase({ databaseUrl: withDatabase(url, name), dataDir: 'memory://' });
  return {
    ...database,
    close: async () => {
      await database.close();
      await withAdmin(url, (admin) => admin`drop database if exists ${admin(name)} with (force)`);
    },
  };
}

/** <database of the URL>_w<vitest pool id>_p<process id>, as a plain lowercase identifier. */
function workerDatabaseName(url: string, extra = ''): string {
  const base = decodeURIComponent(new URL(url).pathname.slice(1)) || 'test';
  const worker = process.env.VITEST_POOL_ID ?? process.env.VITEST_WORKER_ID ?? '0';
  const suffix = `_w${worker}_p${process.pid}${extra}`;
  const safeBase = base.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  return `${safeBase.slice(0, 63 - suffix.length)}${suffix.replace(/[^a-z0-9_]/g, '_')}`;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

const markerHost = () => hostname().replace(/[^\w.-]/g, '_');

/**
 * Runs work on an administrative connection: to the URL's own database, or to `postgres` when
 * that one does not exist (the URL's database only names the workers' databases).
 */
async function withAdmin<T>(url: string, work: (admin: postgres.Sql) => Promise<T>): Promise<T> {
  const options = { max: 1, onnotice: () => {}, connect_timeout: 10 };
  let admin = postgres(url, options);
  try {
    await admin`select 1`;
  } catch (error) {
    await admin.end({ timeout: 1 });
    if ((error as { code?: string }).code !== '3D000') throw error;
    admin = postgres(withDatabase(url, 'postgres'), options);
  }
  try {
    return await work(admin);
  } finally {
    await admin.end({ timeout: 5 });
  }
}

/** Drops the databases that workers of this host left behind when they were killed. */
async function dropLeftoverDatabases(admin: postgres.Sql): Promise<void> {
  const rows = await admin<{ name: string; note: string }[]>`
    select datname as name, shobj_description(oid, 'pg_database') as note
    from pg_database
    where shobj_description(oid, 'pg_database') like ${`${MARKER} ${markerHost()} %`}`;
  for (const { name, note } of rows) {
    const pid = Number(note.split(' ').at(-1));
    if (Number.isInteger(pid) && pid !== process.pid && !isAlive(pid)) {
      await admin`drop database if exists ${admin(name)} with (force)`.catch(() => {});
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Runs cleanup when vitest stops this worker. Vitest has no public per-worker teardown; its worker
 * state exposes the listeners it awaits before ending the process, and beforeExit is the fallback.
 */
function onWorkerEnd(cleanup: () => Promise<unknown>): void {
  const bestEffort = () =>
    cleanup().catch((error: unknown) => {
      console.warn(`Test database cleanup failed: ${String(error)}`);
    });
  const state = (globalThis as { __vitest_worker__?: Partial<WorkerGlobalState> }).__vitest_worker__;
  if (typeof state?.onCleanup === 'function') state.onCleanup(bestEffort);
  else process.once('beforeExit', () => void bestEffort());
}
