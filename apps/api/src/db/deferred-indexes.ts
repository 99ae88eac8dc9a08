import { sql } from 'drizzle-orm';
import type { Db } from './client';
import { rowsOf } from './rows';

/**
 * Indexes built once after a large load instead of row by row during it. Building an index over a
 * million rows costs a fraction of maintaining it for each row inserted (a trigram index above
 * all), and a foreign key checked once at the end takes no lock on a parent row per child written.
 *
 * Two ways use this: a load in one transaction (seed/bulk-insert.ts: the demo data, the import),
 * and a first sync of the Firebase link, which writes in many transactions while the console
 * serves (`deferIndexesOfEmpty`, `buildDeferredIndexes`): there the definitions are kept in
 * `deferred_indexes` until built, so that a server that dies halfway builds them when it starts
 * again, and the indexes are built without blocking the table's readers and writers.
 */

/** A secondary index as the catalog defines it, with the statistics targets of its expressions. */
export type IndexDefinition = {
  name: string;
  table: string;
  definition: string;
  targets: StatisticsTarget[];
};
export type StatisticsTarget = { column: number; target: number };
export type ForeignKeyDefinition = { name: string; table: string; definition: string };

const names = (tables: readonly string[]) =>
  sql.join(
    tables.map((table) => sql`${table}`),
    sql`, `,
  );

/**
 * The tables' indexes that are neither primary nor unique (those guard the data and stay), with
 * the statistics targets set on their expressions (see migration 0005).
 */
export async function secondaryIndexesOf(db: Db, tables: readonly string[]): Promise<IndexDefinition[]> {
  return rowsOf(
    await db.execute(sql`
      select i.indexname as name, i.tablename as "table", i.indexdef as definition,
        (select coalesce(json_agg(json_build_object('column', a.attnum, 'target', a.attstattarget)), '[]')
         from pg_attribute a where a.attrelid = c.oid and a.attstattarget > 0) as targets
      from pg_indexes i
      join pg_class c on c.relname = i.indexname
      join pg_namespace n on n.oid = c.relnamespace and n.nspname = i.schemaname
      join pg_index x on x.indexrelid = c.oid
      where i.schemaname = current_schema() and i.tablename in (${names(tables)})
        and not x.indisunique and not x.indisprimary
      order by i.indexname`),
  ).map((row) => ({
    name: String(row.name),
    table: String(row.table),
    definition: String(row.definition),
    targets: (typeof row.targets === 'string' ? JSON.parse(row.targets) : row.targets) as StatisticsTarget[],
  }));
}

/** The foreign keys the tables hold (not those that point at them). */
export async function foreignKeysOf(db: Db, tables: readonly string[]): Promise<ForeignKeyDefinition[]> {
  return rowsOf(
    await db.execute(sql`
      select c.conname as name, r.relname as "table", pg_get_constraintdef(c.oid) as definition
      from pg_constraint c join pg_class r on r.oid = c.conrelid
      join pg_namespace n on n.oid = r.relnamespace and n.nspname = current_schema()
      where c.contype = 'f' and r.relname in (${names(tables)})
      order by c.conname`),
  ).map((row) => ({ name: String(row.name), table: String(row.table), definition: String(row.definition) }));
}

export async function dropIndex(db: Db, index: { name: string }): Promise<void> {
  await db.execute(sql`drop index if exists ${sql.identifier(index.name)}`);
}

export async function dropForeignKey(db: Db, key: ForeignKeyDefinition): Promise<void> {
  await db.execute(
    sql`alter table ${sql.identifier(key.table)} drop constraint if exists ${sql.identifier(key.name)}`,
  );
}

/**
 * Builds an index from its catalog definition (pg_indexes.indexdef, never an input), with its
 * statistics targets. `concurrently`: without blocking the table's writers (PostgreSQL; it cannot
 * run inside a transaction).
 */
export async function buildIndex(
  db: Db,
  index: IndexDefinition,
  { concurrently = false }: { concurrently?: boolean } = {},
): Promise<void> {
  const definition = concurrently
    ? index.definition.replace(/^CREATE INDEX /, 'CREATE INDEX CONCURRENTLY ')
    : index.definition;
  await db.execute(sql.raw(definition));
  for (const { column, target } of index.targets) {
    await db.execute(
      sql`alter index ${sql.identifier(index.name)} alter column ${sql.raw(String(Number(column)))} set statistics ${sql.raw(String(Number(target)))}`,
    );
  }
}

/** Adds a foreign key from its catalog definition (pg_get_constraintdef, never an input). */
export async function addForeignKey(db: Db, key: ForeignKeyDefinition): Promise<void> {
  await db.execute(
    sql`alter table ${sql.identifier(key.table)} add constraint ${sql.identifier(key.name)} ${sql.raw(key.definition)}`,
  );
}

/**
 * When every table is empty, drops their secondary indexes and foreign keys and keeps their
 * definitions in `deferred_indexes`, in one transaction: answers whether it did. On an empty table
 * the drop takes its lock for an instant. A table that holds rows keeps its indexes: its rows are
 * written as usual.
 */
