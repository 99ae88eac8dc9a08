import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { lockDataDir } from './data-dir-lock';
import { preparingStatements } from './prepared-statements';
import * as schema from './schema';

export type Schema = typeof schema;
/** The Drizzle database, whichever driver runs underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  close: () => Promise<void>;
};

/**
 * Refreshes the planner's statistics. PGlite has no autovacuum, and tables filled in bulk (demo
 * data, imports) have none until this runs: the planner then picks plans many times slower.
 */
export async function analyzeDatabase(db: Db): Promise<void> {
  await db.execute(sql`analyze`);
}

const MIGRATIONS = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

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
 * Opens the database and brings its schema up to date: PostgreSQL when a URL is given, otherwise
 * PGlite kept in `dataDir` (or in memory when `dataDir` is 'memory://').
 */
export async function openDatabase(options: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  if (options.databaseUrl) {
    const client = postgres(options.databaseUrl, {
      max: 10,
      onnotice: () => {},
      connection: {
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
    await migrateUnderLock(options.databaseUrl);
    await analyzeDatabase(db as unknown as Db);
    return { db: db as unknown as Db, kind: 'postgres', close: () => client.end({ timeout: 5 }) };
  }
  const location = options.dataDir === 'memory://' ? undefined : join(options.dataDir, 'pglite');
  if (location) mkdirSync(dirname(location), { recursive: true });
  // PGlite has no lock of its own: a second process on the same folder would lose its writes.
  const unlock = location ? lockDataDir(options.dataDir) : () => {};
  try {
    const client = await PGlite.create(location, { extensions: { pg_trgm } });
    const db = drizzlePglite(client, { schema });
    await migratePglite(db, { migrationsFolder: MIGRATIONS });
    await analyzeDatabase(db as unknown as Db);
    return {
      db: db as unknown as Db,
      kind: 'pglite',
      close: async () => {
        try {
          await client.close();
        } finally {
          unlock();
        }
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}
