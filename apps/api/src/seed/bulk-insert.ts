import { getTableColumns, getTableName, sql, type InferInsertModel } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import {
  addForeignKey,
  buildIndex,
  dropForeignKey,
  dropIndex,
  foreignKeysOf,
  secondaryIndexesOf,
} from '../db/deferred-indexes';

// One statement carries this many rows as a single JSON parameter.
const ROWS_PER_STATEMENT = 5000;

/** Rows made ready for `insertPrepared`: a table's columns and the JSON of each statement's rows. */
export type PreparedRows = { table: string; columns: string[]; statements: string[] };

/**
 * The rows as `insertPrepared` sends them, made apart from the sending so that a load can make the
 * next batch's while the database stores the last one. Only the columns the rows carry are
 * written; the others take their defaults. A date goes as its ISO text (its `toJSON`).
 */
export function prepareRows<T extends PgTable>(table: T, rows: InferInsertModel<T>[]): PreparedRows {
  const columns = Object.entries(getTableColumns(table))
    .filter(([key]) => rows.some((row) => (row as Record<string, unknown>)[key] !== undefined))
    .map(([key, column]) => [key, column.name] as const);
  const statements: string[] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_PER_STATEMENT).map((row) => {
      const named: Record<string, unknown> = {};
      for (const [key, name] of columns) named[name] = (row as Record<string, unknown>)[key] ?? null;
      return named;
    });
    statements.push(JSON.stringify(chunk));
  }
  return { table: getTableName(table), columns: columns.map(([, name]) => name), statements };
}

/**
 * Inserts prepared rows fast: each statement sends its rows as one JSON parameter that PostgreSQL
 * unpacks with json_populate_recordset, instead of one bound parameter per value (which caps a
 * statement at a few thousand rows and costs most of the time in building and binding).
 */
export async function insertPrepared(db: Db, prepared: PreparedRows): Promise<void> {
  const names = sql.join(
    prepared.columns.map((name) => sql.identifier(name)),
    sql`, `,
  );
  const tableName = sql.identifier(prepared.table);
  for (const rows of prepared.statements) {
    await db.execute(
      sql`insert into ${tableName} (${names}) select ${names} from json_populate_recordset(null::${tableName}, ${rows}::json)`,
    );
  }
}

/**
 * Stores prepared batches one after another while the caller makes the next: `store` waits for
 * the batch before (not for its own) and starts its own; `stored` waits for the last.
 */
export function storingInTurn(db: Db) {
  let last: Promise<void> = Promise.resolve();
  return {
    async store(batch: PreparedRows[], onStored?: () => void): Promise<void> {
      await last;
      last = (async () => {
        for (const rows of batch) await insertPrepared(db, rows);
        onStored?.();
      })();
    },
    stored: () => last,
  };
}

/** Inserts many rows fast (`prepareRows`, then `insertPrepared`). */
export async function insertMany<T extends PgTable>(
  db: Db,
  table: T,
  rows: InferInsertModel<T>[],
): Promise<void> {
  if (rows.length === 0) return;
  await insertPrepared(db, prepareRows(table, rows));
}

/** The triggers that keep figures derived from a table's rows, and the function that recomputes them. */
const FIGURES: { triggers: [table: string, trigger: string][]; rebuild: string }[] = [
  {
    triggers: [
      ['trips', 'trip_stats_insert'],
      ['trips', 'trip_stats_update'],
      ['trips', 'trip_stats_delete'],
      ['drivers', 'trip_stats_driver_move'],
    ],
    rebuild: 'trip_stats_rebuild',
  },
  {
    triggers: [
      ['driver_documents', 'documents_awaiting_review_insert'],
      ['driver_documents', 'documents_awaiting_review_update'],
      ['driver_documents', 'documents_awaiting_review_delete'],
    ],
    rebuild: 'documents_awaiting_review_rebuild',
  },
  {
    triggers: [
      ['driver_documents', 'driver_mandatory_documents_insert'],
      ['driver_documents', 'driver_mandatory_documents_update'],
      ['driver_documents', 'driver_mandatory_documents_delete'],
    ],
    rebuild: 'driver_mandatory_documents_rebuild',
  },
  {
    triggers: [
      ['driver_documents', 'compliance_counts_documents_insert'],
      ['driver_documents', 'compliance_counts_documents_update'],
      ['driver_documents', 'compliance_counts_documents_delete'],
      ['driver_checks', 'compliance_counts_checks_insert'],
      ['driver_checks', 'compliance_counts_checks_update'],
      ['driver_checks', 'compliance_counts_checks_delete'],
      ['drivers', 'compliance_counts_driver_move'],
      ['drivers', 'compliance_counts_driver_delete'],
    ],
    rebuild: 'compliance_counts_rebuild',
  },
  {
    triggers: [
      ['drivers', 'driver_counts_insert'],
      ['drivers', 'driver_counts_delete'],
      ['drivers', 'driver_counts_move'],
    ],
    rebuild: 'driver_counts_rebuild',
  },
  {
    triggers: [
      ['driver_ratings', 'driver_rating_insert'],
      ['driver_ratings', 'driver_rating_update'],
      ['driver_ratings', 'driver_rating_delete'],
    ],
    rebuild: 'driver_rating_rebuild',
  },
  {
    triggers: [
      ['drivers', 'vehicles_driver_insert'],
      ['drivers', 'vehicles_driver_update'],
      ['vehicles', 'vehicle_documents_follow'],
    ],
    rebuild: 'vehicles_rebuild',
  },
  {
    triggers: [
      ['drivers', 'driver_search_insert'],
      ['drivers', 'driver_search_update'],
      ['drivers', 'driver_search_delete'],
    ],
    rebuild: 'driver_search_rebuild',
  },
  {
    triggers: [
      ['trips', 'trip_titles_insert'],
      ['trips', 'trip_titles_update'],
    ],
    rebuild: 'trip_titles_rebuild',
  },
  {
    triggers: [
      ['customers', 'customer_count_insert'],
      ['customers', 'customer_count_delete'],
    ],
    rebuild: 'customer_count_rebuild',
  },
];

