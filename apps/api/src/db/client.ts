import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { MIGRATIONS } from '../paths';
import { lockDataDir } from './data-dir-lock';
import { makeDataDirPrivate, restrictToOwner } from './data-dir-privacy';
import { PgliteThread } from './pglite-thread';
import { preparingStatements } from './prepared-statements';
import { rowsOf } from './rows';
import * as schema from './schema';

export type Schema = typeof schema;
/** The Drizzle database, whichever driver runs underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** A database or an open transaction: a change and what it writes beside it (its audit row) share one. */
export type DbExecutor = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

/** Runs one SQL statement and answers its rows. */
export type SqlReader = (text: string) => Promise<Record<string, unknown>[]>;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  close: () => Promise<void>;
  /**
   * The embedded database only: a copy of its whole data folder (a tar), and what `read` found in
   * it. The copy is taken between two transactions, and `read` runs at that very moment, so it
   * sees exactly the rows the copy holds.
   */
  dump?: <T>(read: (query: SqlReader) => Promise<T>) => Promise<{ tar: Blob; read: T }>;
  /** The embedded database only: calls `listener` if its thread ends unasked (see PgliteThread). */
  onStop?: (listener: (error: Error) => void) => void;
};

/**
 * Refreshes the planner's statistics. PGlite has no autovacuum, and tables filled in bulk (demo
 * data, imports) have none until this runs: the planner then picks plans many times slower.
 */
export async function analyzeDatabase(db: Db): Promise<void> {
  await db.execute(sql`analyze`);
}

/** Tables smaller than this (1 MB) are read whole quickly enough to leave unmarked. */
const VISIBILITY_PAGES = 128;

/**
 * Vacuums (and analyzes) the tables whose dead rows passed autovacuum's own threshold (50 rows and
 * a fifth of the live ones), one at a time, and answers their names. PGlite has no autovacuum:
 * without this, every driver's position report left a dead row version behind for good (HOT
 * pruning frees heap space but not the index entries of a non-HOT update), and the drivers' table
 * and its indexes grew without end on an embedded database that watches a fleet.
 *
 * Also a table of at least VISIBILITY_PAGES pages of which more than a fifth are not marked all
 * visible (pg_class's count, which every vacuum and analyze refreshes and a restart keeps), as
 * autovacuum does after inserts: only marked pages let an index be read without the table, and a
 * table filled by inserts alone (the trips of a seed, an import, the Firebase link) was never
 * marked, so a name search's walk along trips_created_idx read 2,000 trips for each page.
 */
export async function vacuumWhereNeeded(db: Db): Promise<string[]> {
  const due = rowsOf(
    await db.execute(sql`
      select s.relname as name from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where s.schemaname = current_schema()
        and (s.n_dead_tup > 50 + 0.2 * s.n_live_tup
          or (c.relpages >= ${VISIBILITY_PAGES} and c.relallvisible < 0.8 * c.relpages))
      order by s.n_dead_tup desc, s.relname`),
  ).map((row) => String(row.name));
  for (const name of due) await db.execute(sql`vacuum (analyze) ${sql.identifier(name)}`);
  return due;
}

/** Connections each instance keeps to PostgreSQL at most (the embedded database has one). */
export const POOL_SIZE = 10;

/**
 * The PostgreSQL advisory lock held while the schema changes or the demo data loads: instances
 * starting together take turns, and the second finds the work done.
 */
export const SCHEMA_LOCK = 7_420_241_124;

/** Applies the migrations under SCHEMA_LOCK, on a connection of its own (its end frees the lock). */
async function migrateUnderLock(databaseUrl: string): Promise<void> {
  const session = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await session`select pg_advisory_lock(${SCHEMA_LOCK})`;
    await migratePostgres(drizzlePostgres(session), { migrationsFolder: MIGRATIONS });
  } finally {
    await session.end({ timeout: 5 });
  }
}

