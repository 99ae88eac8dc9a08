import { sql, type SQLChunk } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';

/** A column the import writes: its name in the table and the type json_to_recordset reads it as. */
export type ImportColumn = readonly [name: string, type: string];

/** A parent found by its Firebase key: the row carries `key`, the table gets `column` = its id. */
export type ParentLink = { column: string; table: string; key: string; required: boolean };

export type UpsertSpec = {
  table: string;
  /** Every column written, firebase_key first; compared to tell updated rows from unchanged ones. */
  columns: readonly ImportColumn[];
  parents?: readonly ParentLink[];
};

export type UpsertResult = {
  inserted: Set<string>;
  updated: Set<string>;
  /** Per parent key field (driver_key...): the rows that named a parent no row has. */
  missing: Map<string, Set<string>>;
};

const ident = (name: string) => sql.identifier(name);
const list = (items: SQLChunk[]) => sql.join(items, sql`, `);

/**
 * Inserts or updates rows by their Firebase key in one statement: the rows travel as one JSON
 * parameter (json_to_recordset), parents are found by their own Firebase keys in the same
 * statement (a lookup in the parent's key index each: the planner, which expects 100 rows of any
 * JSON, would otherwise scan a million customers to join a thousand trips), and a row whose values are all equal is left alone (not even rewritten). Answers which
 * keys were inserted and which updated (the others were unchanged), and which rows named a parent
 * that does not exist: without a required parent a row is not written. When a key appears twice,
 * the last row wins.
 */
export async function upsertByFirebaseKey(
  db: Db,
  spec: UpsertSpec,
  rows: readonly Record<string, unknown>[],
): Promise<UpsertResult> {
  const result: UpsertResult = { inserted: new Set(), updated: new Set(), missing: new Map() };
  if (rows.length === 0) return result;
  const unique = [...new Map(rows.map((row) => [row.firebase_key as string, row])).values()];
  const parents = spec.parents ?? [];
  const inputColumns = [...spec.columns, ...parents.map((p) => [p.key, 'text'] as const)];
  const recordType = list(inputColumns.map(([name, type]) => sql`${ident(name)} ${sql.raw(type)}`));
  const compared = [...spec.columns.map(([name]) => name), ...parents.map((p) => p.column)];
  const required = parents.flatMap((p, i) => (p.required ? [sql`v.${ident(`parent${i}`)} is not null`] : []));
  const row = (prefix: string) => list(compared.map((name) => sql`${sql.raw(prefix)}.${ident(name)}`));
  const missing = parents.map(
    (p, i) =>
      sql` union all select v.firebase_key, null, ${p.key} from v where v.${ident(p.key)} is not null and v.${ident(`parent${i}`)} is null`,
  );
  const statement = sql`
    with v as (
      select v.*${sql.join(
        parents.map(
          (p, i) =>
            sql`, (select p.id from ${ident(p.table)} p where p.firebase_key = v.${ident(p.key)}) as ${ident(`parent${i}`)}`,
        ),
        sql``,
      )}
      from json_to_recordset(${JSON.stringify(unique)}::json) as v(${recordType})
    ),
    written as (
      insert into ${ident(spec.table)} as t (${list(compared.map(ident))})
      select ${list([
        ...spec.columns.map(([name]) => sql`v.${ident(name)}`),
        ...parents.map((_, i) => sql`v.${ident(`parent${i}`)}`),
      ])}
      from v${required.length ? sql` where ${sql.join(required, sql` and `)}` : sql``}
      on conflict (firebase_key) do update set ${list(compared.map((name) => sql`${ident(name)} = excluded.${ident(name)}`))}
      where (${row('t')}) is distinct from (${row('excluded')})
      returning t.firebase_key as key, (t.xmax = 0) as inserted
    )
    select key, inserted, null::text as missing from written${sql.join(missing, sql``)}`;
  for (const answer of rowsOf(await db.execute(statement))) {
    const key = String(answer.key);
    if (typeof answer.missing === 'string') {
      const keys = result.missing.get(answer.missing) ?? new Set<string>();
      keys.add(key);
      result.missing.set(answer.missing, keys);
    } else (answer.inserted ? result.inserted : result.updated).add(key);
  }
  return result;
}

/** The ids of the rows with these Firebase keys. */
export async function findIdsByKey(
  db: Db,
  table: string,
  keys: readonly string[],
): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = rowsOf(
    await db.execute(sql`
      select firebase_key as key, id from ${ident(table)}
      where firebase_key in (select json_array_elements_text(${JSON.stringify([...new Set(keys)])}::json))`),
  );
  return new Map(rows.map((row) => [String(row.key), String(row.id)]));
}
