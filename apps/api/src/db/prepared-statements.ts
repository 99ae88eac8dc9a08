import type postgres from 'postgres';

/**
 * The PostgreSQL client as Drizzle should use it. Drizzle sends its queries unnamed, and for a
 * query with parameters postgres.js then asks the server for their types before it can send them:
 * two round trips and twice the socket writes for every query (a quarter of the server's CPU on a
 * list page went to those writes). Named, a statement is described once per connection and then
 * only bound and executed. Each connection keeps one statement per query shape; queries pass
 * lists as one array parameter (db/any-of.ts), so the shapes are few. The connection plans every
 * execution for its parameters (plan_cache_mode, set in openDatabase), as unnamed statements were.
 */
export function preparingStatements<T extends postgres.Sql>(client: T): T {
  return new Proxy(client, {
    get(target, key, receiver) {
      if (key === 'unsafe') {
        return (
          query: string,
          parameters?: postgres.ParameterOrJSON<never>[],
          options?: postgres.UnsafeQueryOptions,
        ) =>
          target.unsafe(query, parameters, {
            ...options,
            prepare: true,
            // postgres.js sends a query without parameters as a simple query, parsed and planned at
            // every execution; one select alone can be a named statement, planned once and kept.
            ...(!parameters?.length && isOneSelect(query) ? { simple: false } : {}),
          });
      }
      // Transactions and savepoints hand their own client to the callback.
      if (key === 'begin' || key === 'savepoint') {
        const method = Reflect.get(target, key, receiver) as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => {
          const callback = args.pop() as (client: postgres.Sql) => unknown;
          return method.call(target, ...args, (inner: postgres.Sql) => callback(preparingStatements(inner)));
        };
      }
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

/**
 * A single select, as the query builder writes them: several statements (a migration, a script)
 * cannot be one prepared statement, and are left to the simple protocol.
 */
function isOneSelect(query: string): boolean {
  return /^\s*(select|with)\s/i.test(query) && !query.includes(';');
}
