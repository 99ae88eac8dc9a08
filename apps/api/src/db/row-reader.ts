import { types } from '@electric-sql/pglite';
import { Column, is, SQL } from 'drizzle-orm';
import type { DbExecutor } from './client';

type Decoder = { mapFromDriverValue: (value: unknown) => unknown };
type Decode = (value: unknown) => unknown;

const keep = (value: unknown) => value;
/** As Drizzle reads PGlite's answers: dates, times and intervals as PostgreSQL writes them. */
const PGLITE_PARSERS = {
  [types.TIMESTAMP]: keep,
  [types.TIMESTAMPTZ]: keep,
  [types.INTERVAL]: keep,
  [types.DATE]: keep,
  1231: keep, // numeric[]
  1115: keep, // timestamp[]
  1185: keep, // timestamptz[]
  1187: keep, // interval[]
  1182: keep, // date[]
};

type Client =
  | (((...args: never[]) => unknown) & {
      unsafe: (text: string, params: unknown[]) => { values: () => Promise<unknown[][]> };
    })
  | { query: (text: string, params: unknown[], options: object) => Promise<{ rows: unknown[][] }> };

function clientOf(db: DbExecutor) {
  return (db as unknown as { session?: { client?: Client } }).session?.client;
}

/** Whether the database is a PostgreSQL server (postgres.js), not the embedded one (PGlite). */
export function isPostgresServer(db: DbExecutor): boolean {
  const client = clientOf(db);
  return typeof client === 'function' && 'unsafe' in client;
}

/** The query's rows as arrays of the driver's values, as Drizzle itself reads them. */
async function valuesOf(db: DbExecutor, text: string, params: unknown[]): Promise<unknown[][]> {
  const client = clientOf(db);
  if (typeof client === 'function' && 'unsafe' in client) return client.unsafe(text, params).values();
  if (client && typeof client === 'object' && 'query' in client) {
    return (await client.query(text, params, { rowMode: 'array', parsers: PGLITE_PARSERS })).rows;
  }
  throw new Error('rowReader: a database driver it does not know');
}

/** A query as Drizzle builds it, or as withColumnAround wraps one. */
export type BuiltQuery = { toSQL: () => { sql: string; params: unknown[] } };

/**
 * The query with one more column, computed on each row it answers once its LIMIT has cut them: the
 * query itself and its plan stay as they are, and what a page needs of other tables comes in the
 * same round trip instead of a query after the page. Inside the page's own select list, PostgreSQL
 * evaluated such a column for rows the page did not keep (a search's page took twice as long).
 * `column` is SQL over the wrapped rows, named `page` (their columns by their names in the query),
 * and takes its values as `param(i)`, the i-th of `params`. The rows keep the query's order. Read
 * the answer with rowReader, the column as the last field.
 */
export function withColumnAround(
  query: BuiltQuery,
  column: (param: (index: number) => string) => string,
  params: unknown[] = [],
): BuiltQuery {
  return {
    toSQL: () => {
      const built = query.toSQL();
      const param = (index: number) => `$${built.params.length + 1 + index}`;
      return {
        sql: `select page.*, ${column(param)} from (${built.sql}) page`,
        params: [...built.params, ...params],
      };
    },
  };
}

/**
 * Reads the rows of a select of flat fields (columns and aliased SQL, no nested objects) as Drizzle
 * would answer them, with each field's decoder found once instead of once per row and value:
 * Drizzle's row mapping checks every value's field by walking class chains (aliased tables'
 * columns are proxies), and took a fifth of the server's CPU in an export of a million trips.
 * The query is built by Drizzle as usual; only the reading of its answer differs.
 */
export function rowReader<Fields extends Record<string, unknown>>(fields: Fields) {
  const keys = Object.keys(fields);
  const decoders: Decode[] = keys.map((key) => {
    const field = fields[key];
    let decoder: Decoder;
    // An SQL field's decoder (its mapWith, or none) is Drizzle's own, not in its public types.
    const decoderOf = (sqlField: SQL) => (sqlField as unknown as { decoder: Decoder }).decoder;
    if (is(field, Column)) decoder = field;
    else if (is(field, SQL)) decoder = decoderOf(field);
    else if (is(field, SQL.Aliased)) decoder = decoderOf(field.sql);
    else throw new Error(`rowReader: ${key} is neither a column nor SQL`);
    return decoder.mapFromDriverValue.bind(decoder);
  });
  return async <Row>(db: DbExecutor, query: BuiltQuery) => {
    const { sql: text, params } = query.toSQL();
    const answer = await valuesOf(db, text, params);
    const rows = new Array<Row>(answer.length);
    for (let r = 0; r < answer.length; r++) {
      const values = answer[r]!;
      const row: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) {
        const value = values[i];
        row[keys[i]!] = value === null || value === undefined ? null : decoders[i]!(value);
      }
      rows[r] = row as Row;
    }
    return rows;
  };
}