/** Runs `work` in a transaction that first takes SCHEMA_LOCK (the demo data's load, say). */
export async function inSchemaLock<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SCHEMA_LOCK})`);
    return work(tx as unknown as Db);
  });
}

/**
 * A copy of a PGlite database's data folder. Every query and transaction of PGlite first takes its
 * transaction turn: the copy, taken inside a transaction of its own, therefore falls between two
 * others, and nothing writes while `read` runs and the folder is copied.
 */
async function dumpPglite<T>(client: PgliteThread, read: (query: SqlReader) => Promise<T>) {
  // Writes the changed pages to their files first: the copy then opens with little WAL to replay.
  await client.exec('checkpoint');
  return client.transaction(async (tx) => {
    const found = await read(async (text) => (await tx.query<Record<string, unknown>>(text)).rows);
    // dumpDataDir waits only for the query in progress, which is none: this transaction has the turn.
    return { tar: await client.dumpDataDir('none'), read: found };
  });
}

/**
 * Opens the database and brings its schema up to date: PostgreSQL when a URL is given, otherwise
 * PGlite kept in `dataDir` (or in memory when `dataDir` is 'memory://'). With `migrate: false` the
 * schema stays as found (a backup copies the database, it does not change it).
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  migrate?: boolean;
}): Promise<Database> {
  // Every command opens its data folder here (the server, seed, create-admin, the imports...):
  // here it is made private, once for all of them. With PostgreSQL it may still hold the token
  // secret and the document images.
  const dataDir = options.dataDir === 'memory://' ? undefined : options.dataDir;
  if (dataDir && (!options.databaseUrl || existsSync(dataDir))) makeDataDirPrivate(dataDir);
  if (options.databaseUrl) {
    const client = postgres(options.databaseUrl, {
      max: POOL_SIZE,
      onnotice: () => {},
      connection: {
        // One name per instance: its connections can be told apart in pg_stat_activity (the
        // metrics count them by state there).
        application_name: `bmet-console ${hostname()} ${process.pid}`.slice(0, 63),
        // Statements are prepared once per connection (see preparingStatements) but planned for
        // each execution's values: a plan made once for any title search or scope could be far worse.
        plan_cache_mode: 'force_custom_plan',
        // Compiling a query to machine code pays off only for long analytic queries. The list
        // queries' estimates reach the JIT threshold when the planner cannot know a scope is small:
        // a city dealer's 0.3 ms page then spent 6 ms compiling.
        jit: 'off',
      },
    });
    const db = drizzlePostgres(preparingStatements(client), { schema });
    if (options.migrate !== false) {
      await migrateUnderLock(options.databaseUrl);
      await analyzeDatabase(db as unknown as Db);
    }
    return { db: db as unknown as Db, kind: 'postgres', close: () => client.end({ timeout: 5 }) };
  }
  const location = dataDir && join(dataDir, 'pglite');
  // PGlite has no lock of its own: a second process on the same folder would lose its writes.
  const unlock = dataDir ? lockDataDir(dataDir) : () => {};
  let client: PgliteThread | undefined;
  try {
    // PGlite runs in a thread of its own (db/pglite-thread.ts); Drizzle uses it as it would PGlite.
    const thread = await PgliteThread.open(location);
    client = thread;
    // PGlite sets the mode of the files it writes from JavaScript (a new database's initial files,
    // 0666), past the umask; the folder is private already, and now its files are too.
    if (location) restrictToOwner(location);
    const db = drizzlePglite({ client: thread as unknown as PGlite, schema });
    if (options.migrate !== false) {
      await migratePglite(db, { migrationsFolder: MIGRATIONS });
      await analyzeDatabase(db as unknown as Db);
    }
    return {
      db: db as unknown as Db,
      kind: 'pglite',
      dump: (read) => dumpPglite(thread, read),
      onStop: (listener) => thread.onStop(listener),
      close: async () => {
        try {
          await thread.close();
        } finally {
          unlock();
        }
      },
    };
  } catch (error) {
    // A failed migration leaves no thread holding the folder: it can be opened again.
    await client?.close().catch(() => {});
    unlock();
    throw error;
  }
}
