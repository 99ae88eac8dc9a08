import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparingStatements } from './prepared-statements';

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('statements on PostgreSQL', () => {
  let client: postgres.Sql;
  const prepared = async (text: string) =>
    client.unsafe<{ n: number }[]>(
      'select count(*)::int as n from pg_prepared_statements where statement = $1 and not from_sql',
      [text],
    );

  beforeAll(() => {
    // One connection, so that every query sees the statements the others prepared.
    client = preparingStatements(postgres(url!, { max: 1, onnotice: () => {} }));
  });
  afterAll(() => client.end({ timeout: 1 }));

  it('keeps a select without parameters as a named statement, planned once for the connection', async () => {
    const text = 'select 41 + 1 as answer';
    expect(await client.unsafe(text)).toEqual([{ answer: 42 }]);
    expect(await client.unsafe(text)).toEqual([{ answer: 42 }]);
    expect((await prepared(text))[0]!.n).toBe(1);
    // Both executions used the one plan kept for the statement; none was planned for itself.
    const [plans] = await client.unsafe<{ generic: number; custom: number }[]>(
      'select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where statement = $1',
      [text],
    );
    expect(plans).toEqual({ generic: 2, custom: 0 });
  });

  it('keeps a select with parameters as a named statement too', async () => {
    const text = 'select $1::int + 1 as answer';
    expect(await client.unsafe(text, [6])).toEqual([{ answer: 7 }]);
    expect((await prepared(text))[0]!.n).toBe(1);
  });

  it('runs several statements in one text as a simple query, without preparing them', async () => {
    const text = 'select 1 as a; select 2 as b';
    const results = (await client.unsafe(text)) as unknown as { a?: number; b?: number }[][];
    expect(results).toEqual([[{ a: 1 }], [{ b: 2 }]]);
    expect((await prepared(text))[0]!.n).toBe(0);
    const ddl = 'create temporary table scratch (id int)';
    await client.unsafe(ddl);
    expect((await prepared(ddl))[0]!.n).toBe(0);
  });
});
