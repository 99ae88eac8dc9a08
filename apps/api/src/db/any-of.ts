import { sql, type Column, type SQL } from 'drizzle-orm';

/**
 * `column = any($1::type[])`: a list of values as one parameter. `inArray` writes one parameter per
 * value, so every list of another length is another statement, which the database client prepares
 * anew (a round trip more, and one more statement kept on the connection for good): a page's
 * driver ids, a batch of device tokens. With one array parameter each such query is prepared once.
 */
export function anyOf(column: Column | SQL, values: readonly string[], type: 'uuid' | 'text'): SQL {
  return sql`${column} = any(${sql.param(values)}::${sql.raw(type)}[])`;
}
