import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { getTestDatabase } from '../../test/test-database';
import type { Database } from './client';
import { buildDeferredIndexes, deferIndexesOfEmpty, holdsDeferredIndexes } from './deferred-indexes';
import { rowsOf } from './rows';

/**
 * Two tables of each test's own (the worker's database is shared with the other tests): a parent,
 * and a child with a trigram index, an expression index with a statistics target, a plain index, a
 * unique key and a foreign key, as the trips table has.
 */
let database: Database;
let parent: string;
let child: string;

/** Runs statements one at a time (a prepared statement holds one). */
async function run(statements: string) {
  for (const statement of statements
    .split(';')
    .map((text) => text.trim())
    .filter(Boolean)) {
    await database.db.execute(sql.raw(statement));
  }
}

beforeEach(async () => {
  database = await getTestDatabase();
  const tag = randomUUID().slice(0, 8);
  parent = `deferred_parent_${tag}`;
  child = `deferred_child_${tag}`;
  await run(`
    create table ${parent} (id int primary key);
    create table ${child} (
      id int primary key, key text unique, title text, parent_id int references ${parent}(id) on delete cascade);
    create index ${child}_title_idx on ${child} using gin (lower(title) gin_trgm_ops);
    create index ${child}_parent_idx on ${child} (parent_id, id desc);
    create index ${child}_short_idx on ${child} (right(key, 6));
    alter index ${child}_short_idx alter column 1 set statistics 500;`);
});

/** What the catalog says of the child: its indexes, their statistics targets and its constraints. */
async function catalogOf(table: string) {
  const { db } = database;
  const indexes = rowsOf(
    await db.execute(sql`
      select i.indexname as name, i.indexdef as definition, x.indisvalid as valid,
        (select array_agg(a.attstattarget order by a.attnum) from pg_attribute a
         where a.attrelid = c.oid and a.attstattarget > 0) as targets
      from pg_indexes i join pg_class c on c.relname = i.indexname join pg_index x on x.indexrelid = c.oid
      where i.tablename = ${table} order by i.indexname`),
  );
  const constraints = rowsOf(
    await db.execute(sql`
      select conname as name, pg_get_constraintdef(oid) as definition, convalidated as validated
      from pg_constraint where conrelid = ${table}::regclass and contype in ('p', 'u', 'f')
      order by conname`),
  );
  return { indexes, constraints };
}

describe('indexes left out of a first sync', () => {
  it('are dropped from empty tables, kept, and built back as they were', async () => {
    const { db } = database;
    const before = await catalogOf(child);
    expect(before.indexes.map((index) => index.name)).toHaveLength(5);

    expect(await deferIndexesOfEmpty(db, [child])).toBe(true);
    expect(await holdsDeferredIndexes(db)).toBe(true);
    const during = await catalogOf(child);
    // The primary key and the unique key guard the data, and stay.
    expect(during.indexes.map((index) => index.name)).toEqual([`${child}_key_key`, `${child}_pkey`]);
    expect(during.constraints.map((constraint) => constraint.name)).toEqual([
      `${child}_key_key`,
      `${child}_pkey`,
    ]);

    // Rows written meanwhile, as a sync writes them, are found by the indexes built after.
    await db.execute(sql.raw(`insert into ${parent} values (1), (2)`));
    await db.execute(
      sql.raw(
        `insert into ${child} select n, 'k' || n, 'Rider ' || n, 1 + n % 2 from generate_series(1, 500) n`,
      ),
    );
    const answer = await buildDeferredIndexes(db, { concurrently: database.kind === 'postgres' });
    expect(answer.failed).toEqual([]);
    expect(answer.built).toHaveLength(4);
    expect(await holdsDeferredIndexes(db)).toBe(false);
    expect(await catalogOf(child)).toEqual(before);

    // The foreign key holds again, its cascade included.
    await expect(db.execute(sql.raw(`insert into ${child} values (9999, 'x', 'x', 77)`))).rejects.toThrow();
    await db.execute(sql.raw(`delete from ${parent} where id = 1`));
    const [left] = rowsOf(await db.execute(sql.raw(`select count(*)::int as n from ${child}`)));
    expect(left!.n).toBe(250);
  });

  it('are left alone on a table that holds rows', async () => {
    const { db } = database;
    await run(`insert into ${parent} values (1); insert into ${child} values (1, 'a', 'a', 1)`);
    const before = await catalogOf(child);
    expect(await deferIndexesOfEmpty(db, [parent, child])).toBe(false);
    expect(await catalogOf(child)).toEqual(before);
    expect(await holdsDeferredIndexes(db)).toBe(false);
  });

  it('keep a foreign key that rows break unchecked, name it, and still check new rows', async () => {
    const { db } = database;
    expect(await deferIndexesOfEmpty(db, [child])).toBe(true);
    // A row whose parent does not exist, written while the key was off.
    await db.execute(sql.raw(`insert into ${child} values (1, 'a', 'Orphan', 42)`));
    const answer = await buildDeferredIndexes(db, { concurrently: database.kind === 'postgres' });
    const key = `${child}_parent_id_${parent}_id_fk`;
    const [failure] = answer.failed;
    expect(answer.failed).toHaveLength(1);
    expect(failure!.name).toMatch(new RegExp(`^${child}_parent_id_fkey$|^${key}$`));
    expect(failure!.message).toMatch(/violates foreign key constraint/);
    // Tried once: the next start does not try again.
    expect(await holdsDeferredIndexes(db)).toBe(false);
    const after = await catalogOf(child);
    expect(after.constraints.find((constraint) => constraint.name === failure!.name)).toMatchObject({
      validated: false,
    });
    const refused = await db
      .execute(sql.raw(`insert into ${child} values (2, 'b', 'New', 43)`))
      .catch((error: Error) => error);
    expect(String((refused as Error).cause)).toMatch(/violates foreign key constraint/);
    expect(after.indexes.every((index) => index.valid === true)).toBe(true);
    expect(after.indexes).toHaveLength(5);
  });

  it('that already exist are only forgotten', async () => {
    const { db } = database;
    const before = await catalogOf(child);
    expect(await deferIndexesOfEmpty(db, [child])).toBe(true);
    // Another instance built them, and died before forgetting them.
    await buildDeferredIndexes(db);
    await db.execute(sql`
      insert into deferred_indexes (name, table_name, kind, definition)
      select indexname, tablename, 'index', indexdef from pg_indexes where tablename = ${child}
        and indexname like '%_idx'`);
    const answer = await buildDeferredIndexes(db, { concurrently: database.kind === 'postgres' });
    expect(answer).toEqual({ built: expect.any(Array), failed: [] });
    expect(await catalogOf(child)).toEqual(before);
    expect(await holdsDeferredIndexes(db)).toBe(false);
  });
});
