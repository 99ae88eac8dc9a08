import { getTableColumns, getTableName, sql, type InferInsertModel } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../client';

// One statement carries this many rows as a single JSON parameter.
const ROWS_PER_STATEMENT = 5000;

function toJsonValue(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}

/**
 * Inserts many rows fast: each statement sends its rows as one JSON parameter that PostgreSQL
 * unpacks with json_populate_recordset, instead of one bound parameter per value (which caps a
 * statement at a few thousand rows and costs most of the time in building and binding). Only the
 * columns the rows carry are written; the others take their defaults.
 */
export async function insertMany<T extends PgTable>(
  db: Db,
  table: T,
  rows: InferInsertModel<T>[],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.entries(getTableColumns(table)).filter(([key]) =>
    rows.some((row) => (row as Record<string, unknown>)[key] !== undefined),
  );
  const names = sql.join(
    columns.map(([, column]) => sql.identifier(column.name)),
    sql`, `,
  );
  const tableName = sql.identifier(getTableName(table));
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const chunk = rows
      .slice(start, start + ROWS_PER_STATEMENT)
      .map((row) =>
        Object.fromEntries(
          columns.map(([key, column]) => [
            column.name,
            toJsonValue((row as Record<string, unknown>)[key] ?? null),
          ]),
        ),
      );
    await db.execute(
      sql`insert into ${tableName} (${names}) select ${names} from json_populate_recordset(null::${tableName}, ${JSON.stringify(chunk)}::json)`,
    );
  }
}