export async function deferIndexesOfEmpty(db: Db, tables: readonly string[]): Promise<boolean> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    for (const table of tables) {
      await tx.execute(sql`lock table ${sql.identifier(table)} in share row exclusive mode`);
      const [row] = rowsOf(
        await tx.execute(sql`select not exists (select 1 from ${sql.identifier(table)}) as empty`),
      );
      if (row?.empty !== true) return false;
    }
    const indexes = await secondaryIndexesOf(tx, tables);
    const keys = await foreignKeysOf(tx, tables);
    const kept = [
      ...indexes.map((index) => ({ ...index, kind: 'index', targets: index.targets })),
      ...keys.map((key) => ({ ...key, kind: 'foreign key', targets: [] })),
    ];
    if (kept.length === 0) return false;
    await tx.execute(sql`
      insert into deferred_indexes (name, table_name, kind, definition, targets)
      select name, "table", kind, definition, targets
      from json_to_recordset(${JSON.stringify(kept)}::json)
        as v(name text, "table" text, kind text, definition text, targets jsonb)
      on conflict (name) do nothing`);
    for (const key of keys) await dropForeignKey(tx, key);
    for (const index of indexes) await dropIndex(tx, index);
    return true;
  });
}

/** Whether indexes wait in `deferred_indexes` to be built. */
export async function holdsDeferredIndexes(db: Db): Promise<boolean> {
  const [row] = rowsOf(await db.execute(sql`select exists (select 1 from deferred_indexes) as held`));
  return row?.held === true;
}

/**
 * Builds what `deferred_indexes` holds, one at a time, and forgets each once built: indexes first
 * (a foreign key's check reads them), then foreign keys. On PostgreSQL (`concurrently`) an index is
 * built without blocking the table's writers. A foreign key is added unchecked (its lock is held
 * for an instant; new rows are checked from then on) and then validated while rows are written.
 * An index a killed build left invalid is dropped and built again. What could not be built stays
 * for the next try, but a foreign key that rows break, which is kept unchecked and named in the
 * answer rather than tried again at every start.
 */
export async function buildDeferredIndexes(
  db: Db,
  { concurrently = false }: { concurrently?: boolean } = {},
): Promise<{ built: string[]; failed: { name: string; message: string }[] }> {
  const rows = rowsOf(
    await db.execute(sql`
      select name, table_name as "table", kind, definition, targets from deferred_indexes
      order by kind desc, name`),
  );
  const built: string[] = [];
  const failed: { name: string; message: string }[] = [];
  for (const row of rows) {
    const name = String(row.name);
    const table = String(row.table);
    const definition = String(row.definition);
    const forget = () => db.execute(sql`delete from deferred_indexes where name = ${name}`);
    try {
      if (row.kind === 'index') {
        const targets = (
          typeof row.targets === 'string' ? JSON.parse(row.targets) : row.targets
        ) as StatisticsTarget[];
        await buildDeferredIndex(db, { name, table, definition, targets }, concurrently);
        await forget();
      } else {
        await addUncheckedForeignKey(db, { name, table, definition });
        // From here the key holds for new rows: what is left is checking the rows already written.
        await forget();
        await db.execute(
          sql`alter table ${sql.identifier(table)} validate constraint ${sql.identifier(name)}`,
        );
      }
      built.push(name);
    } catch (error) {
      failed.push({ name, message: databaseMessage(error) });
    }
  }
  return { built, failed };
}

async function buildDeferredIndex(db: Db, index: IndexDefinition, concurrently: boolean): Promise<void> {
  const [present] = rowsOf(
    await db.execute(sql`
      select x.indisvalid as valid from pg_class c
      join pg_namespace n on n.oid = c.relnamespace and n.nspname = current_schema()
      join pg_index x on x.indexrelid = c.oid
      where c.relname = ${index.name}`),
  );
  if (present?.valid === true) return;
  if (present) {
    await db.execute(
      concurrently
        ? sql`drop index concurrently if exists ${sql.identifier(index.name)}`
        : sql`drop index if exists ${sql.identifier(index.name)}`,
    );
  }
  await buildIndex(db, index, { concurrently });
}

/** Adds a foreign key without checking the rows it finds (NOT VALID), unless the table has it. */
async function addUncheckedForeignKey(db: Db, key: ForeignKeyDefinition): Promise<void> {
  const [present] = rowsOf(
    await db.execute(sql`
      select 1 as present from pg_constraint c
      join pg_class r on r.oid = c.conrelid
      join pg_namespace n on n.oid = r.relnamespace and n.nspname = current_schema()
      where c.conname = ${key.name} and r.relname = ${key.table}`),
  );
  if (!present) await addForeignKey(db, { ...key, definition: `${key.definition} NOT VALID` });
}

/** The database's own words for a failed statement (the query runner wraps them with the query). */
function databaseMessage(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error || (cause && typeof (cause as { message?: unknown }).message === 'string')) {
    return (cause as { message: string }).message;
  }
  return error instanceof Error ? error.message : String(error);
}