/**
 * Runs a bulk load into empty tables in one transaction, with their secondary indexes dropped
 * before and built once after: building an index (a trigram index above all) over a million rows
 * costs a fraction of maintaining it row by row. Primary keys and unique indexes stay: they guard
 * the data. A load that fails or is killed rolls back with the indexes as they were.
 * With `foreignKeys`, the tables' foreign keys are dropped too and added back after the load,
 * which checks every row at once (as pg_restore does) instead of one lookup per row inserted.
 * The figures triggers keep from these tables (the dashboard's daily trip figures and each
 * driver's count of documents awaiting review, migration 0010; each franchise's count of drivers,
 * migration 0015; the count of customers, migration 0016; each driver's sum and count of
 * ratings, migration 0017; each driver's mandatory documents, migration 0021; the vehicles of the drivers' car details,
 * migration 0030; what the driver search reads, migration 0043; the titles of the trips, migration 0040; what the compliance views hold, migration 0041) are switched off for the load and recomputed once after it (migrations
 * 0014 to 0017): one grouped pass instead of a grouped upsert per batch written.
 * `afterFigures` writes to the rows the figures made (the vehicles made from the drivers' car
 * details) before the indexes are built: 100,000 vehicles updated with their trigram index
 * in place took 7.7 s.
 * `indexMemory` (such as '512MB') is what each index build after the load may sort in on
 * PostgreSQL (`maintenance_work_mem`, 64 MB by default), for a load whose indexes would sort on
 * disk otherwise; the embedded database, whose memory is a 32-bit heap of its own, keeps its
 * default. The import leaves it alone: it may run beside a live console on a small server.
 */
export async function loadWithIndexesBuiltAfter<T>(
  db: Db,
  tables: PgTable[],
  load: (tx: Db) => Promise<T>,
  options: {
    foreignKeys?: boolean;
    indexMemory?: `${number}MB` | `${number}GB`;
    afterFigures?: (tx: Db) => Promise<void>;
  } = {},
): Promise<T> {
  const names = tables.map((table) => getTableName(table));
  const figures = FIGURES.filter((figure) => figure.triggers.some(([table]) => names.includes(table)));
  const figureTriggers = figures.flatMap((figure) =>
    figure.triggers.filter(([table]) => names.includes(table)),
  );
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    for (const [table, trigger] of figureTriggers)
      await tx.execute(sql`alter table ${sql.identifier(table)} disable trigger ${sql.identifier(trigger)}`);
    if (options.indexMemory) {
      await tx.execute(
        sql`select set_config('maintenance_work_mem', ${options.indexMemory}, true) where version() not like '%emscripten%'`,
      );
    }
    const foreignKeys = options.foreignKeys ? await foreignKeysOf(tx, names) : [];
    for (const key of foreignKeys) await dropForeignKey(tx, key);
    const indexes = await secondaryIndexesOf(tx, names);
    for (const index of indexes) await dropIndex(tx, index);
    const result = await load(tx);
    for (const [table, trigger] of figureTriggers)
      await tx.execute(sql`alter table ${sql.identifier(table)} enable trigger ${sql.identifier(trigger)}`);
    for (const figure of figures) await tx.execute(sql`select ${sql.identifier(figure.rebuild)}()`);
    await options.afterFigures?.(tx);
    for (const key of foreignKeys) await addForeignKey(tx, key);
    for (const index of indexes) await buildIndex(tx, index);
    return result;
  });
}
